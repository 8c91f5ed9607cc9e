import {
  Decimal,
  documentTotals,
  invoiceBalance,
  type PaymentMethod,
  type PrintBusiness,
  type PrintDocument,
  type PrintLine,
  type PrintPayment,
} from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { notFound } from '../../errors.js';

/*
 * The print model of an invoice or a receipt (shared business/print.ts), read straight from
 * migration 0028's tables in the request's tenant transaction (RLS keeps another business's
 * rows out: its id is simply not found). Amounts are read as numeric text and kept exact.
 * Whatever a print shows is derived here once, so the A4 page and the thermal receipts agree.
 */

/** A print's model and the stored file name of the business's logo (read and drawn by the route). */
export interface LoadedPrint {
  doc: PrintDocument;
  logoFile: string | null;
}

/** An exact decimal as its shortest text ("11800.0000" -> "11800"). */
const exact = (value: string | null | undefined) => new Decimal(value ?? '0').toFixed();

/** At most this many allocations of a receipt are printed (a receipt's allocations grow by later rows). */
export const MAX_PRINTED_ALLOCATIONS = 500;

async function business(tx: TenantTx, vatRegistered: boolean | null): Promise<{ business: PrintBusiness; logoFile: string | null }> {
  const row = await sql<{
    name: string;
    address: string | null;
    phone: string | null;
    tin: string | null;
    logo_path: string | null;
    vat: boolean | null;
  }>`
    SELECT t.name, t.address, t.phone, t.tin, t.logo_path,
           (SELECT s.vat_registered FROM business_settings s WHERE s.tenant_id = t.id) AS vat
      FROM tenants t WHERE t.id = ${tx.tenantId}`.execute(tx.trx);
  const tenant = row.rows[0];
  if (!tenant) throw notFound();
  return {
    business: {
      name: tenant.name,
      address: tenant.address,
      phone: tenant.phone,
      tin: tenant.tin,
      has_logo: tenant.logo_path !== null,
      vat_registered: vatRegistered ?? tenant.vat ?? true,
    },
    logoFile: tenant.logo_path,
  };
}

interface CustomerRow {
  customer_name: string;
  customer_tin: string | null;
  customer_phone: string | null;
  customer_address: string | null;
}

interface InvoiceRow extends CustomerRow {
  id: string;
  kind: 'invoice' | 'cash_sale';
  status: 'draft' | 'issued';
  number: string | null;
  buyer_name: string | null;
  buyer_phone: string | null;
  currency_code: string;
  currency_decimals: number;
  issued_on: string;
  due_on: string;
  notes: string | null;
  vat_registered: boolean;
  fiscal_fdn: string | null;
  fiscal_verification_code: string | null;
  fiscal_qr_code: string | null;
  fiscal_simulated: boolean;
  served_by: string | null;
  credited: string;
  debited: string;
  paid: string;
}

interface LineRow {
  description: string;
  unit: string | null;
  quantity: string;
  unit_price: string;
  discount: string;
  gross: string;
  tax: string;
  net: string;
  tax_code: string | null;
  tax_kind: string | null;
  tax_rate: string;
}

/** An invoice (or counter cash sale) of this business as printed; 404 when it has none by that id. */
export async function loadInvoicePrint(tx: TenantTx, id: string): Promise<LoadedPrint> {
  const found = await sql<InvoiceRow>`
    SELECT i.id, i.kind, i.status, i.number, i.buyer_name, i.buyer_phone, i.currency_code, i.currency_decimals::int AS currency_decimals,
           i.issued_on::text AS issued_on, i.due_on::text AS due_on, i.notes, i.vat_registered,
           i.fiscal_fdn, i.fiscal_verification_code, i.fiscal_qr_code, i.fiscal_simulated,
           u.name AS served_by,
           c.name AS customer_name, c.tin AS customer_tin, c.phone AS customer_phone, c.address AS customer_address,
           COALESCE((SELECT sum(m.gross_total) FROM memos m WHERE m.tenant_id = i.tenant_id AND m.invoice_id = i.id AND m.kind = 'credit'), 0)::text AS credited,
           COALESCE((SELECT sum(m.gross_total) FROM memos m WHERE m.tenant_id = i.tenant_id AND m.invoice_id = i.id AND m.kind = 'debit'), 0)::text AS debited,
           COALESCE((SELECT sum(a.amount) FROM receipt_allocations a WHERE a.tenant_id = i.tenant_id AND a.invoice_id = i.id), 0)::text AS paid
      FROM invoices i
      JOIN companies c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
      LEFT JOIN users u ON u.id = COALESCE(i.issued_by, i.created_by)
     WHERE i.tenant_id = ${tx.tenantId} AND i.id = ${id}`.execute(tx.trx);
  const invoice = found.rows[0];
  if (!invoice) throw notFound();
  // An invoice has at most 500 lines (the table's line number is 0..499).
  const lines = await sql<LineRow>`
    SELECT COALESCE(l.description, p.name) AS description, p.unit, l.quantity::text AS quantity, l.unit_price::text AS unit_price,
           l.discount::text AS discount, l.gross::text AS gross, l.tax::text AS tax, l.net::text AS net,
           l.tax_code, l.tax_kind, l.tax_rate::text AS tax_rate
      FROM invoice_lines l
      JOIN products p ON p.tenant_id = l.tenant_id AND p.id = l.product_id
     WHERE l.tenant_id = ${tx.tenantId} AND l.invoice_id = ${id}
     ORDER BY l.line`.execute(tx.trx);
  // A counter sale is paid at once: the receipt that paid it names it (receipts.invoice_id).
  const counter = await sql<{
    method: PaymentMethod;
    reference: string | null;
    amount: string;
    wht_amount: string;
    wht_certificate: string | null;
  }>`
    SELECT r.method, r.reference, r.amount::text AS amount, r.wht_amount::text AS wht_amount, r.wht_certificate
      FROM receipts r WHERE r.tenant_id = ${tx.tenantId} AND r.invoice_id = ${id}
     ORDER BY r.created_at, r.number LIMIT 1`.execute(tx.trx);
  const { business: seller, logoFile } = await business(tx, invoice.vat_registered);

  const printed: PrintLine[] = lines.rows.map((line) => ({
    description: line.description,
    quantity: exact(line.quantity),
    unit: line.unit,
    unit_price: exact(line.unit_price),
    discount: exact(line.discount),
    gross: exact(line.gross),
    tax: exact(line.tax),
    net: exact(line.net),
    tax_code: line.tax_code ?? '',
    tax_rate: exact(line.tax_rate),
  }));
  // Totals as the shared arithmetic sums the stored lines: the same figures the invoice was issued with.
  const totals = documentTotals(
    lines.rows.map((line) => ({
      gross: line.gross,
      tax: line.tax,
      net: line.net,
      discount: line.discount,
      tax_code: line.tax_code,
      tax_kind: line.tax_kind,
      tax_rate: line.tax_rate,
    })),
  );
  const issued = invoice.status === 'issued';
  const settlement = { gross_total: totals.gross_total, credited: invoice.credited, debited: invoice.debited, paid: invoice.paid };
  const payment = counter.rows[0];
  const paymentShown: PrintPayment | null = payment
    ? {
        method: payment.method,
        reference: payment.reference,
        amount: exact(payment.amount),
        wht_amount: exact(payment.wht_amount),
        wht_certificate: payment.wht_certificate,
      }
    : null;
  const fiscalised = invoice.fiscal_fdn !== null || invoice.fiscal_verification_code !== null;
  const doc: PrintDocument = {
    business: seller,
    kind: invoice.kind,
    number: issued ? invoice.number : null,
    date: invoice.issued_on,
    due_on: invoice.due_on,
    currency_code: invoice.currency_code,
    decimals: invoice.currency_decimals,
    customer: {
      name: invoice.buyer_name ?? invoice.customer_name,
      tin: invoice.customer_tin,
      phone: invoice.buyer_phone ?? invoice.customer_phone,
      address: invoice.customer_address,
    },
    reference_number: null,
    reason: null,
    lines: printed,
    totals,
    paid: issued ? exact(new Decimal(invoice.paid).toFixed()) : null,
    balance: issued ? invoiceBalance(settlement) : null,
    payment: paymentShown,
    allocations: [],
    advance: null,
    fiscal:
      fiscalised || invoice.fiscal_simulated
        ? {
            fdn: invoice.fiscal_fdn,
            verification_code: invoice.fiscal_verification_code,
            qr_text: invoice.fiscal_qr_code,
            simulated: invoice.fiscal_simulated,
          }
        : null,
    notes: invoice.notes,
    served_by: invoice.served_by,
  };
  return { doc, logoFile };
}

interface ReceiptRow extends CustomerRow {
  number: string;
  received_on: string;
  method: PaymentMethod;
  reference: string | null;
  currency_code: string;
  decimals: number | null;
  amount: string;
  wht_amount: string;
  wht_certificate: string | null;
  notes: string | null;
  served_by: string | null;
}

/** A receipt of this business as printed, with the invoices it paid; 404 when it has none by that id. */
export async function loadReceiptPrint(tx: TenantTx, id: string): Promise<LoadedPrint> {
  const found = await sql<ReceiptRow>`
    SELECT r.number, r.received_on::text AS received_on, r.method, r.reference, r.currency_code,
           (SELECT cu.decimals::int FROM currencies cu WHERE cu.tenant_id = r.tenant_id AND cu.code = r.currency_code) AS decimals,
           r.amount::text AS amount, r.wht_amount::text AS wht_amount, r.wht_certificate, r.notes,
           u.name AS served_by,
           c.name AS customer_name, c.tin AS customer_tin, c.phone AS customer_phone, c.address AS customer_address
      FROM receipts r
      JOIN companies c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
      LEFT JOIN users u ON u.id = r.created_by
     WHERE r.tenant_id = ${tx.tenantId} AND r.id = ${id}`.execute(tx.trx);
  const receipt = found.rows[0];
  if (!receipt) throw notFound();
  const allocations = await sql<{ invoice_number: string | null; amount: string }>`
    SELECT i.number AS invoice_number, sum(a.amount)::text AS amount
      FROM receipt_allocations a
      JOIN invoices i ON i.tenant_id = a.tenant_id AND i.id = a.invoice_id
     WHERE a.tenant_id = ${tx.tenantId} AND a.receipt_id = ${id}
     GROUP BY i.id, i.number
     ORDER BY i.number
     LIMIT ${MAX_PRINTED_ALLOCATIONS}`.execute(tx.trx);
  const allocatedTotal = await sql<{ total: string }>`
    SELECT COALESCE(sum(a.amount), 0)::text AS total FROM receipt_allocations a
     WHERE a.tenant_id = ${tx.tenantId} AND a.receipt_id = ${id}`.execute(tx.trx);
  const { business: seller, logoFile } = await business(tx, null);
  const amount = exact(receipt.amount);
  const wht = exact(receipt.wht_amount);
  // What the allocations leave of the money and the tax withheld stays with the customer as an advance.
  const advance = new Decimal(amount).plus(wht).minus(allocatedTotal.rows[0]?.total ?? '0');
  const doc: PrintDocument = {
    business: seller,
    kind: 'receipt',
    number: receipt.number,
    date: receipt.received_on,
    due_on: null,
    currency_code: receipt.currency_code,
    decimals: receipt.decimals ?? (receipt.currency_code === 'UGX' ? 0 : 2),
    customer: {
      name: receipt.customer_name,
      tin: receipt.customer_tin,
      phone: receipt.customer_phone,
      address: receipt.customer_address,
    },
    reference_number: null,
    reason: null,
    lines: [],
    totals: null,
    paid: null,
    balance: null,
    payment: { method: receipt.method, reference: receipt.reference, amount, wht_amount: wht, wht_certificate: receipt.wht_certificate },
    allocations: allocations.rows.map((row) => ({ invoice_number: row.invoice_number ?? '', amount: exact(row.amount) })),
    advance: advance.isPositive() ? advance.toFixed() : '0',
    fiscal: null,
    notes: receipt.notes,
    served_by: receipt.served_by,
  };
  return { doc, logoFile };
}
