import { describe, expect, it } from 'vitest';
import {
  agingBucket,
  documentNumber,
  documentTotals,
  invoiceBalance,
  invoicePostings,
  isBalanced,
  memoPostings,
  paymentStatus,
  receiptPostings,
  saleLineFigures,
  voucherPostings,
} from './sales.js';

const VAT = { code: 'VAT', kind: 'standard' as const, rate: '18' };
const UGX = { decimals: 0, vatRegistered: true };

describe('a sales line (VAT inside a tax-inclusive price, rounded per line)', () => {
  it('takes 18/118 of the gross: 11,800 carries 1,800 VAT', () => {
    expect(saleLineFigures({ quantity: '2', unit_price: '5900', tax: VAT }, UGX)).toEqual({
      gross: '11800',
      tax: '1800',
      net: '10000',
      discount: '0',
    });
  });

  it('rounds half up to the shilling, per line: 3 × 1,500 = 4,500 carries 686.44… → 686', () => {
    expect(saleLineFigures({ quantity: '3', unit_price: '1500', tax: VAT }, UGX)).toMatchObject({ gross: '4500', tax: '686', net: '3814' });
    // 1,000 × 18/118 = 152.54… → 153 (half up at .54)
    expect(saleLineFigures({ quantity: '1', unit_price: '1000', tax: VAT }, UGX).tax).toBe('153');
  });

  it('takes the discount off the gross before VAT, and refuses one above the line', () => {
    expect(saleLineFigures({ quantity: '1', unit_price: '12500', discount: '700', tax: VAT }, UGX)).toEqual({
      gross: '11800',
      tax: '1800',
      net: '10000',
      discount: '700',
    });
    expect(() => saleLineFigures({ quantity: '1', unit_price: '100', discount: '101', tax: VAT }, UGX)).toThrow(RangeError);
  });

  it('charges no VAT on zero-rated or exempt lines, nor for a business not registered', () => {
    expect(saleLineFigures({ quantity: '1', unit_price: '5000', tax: { code: 'EXEMPT', kind: 'exempt', rate: '0' } }, UGX).tax).toBe('0');
    expect(saleLineFigures({ quantity: '1', unit_price: '5000', tax: { code: 'ZERO', kind: 'zero', rate: '0' } }, UGX).tax).toBe('0');
    expect(saleLineFigures({ quantity: '1', unit_price: '5900', tax: VAT }, { decimals: 0, vatRegistered: false })).toMatchObject({
      tax: '0',
      net: '5900',
    });
  });

  it('keeps a currency’s cents: 0.5 kg at 3.99 USD is 2.00 (1.995 half up), VAT 0.31', () => {
    expect(saleLineFigures({ quantity: '0.5', unit_price: '3.99', tax: VAT }, { decimals: 2, vatRegistered: true })).toMatchObject({
      gross: '2',
      tax: '0.31',
      net: '1.69',
    });
  });
});

describe('a document’s totals', () => {
  it('sums rounded lines and summarises them per tax code', () => {
    const line = (quantity: string, unit_price: string, tax: typeof VAT | { code: string; kind: 'exempt' | 'zero'; rate: string }) => ({
      ...saleLineFigures({ quantity, unit_price, tax }, UGX),
      tax_code: tax.code,
      tax_kind: tax.kind,
      tax_rate: tax.rate,
    });
    const totals = documentTotals([
      line('2', '5900', VAT), // 11,800 / 1,800
      line('10', '1200', { code: 'EXEMPT', kind: 'exempt', rate: '0' }), // 12,000 / 0
      line('1', '1000', VAT), // 1,000 / 153
      line('3', '2000', { code: 'ZERO', kind: 'zero', rate: '0' }), // 6,000 / 0
    ]);
    expect(totals).toMatchObject({ gross_total: '30800', tax_total: '1953', net_total: '28847', discount_total: '0' });
    expect(totals.by_tax).toEqual([
      { tax_code: 'EXEMPT', tax_kind: 'exempt', tax_rate: '0', gross: '12000', tax: '0', net: '12000' },
      { tax_code: 'VAT', tax_kind: 'standard', tax_rate: '18', gross: '12800', tax: '1953', net: '10847' },
      { tax_code: 'ZERO', tax_kind: 'zero', tax_rate: '0', gross: '6000', tax: '0', net: '6000' },
    ]);
  });
});

describe('numbers, balances, statuses and ages', () => {
  it('numbers each series with its prefix', () => {
    expect(documentNumber('invoice', 1)).toBe('INV-000001');
    expect(documentNumber('receipt', 42)).toBe('RCT-000042');
    expect(documentNumber('credit_memo', 7)).toBe('CN-000007');
    expect(documentNumber('debit_memo', 7)).toBe('DN-000007');
    expect(documentNumber('voucher', 1234567)).toBe('PV-1234567');
    expect(() => documentNumber('invoice', 0)).toThrow(RangeError);
  });

  it('derives the balance and the status from the allocations and the due day', () => {
    const base = { gross_total: '100000', credited: '0', debited: '0', paid: '0', status: 'issued' as const, due_on: '2026-11-30' };
    expect(paymentStatus({ ...base, status: 'draft', today: '2026-11-01' })).toBe('draft');
    expect(paymentStatus({ ...base, today: '2026-11-30' })).toBe('unpaid');
    expect(paymentStatus({ ...base, paid: '40000', today: '2026-11-30' })).toBe('part_paid');
    expect(paymentStatus({ ...base, paid: '40000', today: '2026-12-01' })).toBe('overdue');
    expect(paymentStatus({ ...base, paid: '60000', credited: '40000', today: '2027-01-01' })).toBe('paid');
    expect(invoiceBalance({ ...base, debited: '5000', credited: '10000', paid: '30000' })).toBe('65000');
  });

  it('ages an open invoice by days past due, at the edges', () => {
    expect(agingBucket('2026-11-30', '2026-11-30')).toBe('current');
    expect(agingBucket('2026-11-30', '2026-12-01')).toBe('1_30');
    expect(agingBucket('2026-11-30', '2026-12-30')).toBe('1_30');
    expect(agingBucket('2026-11-30', '2026-12-31')).toBe('31_60');
    expect(agingBucket('2026-11-30', '2027-01-29')).toBe('31_60');
    expect(agingBucket('2026-11-30', '2027-01-30')).toBe('61_90');
    expect(agingBucket('2026-11-30', '2027-02-28')).toBe('61_90');
    expect(agingBucket('2026-11-30', '2027-03-01')).toBe('over_90');
  });
});

describe('postings (double entry, balanced, lines of nothing dropped)', () => {
  const sum = (lines: ReturnType<typeof invoicePostings>, side: 'debit' | 'credit') =>
    lines.reduce((total, line) => total + Number(line[side]), 0);

  it('an invoice: debtors / sales and VAT, cost of sales / inventory', () => {
    const lines = invoicePostings({ gross_total: '11800', tax_total: '1800', cost_total: '7000', customer_id: 'c1' });
    expect(lines).toEqual([
      { account: { key: 'debtors' }, debit: '11800', credit: '0', partner_id: 'c1' },
      { account: { key: 'sales' }, debit: '0', credit: '10000', partner_id: null },
      { account: { key: 'vat_payable' }, debit: '0', credit: '1800', partner_id: null },
      { account: { key: 'cost_of_sales' }, debit: '7000', credit: '0', partner_id: null },
      { account: { key: 'inventory' }, debit: '0', credit: '7000', partner_id: null },
    ]);
    expect(isBalanced(lines)).toBe(true);
    // A service without VAT: two lines.
    expect(invoicePostings({ gross_total: '5000', tax_total: '0', cost_total: '0', customer_id: 'c1' })).toHaveLength(2);
  });

  it('a receipt with 6% withheld by the customer', () => {
    const lines = receiptPostings({ amount: '940000', wht_amount: '60000', account_id: 'momo', customer_id: 'c1' });
    expect(lines).toEqual([
      { account: { id: 'momo' }, debit: '940000', credit: '0', partner_id: null },
      { account: { key: 'wht_receivable' }, debit: '60000', credit: '0', partner_id: 'c1' },
      { account: { key: 'debtors' }, debit: '0', credit: '1000000', partner_id: 'c1' },
    ]);
    expect(isBalanced(lines)).toBe(true);
  });

  it('a credit memo reverses the sale and restocks; a debit memo charges more', () => {
    const credit = memoPostings({ kind: 'credit', gross_total: '5900', tax_total: '900', cost_total: '3500', customer_id: 'c1' });
    expect(sum(credit, 'debit')).toBe(9400);
    expect(isBalanced(credit)).toBe(true);
    expect(credit.find((line) => 'key' in line.account && line.account.key === 'debtors')?.credit).toBe('5900');
    const debit = memoPostings({ kind: 'debit', gross_total: '1180', tax_total: '180', cost_total: '999', customer_id: 'c1' });
    expect(debit).toHaveLength(3);
    expect(isBalanced(debit)).toBe(true);
  });

  it('a voucher: expenses and input VAT / the paying account and withholding', () => {
    const lines = voucherPostings({
      lines: [
        { account_id: 'rent', amount: '1500000', tax: '0' },
        { account_id: 'repairs', amount: '118000', tax: '18000' },
      ],
      wht_amount: '90000',
      account_id: 'bank',
      payee_id: 'p1',
    });
    expect(lines).toEqual([
      { account: { id: 'rent' }, debit: '1500000', credit: '0', partner_id: 'p1' },
      { account: { id: 'repairs' }, debit: '100000', credit: '0', partner_id: 'p1' },
      { account: { key: 'vat_receivable' }, debit: '18000', credit: '0', partner_id: null },
      { account: { id: 'bank' }, debit: '0', credit: '1528000', partner_id: null },
      { account: { key: 'wht_payable' }, debit: '0', credit: '90000', partner_id: 'p1' },
    ]);
    expect(isBalanced(lines)).toBe(true);
  });

  it('isBalanced refuses unequal sides, negatives and a line on both sides', () => {
    expect(isBalanced([{ account: { key: 'cash' }, debit: '1', credit: '0' }])).toBe(false);
    expect(
      isBalanced([
        { account: { key: 'cash' }, debit: '-1', credit: '0' },
        { account: { key: 'sales' }, debit: '0', credit: '-1' },
      ]),
    ).toBe(false);
    expect(isBalanced([{ account: { key: 'cash' }, debit: '1', credit: '1' }])).toBe(false);
  });
});
