import { Decimal, formatAmount } from './money.js';
import type { PaymentMethod, TaxSummaryRow } from './sales.js';

/*
 * The one model every print of a sales document is drawn from (issue 32 point 6): the A4 PDF,
 * and the 80 mm and 58 mm thermal receipts as text and as PDF. The server loads it from the
 * database (apps/server/src/modules/sales-prints/loader.ts); the layouts here and the PDF
 * drawers only lay it out, so every print of a document shows the same figures.
 *
 * Printed texts are English, as URA's documents are. Amounts are decimal text, shown with
 * thousands separators (spec §9) to the currency's decimals.
 */

export const PRINT_KINDS = ['invoice', 'cash_sale', 'receipt', 'credit_memo', 'debit_memo'] as const;
export type PrintKind = (typeof PRINT_KINDS)[number];

export const PRINT_FORMATS = ['a4', '80mm', '58mm'] as const;
export type PrintFormat = (typeof PRINT_FORMATS)[number];
export const PRINT_OUTPUTS = ['pdf', 'text'] as const;
export type PrintOutput = (typeof PRINT_OUTPUTS)[number];

/** Characters a line of a thermal printer: 80 mm paper takes 48 (font A), 58 mm takes 32. */
export const THERMAL_WIDTHS = { '80mm': 48, '58mm': 32 } as const;
export type ThermalWidth = (typeof THERMAL_WIDTHS)[keyof typeof THERMAL_WIDTHS];

/** What everything the local EFRIS fake produced carries (guide business.md "EFRIS"). */
export const SIMULATED_MARK = 'SIMULATED - NOT A VALID TAX INVOICE';

/** A print's title by kind (and, for an invoice, by whether the business charges VAT). */
export function printTitle(kind: PrintKind, vatRegistered: boolean): string {
  switch (kind) {
    case 'invoice':
      return vatRegistered ? 'TAX INVOICE' : 'INVOICE';
    case 'cash_sale':
      return vatRegistered ? 'CASH SALE - TAX INVOICE' : 'CASH SALE';
    case 'receipt':
      return 'RECEIPT';
    case 'credit_memo':
      return 'CREDIT NOTE';
    case 'debit_memo':
      return 'DEBIT NOTE';
  }
}

export const PAYMENT_METHOD_LABELS: Readonly<Record<PaymentMethod, string>> = {
  cash: 'Cash',
  mtn_momo: 'MTN Mobile Money',
  airtel_money: 'Airtel Money',
  bank: 'Bank transfer',
  cheque: 'Cheque',
  card: 'Card',
};

export interface PrintBusiness {
  name: string;
  address: string | null;
  phone: string | null;
  tin: string | null;
  /** Whether the business has a logo to draw (the PDF drawers get its bytes beside the model). */
  has_logo: boolean;
  vat_registered: boolean;
}

export interface PrintLine {
  description: string;
  quantity: string;
  unit: string | null;
  /** Tax-inclusive. */
  unit_price: string;
  discount: string;
  gross: string;
  tax: string;
  net: string;
  /** '' when the line has no tax. */
  tax_code: string;
  tax_rate: string;
}

/** A receipt's money put against an invoice. */
export interface PrintAllocation {
  invoice_number: string;
  amount: string;
}

export interface PrintPayment {
  method: PaymentMethod;
  reference: string | null;
  /** The money received (a receipt), or paid at the counter. */
  amount: string;
  /** Tax the customer withheld (counted as paid), with its certificate number. */
  wht_amount: string;
  wht_certificate: string | null;
}

export interface PrintFiscal {
  /** URA's fiscal document number. */
  fdn: string | null;
  verification_code: string | null;
  /** The text the QR code encodes (URA's URL of the document). */
  qr_text: string | null;
  /** Produced by the local EFRIS fake: the print says so, in words. */
  simulated: boolean;
}

export interface PrintDocument {
  business: PrintBusiness;
  kind: PrintKind;
  /** The document's number; null for a draft (printed "DRAFT"). */
  number: string | null;
  /** The day it was issued (or received). */
  date: string;
  due_on: string | null;
  currency_code: string;
  /** The currency's decimals (UGX: 0). */
  decimals: number;
  customer: { name: string; tin: string | null; phone: string | null; address: string | null };
  /** The invoice a memo is against. */
  reference_number: string | null;
  /** A memo's reason. */
  reason: string | null;
  lines: PrintLine[];
  totals: { discount_total: string; net_total: string; tax_total: string; gross_total: string; by_tax: TaxSummaryRow[] } | null;
  /** What was settled (invoices) and what remains; null where it does not apply. */
  paid: string | null;
  balance: string | null;
  payment: PrintPayment | null;
  /** A receipt's allocations, and what was kept as an advance. */
  allocations: PrintAllocation[];
  advance: string | null;
  fiscal: PrintFiscal | null;
  notes: string | null;
  /** Who issued or received it. */
  served_by: string | null;
}

// ---------------------------------------------------------------------------------------------
// Thermal layout: fixed-width lines, none longer than the paper takes.

/** Code points, so a name like "Café" counts 4; control characters become spaces. */
const isControl = (char: string) => {
  const code = char.charCodeAt(0);
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
};
const chars = (value: string): string[] => [...value].map((char) => (isControl(char) ? ' ' : char));
const width = (value: string) => chars(value).length;

/**
 * Splits a text into lines of at most `size` characters at spaces; a word longer than a line is
 * cut. Leading spaces (an indent) start every line.
 */
export function wrapText(value: string, size: number): string[] {
  const indent = /^ */.exec(value)?.[0] ?? '';
  if (indent && indent.length < size) return wrapText(value.slice(indent.length), size - indent.length).map((line) => indent + line);
  const lines: string[] = [];
  let current = '';
  for (const word of chars(value).join('').split(/\s+/).filter(Boolean)) {
    let rest = chars(word);
    const join = current ? 1 : 0;
    if (width(current) + join + rest.length <= size) {
      current += (join ? ' ' : '') + rest.join('');
      continue;
    }
    if (current) lines.push(current);
    current = '';
    while (rest.length > size) {
      lines.push(rest.slice(0, size).join(''));
      rest = rest.slice(size);
    }
    current = rest.join('');
  }
  if (current) lines.push(current);
  return lines;
}

const centre = (value: string, size: number) =>
  wrapText(value, size).map((line) => `${' '.repeat(Math.floor((size - width(line)) / 2))}${line}`);

/** A label on the left and a value on the right of one line; the label wraps above when both do not fit. */
function pair(label: string, value: string, size: number): string[] {
  const right = wrapText(value, size);
  const last = right.pop() ?? '';
  const left = wrapText(label, size);
  const tail = left.pop() ?? '';
  const lines = [...left];
  const rightLines = right.map((line) => line.padStart(size));
  if (width(tail) + 1 + width(last) <= size && rightLines.length === 0) {
    lines.push(`${tail}${' '.repeat(size - width(tail) - width(last))}${last}`);
    return lines;
  }
  if (tail) lines.push(tail);
  return [...lines, ...rightLines, `${' '.repeat(Math.max(0, size - width(last)))}${last}`];
}

/** A label and a value that simply follow each other, wrapped ("Ref: 1234..."). */
const labelled = (label: string, value: string, size: number) => wrapText(`${label}: ${value}`, size);

const rule = (size: number, mark = '-') => mark.repeat(size);

const isZero = (value: string) => new Decimal(value).isZero();

/** A quantity as typed: "3", "0.5", "1,200" (no trailing zeros, at most 3 decimals). */
export const formatQuantity = (value: string) => formatAmount(value, Math.min(3, new Decimal(value).decimalPlaces()));

/** Amount columns of the 80 mm VAT summary: code, net, VAT, gross. */
function taxSummary(doc: PrintDocument, size: ThermalWidth): string[] {
  const totals = doc.totals;
  if (!totals || totals.by_tax.length === 0 || !doc.business.vat_registered) return [];
  const amount = (value: string) => formatAmount(value, doc.decimals);
  const code = (row: TaxSummaryRow) =>
    `${row.tax_code || '-'} ${row.tax_kind === 'standard' || row.tax_kind === 'deemed' ? `${row.tax_rate}%` : row.tax_kind}`;
  const lines = ['VAT SUMMARY'];
  if (size >= 48) {
    const column = 12;
    const first = size - 3 * column;
    const row = (a: string, b: string, c: string, d: string) => {
      const head = wrapText(a, first);
      const label = head.pop() ?? '';
      const cells = [b, c, d].map((cell) => cell.padStart(column));
      if ([b, c, d].some((cell) => width(cell) >= column)) return [...head, label, ...pair('', `${b} ${c} ${d}`, size)];
      return [...head, `${label.padEnd(first)}${cells.join('')}`];
    };
    lines.push(...row('Code', 'Net', 'VAT', 'Gross'));
    for (const tax of totals.by_tax) lines.push(...row(code(tax), amount(tax.net), amount(tax.tax), amount(tax.gross)));
    return lines;
  }
  for (const tax of totals.by_tax) {
    lines.push(...pair(code(tax), amount(tax.gross), size));
    lines.push(...pair('  Net', amount(tax.net), size), ...pair('  VAT', amount(tax.tax), size));
  }
  return lines;
}

/**
 * The thermal receipt of a document as lines of at most `size` characters (48 on 80 mm paper,
 * 32 on 58 mm): the business centred at the top, the title and number, the customer, each item
 * (its name wrapped, quantity x price and the amount right-aligned), the totals, the VAT
 * summary, the payment, the fiscal block, and the SIMULATED mark at the top and the foot when
 * the fiscal data came from the local fake. The PDF of the same receipt draws these lines.
 */
export function thermalLines(doc: PrintDocument, size: ThermalWidth): string[] {
  const amount = (value: string) => formatAmount(value, doc.decimals);
  const out: string[] = [];
  const simulated = doc.fiscal?.simulated === true;
  if (simulated) out.push(...centre(SIMULATED_MARK, size), rule(size, '*'));
  out.push(...centre(doc.business.name.toUpperCase(), size));
  if (doc.business.address) out.push(...centre(doc.business.address, size));
  if (doc.business.phone) out.push(...centre(`Tel: ${doc.business.phone}`, size));
  if (doc.business.tin) out.push(...centre(`TIN: ${doc.business.tin}`, size));
  out.push(rule(size));
  out.push(...centre(printTitle(doc.kind, doc.business.vat_registered), size));
  out.push(...pair('No:', doc.number ?? 'DRAFT', size));
  out.push(...pair('Date:', doc.date, size));
  if (doc.due_on && doc.kind === 'invoice') out.push(...pair('Due:', doc.due_on, size));
  if (doc.reference_number) out.push(...pair('Against:', doc.reference_number, size));
  if (doc.reason) out.push(...labelled('Reason', doc.reason, size));
  out.push(...labelled(doc.kind === 'receipt' ? 'Received from' : 'Customer', doc.customer.name, size));
  if (doc.customer.tin) out.push(...labelled('Buyer TIN', doc.customer.tin, size));
  if (doc.lines.length > 0) {
    out.push(rule(size));
    for (const line of doc.lines) {
      out.push(...wrapText(line.description, size));
      const taxMark = line.tax_code ? ` ${line.tax_code}` : '';
      out.push(...pair(`  ${formatQuantity(line.quantity)} x ${amount(line.unit_price)}`, `${amount(line.gross)}${taxMark}`, size));
      if (!isZero(line.discount)) out.push(...pair('  Discount', `-${amount(line.discount)}`, size));
    }
  }
  if (doc.totals) {
    out.push(rule(size));
    if (!isZero(doc.totals.discount_total)) out.push(...pair('Discount', `-${amount(doc.totals.discount_total)}`, size));
    if (doc.business.vat_registered) {
      out.push(...pair('Net', amount(doc.totals.net_total), size));
      out.push(...pair('VAT', amount(doc.totals.tax_total), size));
    }
    out.push(...pair(`TOTAL ${doc.currency_code}`, amount(doc.totals.gross_total), size));
    if (doc.paid !== null) out.push(...pair('Paid', amount(doc.paid), size));
    if (doc.balance !== null) out.push(...pair('Balance', amount(doc.balance), size));
    const summary = taxSummary(doc, size);
    if (summary.length > 0) out.push(rule(size), ...summary);
  }
  if (doc.payment) {
    out.push(rule(size));
    if (doc.kind === 'receipt') out.push(...pair(`RECEIVED ${doc.currency_code}`, amount(doc.payment.amount), size));
    out.push(...labelled('Paid by', PAYMENT_METHOD_LABELS[doc.payment.method], size));
    if (doc.payment.reference) out.push(...labelled('Ref', doc.payment.reference, size));
    if (!isZero(doc.payment.wht_amount)) {
      out.push(...pair('Tax withheld', amount(doc.payment.wht_amount), size));
      if (doc.payment.wht_certificate) out.push(...labelled('WHT certificate', doc.payment.wht_certificate, size));
    }
  }
  if (doc.allocations.length > 0) {
    out.push(rule(size), 'PAID AGAINST');
    for (const allocation of doc.allocations) out.push(...pair(`  ${allocation.invoice_number}`, amount(allocation.amount), size));
  }
  if (doc.advance !== null && !isZero(doc.advance)) out.push(...pair('Kept as advance', amount(doc.advance), size));
  if (doc.fiscal && (doc.fiscal.fdn || doc.fiscal.verification_code)) {
    out.push(rule(size), ...centre('EFRIS', size));
    if (doc.fiscal.fdn) out.push(...labelled('FDN', doc.fiscal.fdn, size));
    if (doc.fiscal.verification_code) out.push(...labelled('Verification code', doc.fiscal.verification_code, size));
  }
  if (doc.notes) out.push(rule(size), ...wrapText(doc.notes, size));
  out.push(rule(size));
  if (doc.served_by) out.push(...labelled('Served by', doc.served_by, size));
  out.push(...centre('Thank you', size));
  if (simulated) out.push(rule(size, '*'), ...centre(SIMULATED_MARK, size));
  return out;
}
