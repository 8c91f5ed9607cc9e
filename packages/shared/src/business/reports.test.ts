import { describe, expect, it } from 'vitest';
import {
  type CashupFact,
  cashupReport,
  debtorAging,
  debtorsReport,
  isReportPeriod,
  monthPeriod,
  profitReport,
  vatReport,
} from './reports.js';

/*
 * The shop's daily reports from plain fact rows (issue 32 point 8), every figure worked by hand
 * in the comments beside it.
 */

describe('periods', () => {
  it('takes a period of at most a year, both days included', () => {
    expect(isReportPeriod('2026-01-01', '2026-12-31')).toBe(true); // 365 days
    expect(isReportPeriod('2024-01-01', '2024-12-31')).toBe(true); // 366 days, a leap year
    expect(isReportPeriod('2026-01-01', '2027-01-01')).toBe(false); // a year and a day
    expect(isReportPeriod('2026-03-05', '2026-03-05')).toBe(true);
    expect(isReportPeriod('2026-03-05', '2026-03-04')).toBe(false);
    expect(isReportPeriod('2026-02-30', '2026-03-04')).toBe(false);
    expect(isReportPeriod('2024-02-29', '2025-02-28')).toBe(true);
    expect(isReportPeriod('2024-02-29', '2025-03-01')).toBe(false);
  });

  it('knows a month’s last day', () => {
    expect(monthPeriod('2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthPeriod('2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthPeriod('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('ages by days past due: not yet due is current, then 1-30, 31-60, 61-90, over 90', () => {
    expect(debtorAging('2026-11-30', '2026-11-30')).toEqual({ days: 0, bucket: 'current' });
    expect(debtorAging('2026-12-10', '2026-11-30')).toEqual({ days: 0, bucket: 'current' });
    expect(debtorAging('2026-11-29', '2026-11-30')).toEqual({ days: 1, bucket: '1_30' });
    expect(debtorAging('2026-10-31', '2026-11-30')).toEqual({ days: 30, bucket: '1_30' });
    expect(debtorAging('2026-10-30', '2026-11-30')).toEqual({ days: 31, bucket: '31_60' });
    expect(debtorAging('2026-10-01', '2026-11-30')).toEqual({ days: 60, bucket: '31_60' });
    expect(debtorAging('2026-09-01', '2026-11-30')).toEqual({ days: 90, bucket: '61_90' });
    expect(debtorAging('2026-08-31', '2026-11-30')).toEqual({ days: 91, bucket: 'over_90' });
  });
});

describe('the cash-up', () => {
  const fact = (day: string, method: CashupFact['method'], cashier: string, count: number, amount: string): CashupFact => ({
    day,
    method,
    currency_code: 'UGX',
    cashier_id: cashier,
    cashier_name: cashier === 'a' ? 'Agnes' : 'Brian',
    count,
    amount,
  });

  it('sums each day, each cashier and the period by method, with counts', () => {
    const report = cashupReport(
      { from: '2026-11-01', to: '2026-11-30' },
      [
        fact('2026-11-02', 'cash', 'b', 3, '45000'),
        fact('2026-11-02', 'cash', 'a', 2, '11800.5'),
        fact('2026-11-02', 'mtn_momo', 'a', 1, '59000'),
        fact('2026-11-01', 'airtel_money', 'b', 1, '20000'),
        fact('2026-11-01', 'cheque', 'a', 1, '100000'),
      ],
      [],
    );
    expect(report.days.map((day) => day.day)).toEqual(['2026-11-01', '2026-11-02']);
    // 1 Nov: 20,000 Airtel + 100,000 cheque = 120,000 in 2 receipts.
    expect(report.days[0]).toMatchObject({ count: 2, amount: '120000' });
    expect(report.days[0]?.methods.airtel_money).toEqual({ count: 1, amount: '20000' });
    expect(report.days[0]?.methods.cash).toEqual({ count: 0, amount: '0' });
    // 2 Nov: cash 45,000 + 11,800.5 = 56,800.5 in 5; MoMo 59,000; day 115,800.5 in 6.
    expect(report.days[1]?.methods.cash).toEqual({ count: 5, amount: '56800.5' });
    expect(report.days[1]).toMatchObject({ count: 6, amount: '115800.5' });
    // Agnes: 11,800.5 + 59,000 + 100,000 = 170,800.5 in 4; Brian: 45,000 + 20,000 = 65,000 in 4.
    expect(report.cashiers.map((c) => [c.name, c.count, c.amount])).toEqual([
      ['Agnes', 4, '170800.5'],
      ['Brian', 4, '65000'],
    ]);
    // In all: 235,800.5 in 8.
    expect(report.totals).toHaveLength(1);
    expect(report.totals[0]).toMatchObject({ currency_code: 'UGX', count: 8, amount: '235800.5' });
    expect(report.totals[0]?.methods.mtn_momo).toEqual({ count: 1, amount: '59000' });
  });

  it('keeps each currency apart and lists mobile-money receipts by day and number', () => {
    const report = cashupReport(
      { from: '2026-11-01', to: '2026-11-30' },
      [{ ...fact('2026-11-02', 'cash', 'a', 1, '50'), currency_code: 'USD' }, fact('2026-11-02', 'cash', 'a', 1, '5000')],
      [
        {
          receipt_id: '2',
          number: 'RCT-000002',
          received_on: '2026-11-03',
          method: 'mtn_momo',
          reference: 'MP1',
          amount: '1',
          currency_code: 'UGX',
          customer_name: 'X',
          cashier_name: null,
        },
        {
          receipt_id: '1',
          number: 'RCT-000001',
          received_on: '2026-11-03',
          method: 'airtel_money',
          reference: 'AM1',
          amount: '1',
          currency_code: 'UGX',
          customer_name: 'X',
          cashier_name: null,
        },
      ],
    );
    expect(report.totals.map((total) => [total.currency_code, total.amount])).toEqual([
      ['UGX', '5000'],
      ['USD', '50'],
    ]);
    expect(report.days).toHaveLength(2);
    expect(report.mobile_money.map((each) => each.number)).toEqual(['RCT-000001', 'RCT-000002']);
  });
});

describe('debtors with aging', () => {
  const invoice = (
    id: string,
    customer: string,
    due_on: string,
    gross: string,
    settled: Partial<Record<'credited' | 'debited' | 'paid', string>> = {},
  ) => ({
    invoice_id: id,
    number: `INV-${id}`,
    customer_id: customer,
    customer_name: customer === 'k' ? 'Kato Traders' : 'Akello Shop',
    currency_code: 'UGX',
    issued_on: '2026-08-01',
    due_on,
    gross_total: gross,
    credited: '0',
    debited: '0',
    paid: '0',
    ...settled,
  });

  it('puts what remains on each invoice in its bucket, nets advances, leaves settled invoices out', () => {
    const report = debtorsReport(
      '2026-11-30',
      [
        invoice('1', 'k', '2026-12-15', '118000'), // current: 118,000
        invoice('2', 'k', '2026-11-10', '59000', { paid: '20000' }), // 20 days: 39,000 in 1-30
        invoice('3', 'k', '2026-08-15', '236000', { credited: '59000', debited: '1000', paid: '100000' }), // 107 days: 236,000+1,000-59,000-100,000 = 78,000 over 90
        invoice('4', 'a', '2026-09-20', '50000'), // 71 days: 61-90
        invoice('5', 'a', '2026-10-20', '30000', { paid: '30000' }), // settled: left out
      ],
      [
        { customer_id: 'a', customer_name: 'Akello Shop', currency_code: 'UGX', received: '80000', allocated: '30000' }, // advance 50,000
        { customer_id: 'k', customer_name: 'Kato Traders', currency_code: 'UGX', received: '20000', allocated: '20000' }, // none
      ],
    );
    expect(report.customers.map((c) => c.name)).toEqual(['Akello Shop', 'Kato Traders']);
    const [akello, kato] = report.customers;
    expect(akello).toMatchObject({
      buckets: { current: '0', '1_30': '0', '31_60': '0', '61_90': '50000', over_90: '0' },
      total: '50000',
      advance: '50000',
      net: '0',
    });
    expect(akello?.invoices.map((each) => each.number)).toEqual(['INV-4']);
    expect(kato).toMatchObject({
      buckets: { current: '118000', '1_30': '39000', '31_60': '0', '61_90': '0', over_90: '78000' },
      total: '235000', // 118,000 + 39,000 + 78,000
      advance: '0',
      net: '235000',
    });
    expect(kato?.invoices.map((each) => [each.number, each.days_overdue, each.bucket, each.balance])).toEqual([
      ['INV-3', 107, 'over_90', '78000'],
      ['INV-2', 20, '1_30', '39000'],
      ['INV-1', 0, 'current', '118000'],
    ]);
    // In all: 285,000 owed, 50,000 advanced, 235,000 net.
    expect(report.totals).toEqual([
      {
        currency_code: 'UGX',
        buckets: { current: '118000', '1_30': '39000', '31_60': '0', '61_90': '50000', over_90: '78000' },
        total: '285000',
        advance: '50000',
        net: '235000',
      },
    ]);
  });

  it('shows a customer with only an advance as owed to', () => {
    const report = debtorsReport(
      '2026-11-30',
      [],
      [{ customer_id: 'a', customer_name: 'Akello Shop', currency_code: 'UGX', received: '10000.25', allocated: '0' }],
    );
    expect(report.customers[0]).toMatchObject({ total: '0', advance: '10000.25', net: '-10000.25', invoices: [] });
  });
});

describe('the month’s VAT', () => {
  it('sums output by tax code (invoices - credit memos + debit memos) and input from paid vouchers', () => {
    const report = vatReport(
      '2026-11',
      [
        // 18% standard: two invoices' lines 118,000 + 59,000 = 177,000 gross, VAT 18,000 + 9,000.
        { source: 'invoice', tax_code: 'A', tax_kind: 'standard', tax_rate: '18.0000', net: '150000', tax: '27000', gross: '177000' },
        { source: 'credit_memo', tax_code: 'A', tax_kind: 'standard', tax_rate: '18', net: '50000', tax: '9000', gross: '59000' },
        { source: 'debit_memo', tax_code: 'A', tax_kind: 'standard', tax_rate: '18', net: '1000', tax: '180', gross: '1180' },
        { source: 'invoice', tax_code: 'C', tax_kind: 'exempt', tax_rate: '0', net: '20000', tax: '0', gross: '20000' },
        { source: 'invoice', tax_code: 'B', tax_kind: 'zero', tax_rate: '0', net: '5000', tax: '0', gross: '5000' },
      ],
      [
        { voucher_id: 'v2', number: 'PV-000002', paid_on: '2026-11-20', payee_name: 'Umeme', net: '100000', tax: '18000', gross: '118000' },
        {
          voucher_id: 'v1',
          number: 'PV-000001',
          paid_on: '2026-11-05',
          payee_name: 'Landlord',
          net: '5000.5',
          tax: '900.09',
          gross: '5900.59',
        },
      ],
    );
    expect(report).toMatchObject({ from: '2026-11-01', to: '2026-11-30' });
    expect(report.output.map((row) => [row.tax_code, row.tax_rate, row.net, row.tax, row.gross])).toEqual([
      // A: 150,000 - 50,000 + 1,000 = 101,000 net; 27,000 - 9,000 + 180 = 18,180 VAT; 177,000 - 59,000 + 1,180 = 119,180.
      ['A', '18', '101000', '18180', '119180'],
      ['B', '0', '5000', '0', '5000'],
      ['C', '0', '20000', '0', '20000'],
    ]);
    expect(report.output[0]?.credit_memos).toEqual({ net: '50000', tax: '9000', gross: '59000' });
    expect(report.output_total).toEqual({ net: '126000', tax: '18180', gross: '144180' });
    expect(report.input.map((row) => row.number)).toEqual(['PV-000001', 'PV-000002']);
    // Input: 18,000 + 900.09 = 18,900.09; net payable 18,180 - 18,900.09 = -720.09 (to claim back).
    expect(report.input_total).toEqual({ net: '105000.5', tax: '18900.09', gross: '123900.59' });
    expect(report.net_payable).toBe('-720.09');
  });
});

describe('simple profit', () => {
  it('is net sales - net cost of sales - expenses', () => {
    const report = profitReport(
      { from: '2026-11-01', to: '2026-11-30' },
      {
        sales: '250000',
        credit_memos: '50000',
        debit_memos: '1000',
        cost_of_sales: '120000.5',
        returns_cost: '30000',
        expenses: [
          { account_id: 'r', code: '6100', name: 'Rent', amount: '60000' },
          { account_id: 'e', code: '6000', name: 'Electricity', amount: '15254.24' },
        ],
      },
    );
    // Net sales 250,000 - 50,000 + 1,000 = 201,000; cost 120,000.5 - 30,000 = 90,000.5;
    // gross 110,999.5; expenses 75,254.24; net 35,745.26.
    expect(report).toMatchObject({
      net_sales: '201000',
      net_cost_of_sales: '90000.5',
      gross_profit: '110999.5',
      expenses_total: '75254.24',
      net_profit: '35745.26',
    });
    expect(report.expenses.map((each) => each.code)).toEqual(['6000', '6100']);
  });
});
