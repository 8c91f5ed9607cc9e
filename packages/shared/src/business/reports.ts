import { Decimal } from './money.js';
import { AGING_BUCKETS, type AgingBucket, agingBucket, PAYMENT_METHODS, type PaymentMethod } from './sales.js';

/*
 * The reports a shop owner reads daily (issue 32 point 8; guide business.md "Reports a shop owner
 * reads daily"), built from plain fact rows the server reads in one transaction: what came in by
 * each payment method (the cash-up and the mobile-money check), who owes what and for how long
 * (debtors with aging), the month's VAT by tax code (for the return) and a simple profit. Pure:
 * rows in, rows and totals out, money as exact decimal text (the shared Decimal), never floats.
 * The server, the workbook and the PDF all show what these functions give.
 */

/** The ways money comes in (sales.ts, migration 0028's receipts.method), in the order the reports show them. */
export const REPORT_PAYMENT_METHODS = PAYMENT_METHODS;
export type ReportPaymentMethod = PaymentMethod;
/** The methods a mobile-money statement is checked against, receipt by receipt. */
export const MOBILE_MONEY_METHODS: ReadonlyArray<ReportPaymentMethod> = ['mtn_momo', 'airtel_money'];

/** How overdue an open invoice is on the report's day (sales.ts): not yet due, then 1-30 ... over 90 days past its due date. */
export const DEBTOR_AGING_BUCKETS = AGING_BUCKETS;
export type DebtorAgingBucket = AgingBucket;

/** The longest period a report covers (BUSINESS_REPORT_MESSAGES.periodInvalid): a year. */
export const MAX_REPORT_DAYS = 366;
/** The most detail rows (open invoices, mobile-money receipts, vouchers with VAT) one report lists. */
export const MAX_REPORT_ROWS = 20_000;

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/** Whether `value` is YYYY-MM-DD naming a real day. */
export function isReportDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/**
 * Whether from..to (both days included) is a period a report covers: `to` not before `from`,
 * and `to` before the same day a year later (2026-01-01..2026-12-31 is a year; ..2027-01-01 is not).
 */
export function isReportPeriod(from: string, to: string): boolean {
  if (!isReportDay(from) || !isReportDay(to) || to < from) return false;
  const start = new Date(`${from}T00:00:00Z`);
  const yearLater = new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), start.getUTCDate()));
  // 29 February plus a year rolls to 1 March: still "a year later".
  return to < yearLater.toISOString().slice(0, 10);
}

/** The first and last day of a month `YYYY-MM`. */
export function monthPeriod(month: string): { from: string; to: string } {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** Days past due on `date` (0 or less: not yet due) and its aging bucket. */
export function debtorAging(dueOn: string, date: string): { days: number; bucket: DebtorAgingBucket } {
  return { days: Math.max(0, dayNumber(date) - dayNumber(dueOn)), bucket: agingBucket(dueOn, date) };
}

const exact = (value: Decimal) => value.toFixed();
const sum = (values: ReadonlyArray<string | Decimal>) => values.reduce<Decimal>((total, value) => total.plus(value), new Decimal(0));

// ---------------------------------------------------------------------------------------------
// Cash-up: money received by payment method, per day, per cashier and in all.

/** Receipts of one day, method, currency and cashier: how many and how much (summed by the database). */
export interface CashupFact {
  day: string;
  method: ReportPaymentMethod;
  currency_code: string;
  cashier_id: string | null;
  cashier_name: string | null;
  count: number;
  amount: string;
}

export interface MethodFigures {
  count: number;
  amount: string;
}

/** Figures per method (every method present, zero where none) with the row's count and amount. */
export interface MethodTotals {
  methods: Record<ReportPaymentMethod, MethodFigures>;
  count: number;
  amount: string;
}

/** One mobile-money receipt, to tick off against the provider's statement. */
export interface MobileMoneyReceipt {
  receipt_id: string;
  number: string;
  received_on: string;
  method: ReportPaymentMethod;
  reference: string | null;
  amount: string;
  currency_code: string;
  customer_name: string;
  cashier_name: string | null;
}

export interface CashupReport {
  from: string;
  to: string;
  /** A row per day (and currency) with money in, oldest first. */
  days: Array<MethodTotals & { day: string; currency_code: string }>;
  /** A row per cashier (who recorded the receipts) and currency, by name. */
  cashiers: Array<MethodTotals & { cashier_id: string | null; name: string | null; currency_code: string }>;
  /** The period's totals, one row per currency. */
  totals: Array<MethodTotals & { currency_code: string }>;
  mobile_money: MobileMoneyReceipt[];
}

class MethodSum {
  private readonly figures = new Map<ReportPaymentMethod, { count: number; amount: Decimal }>();
  add(method: ReportPaymentMethod, count: number, amount: string) {
    const figure = this.figures.get(method) ?? { count: 0, amount: new Decimal(0) };
    this.figures.set(method, { count: figure.count + count, amount: figure.amount.plus(amount) });
  }
  totals(): MethodTotals {
    let count = 0;
    let amount = new Decimal(0);
    const methods = {} as Record<ReportPaymentMethod, MethodFigures>;
    for (const method of REPORT_PAYMENT_METHODS) {
      const figure = this.figures.get(method) ?? { count: 0, amount: new Decimal(0) };
      methods[method] = { count: figure.count, amount: exact(figure.amount) };
      count += figure.count;
      amount = amount.plus(figure.amount);
    }
    return { methods, count, amount: exact(amount) };
  }
}

function groupSums<Key>(facts: ReadonlyArray<CashupFact>, keyOf: (fact: CashupFact) => string, describe: (fact: CashupFact) => Key) {
  const groups = new Map<string, { key: Key; sum: MethodSum }>();
  for (const fact of facts) {
    const key = keyOf(fact);
    const group = groups.get(key) ?? { key: describe(fact), sum: new MethodSum() };
    group.sum.add(fact.method, fact.count, fact.amount);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => ({ ...group.key, ...group.sum.totals() }));
}

/** The cash-up of from..to: per day, per cashier and in all, each by method; the mobile-money receipts as given. */
export function cashupReport(
  period: { from: string; to: string },
  facts: ReadonlyArray<CashupFact>,
  mobileMoney: ReadonlyArray<MobileMoneyReceipt>,
): CashupReport {
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const days = groupSums(
    facts,
    (fact) => `${fact.day}|${fact.currency_code}`,
    (fact) => ({ day: fact.day, currency_code: fact.currency_code }),
  ).sort((a, b) => byText(a.day, b.day) || byText(a.currency_code, b.currency_code));
  const cashiers = groupSums(
    facts,
    (fact) => `${fact.cashier_id ?? ''}|${fact.currency_code}`,
    (fact) => ({ cashier_id: fact.cashier_id, name: fact.cashier_name, currency_code: fact.currency_code }),
  ).sort(
    (a, b) =>
      byText(a.name ?? '', b.name ?? '') || byText(a.cashier_id ?? '', b.cashier_id ?? '') || byText(a.currency_code, b.currency_code),
  );
  const totals = groupSums(
    facts,
    (fact) => fact.currency_code,
    (fact) => ({ currency_code: fact.currency_code }),
  ).sort((a, b) => byText(a.currency_code, b.currency_code));
  const mobile_money = mobileMoney
    .map((each) => ({ ...each, amount: exact(new Decimal(each.amount)) }))
    .sort((a, b) => byText(a.received_on, b.received_on) || byText(a.number, b.number));
  return { from: period.from, to: period.to, days, cashiers, totals, mobile_money };
}

// ---------------------------------------------------------------------------------------------
// Debtors with aging.

/** An issued invoice as settled on the report's day: its gross, memos and what was allocated to it by then. */
export interface DebtorInvoiceFact {
  invoice_id: string;
  number: string;
  customer_id: string;
  customer_name: string;
  currency_code: string;
  issued_on: string;
  due_on: string;
  gross_total: string;
  credited: string;
  debited: string;
  paid: string;
}

/** A customer's receipts by the report's day and what of them was allocated: the rest is an advance. */
export interface CustomerAdvanceFact {
  customer_id: string;
  customer_name: string;
  currency_code: string;
  received: string;
  allocated: string;
}

export type BucketAmounts = Record<DebtorAgingBucket, string>;

export interface DebtorInvoice {
  invoice_id: string;
  number: string;
  issued_on: string;
  due_on: string;
  days_overdue: number;
  bucket: DebtorAgingBucket;
  balance: string;
}

export interface DebtorTotals {
  currency_code: string;
  buckets: BucketAmounts;
  /** What the open invoices still owe. */
  total: string;
  /** Money received and not yet allocated to an invoice. */
  advance: string;
  /** What is owed less the advances (negative: the business owes the customer). */
  net: string;
}

export interface DebtorsReport {
  date: string;
  customers: Array<DebtorTotals & { customer_id: string; name: string; invoices: DebtorInvoice[] }>;
  totals: DebtorTotals[];
}

function bucketTotals(
  currency_code: string,
  balances: ReadonlyArray<{ bucket: DebtorAgingBucket; balance: string }>,
  advance: Decimal,
): DebtorTotals {
  const buckets = {} as BucketAmounts;
  for (const bucket of DEBTOR_AGING_BUCKETS)
    buckets[bucket] = exact(sum(balances.filter((each) => each.bucket === bucket).map((each) => each.balance)));
  const total = sum(balances.map((each) => each.balance));
  return { currency_code, buckets, total: exact(total), advance: exact(advance), net: exact(total.minus(advance)) };
}

/**
 * Debtors on `date`: each customer's invoices with something left to pay (gross + debit memos -
 * credit memos - allocations) in the bucket of their days past due, with the customer's advances;
 * customers by name, a row per currency they deal in; totals per currency.
 */
export function debtorsReport(
  date: string,
  invoices: ReadonlyArray<DebtorInvoiceFact>,
  advances: ReadonlyArray<CustomerAdvanceFact>,
): DebtorsReport {
  type Customer = { customer_id: string; name: string; currency_code: string; invoices: DebtorInvoice[]; advance: Decimal };
  const customers = new Map<string, Customer>();
  const customerOf = (fact: { customer_id: string; customer_name: string; currency_code: string }) => {
    const key = `${fact.customer_id}|${fact.currency_code}`;
    const found = customers.get(key) ?? {
      customer_id: fact.customer_id,
      name: fact.customer_name,
      currency_code: fact.currency_code,
      invoices: [],
      advance: new Decimal(0),
    };
    customers.set(key, found);
    return found;
  };
  for (const fact of invoices) {
    const balance = new Decimal(fact.gross_total).plus(fact.debited).minus(fact.credited).minus(fact.paid);
    if (balance.lte(0)) continue;
    const aging = debtorAging(fact.due_on, date);
    customerOf(fact).invoices.push({
      invoice_id: fact.invoice_id,
      number: fact.number,
      issued_on: fact.issued_on,
      due_on: fact.due_on,
      days_overdue: aging.days,
      bucket: aging.bucket,
      balance: exact(balance),
    });
  }
  for (const fact of advances) {
    const advance = new Decimal(fact.received).minus(fact.allocated);
    if (advance.lte(0)) continue;
    const customer = customerOf(fact);
    customer.advance = customer.advance.plus(advance);
  }
  const rows = [...customers.values()]
    .sort(
      (a, b) =>
        a.name.localeCompare(b.name, 'en') || (a.customer_id < b.customer_id ? -1 : 1) || (a.currency_code < b.currency_code ? -1 : 1),
    )
    .map((customer) => ({
      customer_id: customer.customer_id,
      name: customer.name,
      ...bucketTotals(customer.currency_code, customer.invoices, customer.advance),
      invoices: customer.invoices.sort((a, b) => (a.due_on < b.due_on ? -1 : a.due_on > b.due_on ? 1 : a.number < b.number ? -1 : 1)),
    }));
  const currencies = [...new Set(rows.map((row) => row.currency_code))].sort();
  const totals = currencies.map((currency) => {
    const ofCurrency = rows.filter((row) => row.currency_code === currency);
    return bucketTotals(
      currency,
      ofCurrency.flatMap((row) => row.invoices),
      sum(ofCurrency.map((row) => row.advance)),
    );
  });
  return { date, customers: rows, totals };
}

// ---------------------------------------------------------------------------------------------
// The month's VAT.

export interface TaxFigures {
  net: string;
  tax: string;
  gross: string;
}

/** Lines of one source and tax code, summed (in the business's currency: each document's amounts times its rate). */
export interface VatOutputFact extends TaxFigures {
  source: 'invoice' | 'credit_memo' | 'debit_memo';
  tax_code: string | null;
  tax_kind: string | null;
  tax_rate: string;
}

/** A paid voucher carrying VAT the business may claim back. */
export interface VatInputFact extends TaxFigures {
  voucher_id: string;
  number: string;
  paid_on: string;
  payee_name: string;
}

export interface VatOutputRow extends TaxFigures {
  tax_code: string;
  tax_kind: string | null;
  tax_rate: string;
  invoices: TaxFigures;
  credit_memos: TaxFigures;
  debit_memos: TaxFigures;
}

export interface VatReport {
  month: string;
  from: string;
  to: string;
  /** Per tax code: issued invoices - credit memos + debit memos. */
  output: VatOutputRow[];
  output_total: TaxFigures;
  input: VatInputFact[];
  input_total: TaxFigures;
  /** Output VAT - input VAT: to pay URA (negative: to claim back). */
  net_payable: string;
}

const ZERO_FIGURES: TaxFigures = { net: '0', tax: '0', gross: '0' };
const addFigures = (a: TaxFigures, b: TaxFigures, sign: 1 | -1 = 1): TaxFigures => ({
  net: exact(new Decimal(a.net).plus(new Decimal(b.net).times(sign))),
  tax: exact(new Decimal(a.tax).plus(new Decimal(b.tax).times(sign))),
  gross: exact(new Decimal(a.gross).plus(new Decimal(b.gross).times(sign))),
});

/** The month's VAT summary: output by tax code (sorted by code), input from paid vouchers, and the net to pay. */
export function vatReport(month: string, output: ReadonlyArray<VatOutputFact>, input: ReadonlyArray<VatInputFact>): VatReport {
  const rows = new Map<string, VatOutputRow>();
  for (const fact of output) {
    const code = fact.tax_code ?? '';
    const rate = new Decimal(fact.tax_rate).toFixed();
    const key = `${code}|${fact.tax_kind ?? ''}|${rate}`;
    const row = rows.get(key) ?? {
      tax_code: code,
      tax_kind: fact.tax_kind,
      tax_rate: rate,
      ...ZERO_FIGURES,
      invoices: ZERO_FIGURES,
      credit_memos: ZERO_FIGURES,
      debit_memos: ZERO_FIGURES,
    };
    const figures = { net: fact.net, tax: fact.tax, gross: fact.gross };
    if (fact.source === 'invoice') row.invoices = addFigures(row.invoices, figures);
    else if (fact.source === 'credit_memo') row.credit_memos = addFigures(row.credit_memos, figures);
    else row.debit_memos = addFigures(row.debit_memos, figures);
    Object.assign(row, addFigures(row, figures, fact.source === 'credit_memo' ? -1 : 1));
    rows.set(key, row);
  }
  const sorted = [...rows.values()].sort((a, b) =>
    a.tax_code < b.tax_code ? -1 : a.tax_code > b.tax_code ? 1 : new Decimal(a.tax_rate).comparedTo(b.tax_rate),
  );
  const output_total = sorted.reduce<TaxFigures>((total, row) => addFigures(total, row), ZERO_FIGURES);
  const vouchers = input
    .map((each) => ({ ...each, ...addFigures(ZERO_FIGURES, each) }))
    .sort((a, b) => (a.paid_on < b.paid_on ? -1 : a.paid_on > b.paid_on ? 1 : a.number < b.number ? -1 : 1));
  const input_total = vouchers.reduce<TaxFigures>((total, row) => addFigures(total, row), ZERO_FIGURES);
  const { from, to } = monthPeriod(month);
  return {
    month,
    from,
    to,
    output: sorted,
    output_total,
    input: vouchers,
    input_total,
    net_payable: exact(new Decimal(output_total.tax).minus(input_total.tax)),
  };
}

// ---------------------------------------------------------------------------------------------
// Simple profit.

/** The period's figures, summed by the database in the business's currency. */
export interface ProfitFacts {
  /** Issued invoices' totals net of VAT. */
  sales: string;
  /** Credit memos net of VAT (returns, price corrections). */
  credit_memos: string;
  /** Debit memos net of VAT. */
  debit_memos: string;
  /** Invoice lines' quantity x unit cost. */
  cost_of_sales: string;
  /** Restocked returns' quantity x unit cost (credit memos with restock). */
  returns_cost: string;
  /** Paid vouchers' expense lines net of their VAT, by account. */
  expenses: ReadonlyArray<{ account_id: string; code: string; name: string; amount: string }>;
}

export interface ProfitReport {
  from: string;
  to: string;
  sales: string;
  credit_memos: string;
  debit_memos: string;
  /** sales - credit memos + debit memos */
  net_sales: string;
  cost_of_sales: string;
  returns_cost: string;
  /** cost of sales - restocked returns */
  net_cost_of_sales: string;
  /** net sales - net cost of sales */
  gross_profit: string;
  expenses: Array<{ account_id: string; code: string; name: string; amount: string }>;
  expenses_total: string;
  /** gross profit - expenses */
  net_profit: string;
}

/** Sales - cost of sales - expenses, each as its parts; expenses by account code. */
export function profitReport(period: { from: string; to: string }, facts: ProfitFacts): ProfitReport {
  const netSales = new Decimal(facts.sales).minus(facts.credit_memos).plus(facts.debit_memos);
  const netCost = new Decimal(facts.cost_of_sales).minus(facts.returns_cost);
  const gross = netSales.minus(netCost);
  const expenses = facts.expenses
    .map((each) => ({ ...each, amount: exact(new Decimal(each.amount)) }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const expensesTotal = sum(expenses.map((each) => each.amount));
  return {
    from: period.from,
    to: period.to,
    sales: exact(new Decimal(facts.sales)),
    credit_memos: exact(new Decimal(facts.credit_memos)),
    debit_memos: exact(new Decimal(facts.debit_memos)),
    net_sales: exact(netSales),
    cost_of_sales: exact(new Decimal(facts.cost_of_sales)),
    returns_cost: exact(new Decimal(facts.returns_cost)),
    net_cost_of_sales: exact(netCost),
    gross_profit: exact(gross),
    expenses,
    expenses_total: exact(expensesTotal),
    net_profit: exact(gross.minus(expensesTotal)),
  };
}
