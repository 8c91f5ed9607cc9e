import { Decimal } from './money.js';

/*
 * The arithmetic of a shop's documents (issue 32; guide business.md "Rules a shop expects"): the
 * figures of a sales line, a document's totals per tax code, what is left to pay and the status
 * a person reads from it, and the double-entry postings each document makes. Pure and exact:
 * amounts travel as decimal text and are computed with the shared Decimal (half up), rounded
 * to the currency's decimals (UGX: none) line by line, as a printed invoice shows them.
 */

export const PAYMENT_METHODS = ['cash', 'mtn_momo', 'airtel_money', 'bank', 'cheque', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The accounts the automatic postings use, found by `accounts.system_key`: a business may rename or renumber them. */
export const POSTING_KEYS = [
  'cash',
  'mtn_momo',
  'airtel_money',
  'bank',
  'debtors',
  'wht_receivable',
  'vat_receivable',
  'inventory',
  'creditors',
  'vat_payable',
  'wht_payable',
  'customer_advances',
  'equity',
  'retained_earnings',
  'sales',
  'cost_of_sales',
  'other_expenses',
] as const;
export type PostingKey = (typeof POSTING_KEYS)[number];

/** The account a method's money lands in unless the person chooses another. */
export const PAYMENT_METHOD_ACCOUNT: Record<PaymentMethod, PostingKey> = {
  cash: 'cash',
  mtn_momo: 'mtn_momo',
  airtel_money: 'airtel_money',
  bank: 'bank',
  cheque: 'bank',
  card: 'bank',
};

/** Numbered series: each counts on its own, per business, without gaps. */
export const DOCUMENT_SERIES = ['invoice', 'receipt', 'credit_memo', 'debit_memo', 'voucher'] as const;
export type DocumentSeries = (typeof DOCUMENT_SERIES)[number];

const SERIES_PREFIX: Record<DocumentSeries, string> = {
  invoice: 'INV',
  receipt: 'RCT',
  credit_memo: 'CN',
  debit_memo: 'DN',
  voucher: 'PV',
};

/** The printed number of the n-th document of a series: INV-000001; wider past a million. */
export function documentNumber(series: DocumentSeries, n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`document number ${n}`);
  return `${SERIES_PREFIX[series]}-${String(n).padStart(6, '0')}`;
}

export type TaxKind = 'standard' | 'zero' | 'exempt' | 'deemed';
export interface LineTax {
  code: string;
  kind: TaxKind;
  rate: string;
}
export interface SaleLineInput {
  quantity: string;
  /** The price of one unit, tax included (business.md: prices are tax-inclusive). */
  unit_price: string;
  /** An amount off the line, tax included. */
  discount?: string;
  tax: LineTax | null;
}
export interface SaleLineFigures {
  /** What the customer pays for the line, tax included. */
  gross: string;
  tax: string;
  net: string;
  discount: string;
}

/** Whether a tax kind charges VAT on the sale (zero-rated and exempt lines carry none). */
export const chargesVat = (kind: TaxKind | string | null | undefined) => kind === 'standard' || kind === 'deemed';

/**
 * A line's figures: gross = quantity × unit price, rounded to the currency, less the discount;
 * VAT is inside the gross (gross × rate ÷ (100 + rate): 18% is 18/118), rounded per line; a
 * business not registered for VAT charges none. A discount above the line's amount is refused
 * (RangeError): the caller names the field.
 */
export function saleLineFigures(line: SaleLineInput, options: { decimals: number; vatRegistered: boolean }): SaleLineFigures {
  const amount = new Decimal(line.quantity).times(line.unit_price).toDecimalPlaces(options.decimals);
  const discount = new Decimal(line.discount ?? '0');
  if (discount.isNegative() || discount.gt(amount)) throw new RangeError('discount above the line');
  const gross = amount.minus(discount);
  const rate = line.tax && options.vatRegistered && chargesVat(line.tax.kind) ? new Decimal(line.tax.rate) : new Decimal(0);
  const tax = rate.isZero() ? new Decimal(0) : gross.times(rate).dividedBy(rate.plus(100)).toDecimalPlaces(options.decimals);
  return { gross: gross.toFixed(), tax: tax.toFixed(), net: gross.minus(tax).toFixed(), discount: discount.toFixed() };
}

export interface TaxSummaryRow {
  tax_code: string;
  tax_kind: string;
  tax_rate: string;
  gross: string;
  tax: string;
  net: string;
}
export interface DocumentTotals {
  discount_total: string;
  gross_total: string;
  tax_total: string;
  net_total: string;
  /** One row per tax code, sorted by code; lines without a tax are summed under code '' (no VAT). */
  by_tax: TaxSummaryRow[];
}

/** A document's totals: the sums of its rounded lines (never re-rounded), and per tax code for the VAT summary. */
export function documentTotals(
  lines: ReadonlyArray<SaleLineFigures & { tax_code: string | null; tax_kind: string | null; tax_rate: string }>,
): DocumentTotals {
  let discount = new Decimal(0);
  let gross = new Decimal(0);
  let tax = new Decimal(0);
  const byCode = new Map<string, { kind: string; rate: string; gross: Decimal; tax: Decimal }>();
  for (const line of lines) {
    discount = discount.plus(line.discount);
    gross = gross.plus(line.gross);
    tax = tax.plus(line.tax);
    const code = line.tax_code ?? '';
    const row = byCode.get(code) ?? {
      kind: line.tax_kind ?? 'exempt',
      rate: new Decimal(line.tax_rate).toFixed(),
      gross: new Decimal(0),
      tax: new Decimal(0),
    };
    row.gross = row.gross.plus(line.gross);
    row.tax = row.tax.plus(line.tax);
    byCode.set(code, row);
  }
  return {
    discount_total: discount.toFixed(),
    gross_total: gross.toFixed(),
    tax_total: tax.toFixed(),
    net_total: gross.minus(tax).toFixed(),
    by_tax: [...byCode]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([code, row]) => ({
        tax_code: code,
        tax_kind: row.kind,
        tax_rate: row.rate,
        gross: row.gross.toFixed(),
        tax: row.tax.toFixed(),
        net: row.gross.minus(row.tax).toFixed(),
      })),
  };
}

export type PaymentStatus = 'draft' | 'paid' | 'part_paid' | 'unpaid' | 'overdue';
export const PAYMENT_STATUSES = ['draft', 'paid', 'part_paid', 'unpaid', 'overdue'] as const;

/** What settles an issued invoice: its total, the memos against it and the money allocated to it. */
export interface Settlement {
  gross_total: string;
  credited: string;
  debited: string;
  paid: string;
}

/** What remains to be paid: gross + debit memos − credit memos − allocations (below zero: the customer is owed). */
export function invoiceBalance(settlement: Settlement): string {
  return new Decimal(settlement.gross_total).plus(settlement.debited).minus(settlement.credited).minus(settlement.paid).toFixed();
}

/**
 * The status a person reads, derived and never stored: a draft; paid when nothing remains;
 * overdue when something remains after the due day; part-paid when some money came; else unpaid.
 * Days are YYYY-MM-DD text, compared as such.
 */
export function paymentStatus(settlement: Settlement & { status: 'draft' | 'issued'; due_on: string; today: string }): PaymentStatus {
  if (settlement.status === 'draft') return 'draft';
  if (new Decimal(invoiceBalance(settlement)).lte(0)) return 'paid';
  if (settlement.today > settlement.due_on) return 'overdue';
  return new Decimal(settlement.paid).gt(0) ? 'part_paid' : 'unpaid';
}

export const AGING_BUCKETS = ['current', '1_30', '31_60', '61_90', 'over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/** How late an open invoice is on `today`: not yet due (current), then 1–30, 31–60, 61–90 and over 90 days past due. */
export function agingBucket(dueOn: string, today: string): AgingBucket {
  const late = dayNumber(today) - dayNumber(dueOn);
  if (late <= 0) return 'current';
  if (late <= 30) return '1_30';
  if (late <= 60) return '31_60';
  if (late <= 90) return '61_90';
  return 'over_90';
}

/** One side of a journal line: an account by its posting key or its id; one of debit and credit is "0". */
export interface PostingLine {
  account: { key: PostingKey } | { id: string };
  debit: string;
  credit: string;
  partner_id?: string | null;
}

const debit = (account: PostingLine['account'], amount: Decimal, partner_id: string | null = null): PostingLine => ({
  account,
  debit: amount.toFixed(),
  credit: '0',
  partner_id,
});
const credit = (account: PostingLine['account'], amount: Decimal, partner_id: string | null = null): PostingLine => ({
  account,
  debit: '0',
  credit: amount.toFixed(),
  partner_id,
});
/** Lines of nothing say nothing: a sale without VAT has no VAT line. */
const kept = (lines: PostingLine[]) => lines.filter((line) => !new Decimal(line.debit).isZero() || !new Decimal(line.credit).isZero());

/** Issuing an invoice: Dr debtors (gross) / Cr sales (net), Cr VAT payable; for stocked goods Dr cost of sales / Cr inventory. */
export function invoicePostings(d: { gross_total: string; tax_total: string; cost_total: string; customer_id: string }): PostingLine[] {
  const gross = new Decimal(d.gross_total);
  const tax = new Decimal(d.tax_total);
  const cost = new Decimal(d.cost_total);
  return kept([
    debit({ key: 'debtors' }, gross, d.customer_id),
    credit({ key: 'sales' }, gross.minus(tax)),
    credit({ key: 'vat_payable' }, tax),
    debit({ key: 'cost_of_sales' }, cost),
    credit({ key: 'inventory' }, cost),
  ]);
}

/** Money received: Dr the account it landed in, Dr WHT receivable (the customer withheld it) / Cr debtors for both. */
export function receiptPostings(d: { amount: string; wht_amount: string; account_id: string; customer_id: string }): PostingLine[] {
  const amount = new Decimal(d.amount);
  const wht = new Decimal(d.wht_amount);
  return kept([
    debit({ id: d.account_id }, amount),
    debit({ key: 'wht_receivable' }, wht, d.customer_id),
    credit({ key: 'debtors' }, amount.plus(wht), d.customer_id),
  ]);
}

/**
 * A credit memo reverses a sale: Dr sales (net), Dr VAT payable / Cr debtors, and for goods put
 * back in stock Dr inventory / Cr cost of sales. A debit memo charges more, like an invoice
 * without goods leaving.
 */
export function memoPostings(d: {
  kind: 'credit' | 'debit';
  gross_total: string;
  tax_total: string;
  cost_total: string;
  customer_id: string;
}): PostingLine[] {
  const gross = new Decimal(d.gross_total);
  const tax = new Decimal(d.tax_total);
  if (d.kind === 'debit') return invoicePostings({ ...d, cost_total: '0' });
  const cost = new Decimal(d.cost_total);
  return kept([
    debit({ key: 'sales' }, gross.minus(tax)),
    debit({ key: 'vat_payable' }, tax),
    credit({ key: 'debtors' }, gross, d.customer_id),
    debit({ key: 'inventory' }, cost),
    credit({ key: 'cost_of_sales' }, cost),
  ]);
}

/**
 * Paying a voucher: Dr each line's account (its amount less input VAT), Dr VAT receivable (input
 * VAT) / Cr the paying account (what left it: total − withholding), Cr WHT payable (withheld
 * from the payee, owed to URA).
 */
export function voucherPostings(d: {
  lines: ReadonlyArray<{ account_id: string; amount: string; tax: string }>;
  wht_amount: string;
  account_id: string;
  payee_id: string | null;
}): PostingLine[] {
  let total = new Decimal(0);
  let inputVat = new Decimal(0);
  const expenses: PostingLine[] = [];
  for (const line of d.lines) {
    const amount = new Decimal(line.amount);
    const tax = new Decimal(line.tax);
    total = total.plus(amount);
    inputVat = inputVat.plus(tax);
    expenses.push(debit({ id: line.account_id }, amount.minus(tax), d.payee_id));
  }
  const wht = new Decimal(d.wht_amount);
  return kept([
    ...expenses,
    debit({ key: 'vat_receivable' }, inputVat),
    credit({ id: d.account_id }, total.minus(wht)),
    credit({ key: 'wht_payable' }, wht, d.payee_id),
  ]);
}

/** Debits equal credits, and no line is negative or both. */
export function isBalanced(lines: ReadonlyArray<PostingLine>): boolean {
  let sum = new Decimal(0);
  for (const line of lines) {
    const dr = new Decimal(line.debit);
    const cr = new Decimal(line.credit);
    if (dr.isNegative() || cr.isNegative() || (!dr.isZero() && !cr.isZero())) return false;
    sum = sum.plus(dr).minus(cr);
  }
  return sum.isZero();
}
