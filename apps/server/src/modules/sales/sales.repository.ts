import { WALK_IN_CUSTOMER } from '@mustard/shared';
import { type Insertable, sql } from 'kysely';
import { newId } from '../../db/ids.js';
import type { InvoicesTable } from '../../db/sales-types.js';
import type { TenantTx } from '../../db/tenant.js';

/*
 * The invoices' queries (issue 32 point 1). Every query names the business of its transaction:
 * another business's rows are never found (and row-level security says the same).
 */

/** A product as a sale line needs it: its price, its tax now, whether it sells, keeps stock and takes fractions. */
export interface SaleProduct {
  id: string;
  code: string;
  name: string;
  unit: string;
  barcode: string | null;
  kind: 'goods' | 'service';
  active: boolean;
  track_stock: boolean;
  fractional: boolean;
  price: string;
  tax_id: string | null;
  tax_code: string | null;
  tax_kind: 'standard' | 'zero' | 'exempt' | 'deemed' | null;
  tax_rate: string | null;
}

/** The business's products among `ids`, with their tax. */
export async function saleProducts(tx: TenantTx, ids: ReadonlyArray<string>): Promise<Map<string, SaleProduct>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.trx
    .selectFrom('products as p')
    .leftJoin('taxes as t', (join) => join.onRef('t.tenant_id', '=', 'p.tenant_id').onRef('t.id', '=', 'p.tax_id'))
    .select([
      'p.id',
      'p.code',
      'p.name',
      'p.unit',
      'p.barcode',
      'p.kind',
      'p.active',
      'p.track_stock',
      'p.fractional',
      sql<string>`p.price::text`.as('price'),
      'p.tax_id',
      't.code as tax_code',
      't.kind as tax_kind',
      sql<string | null>`t.rate::text`.as('tax_rate'),
    ])
    .where('p.tenant_id', '=', tx.tenantId)
    .where('p.id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export interface SaleCustomer {
  id: string;
  name: string;
  role: 'customer' | 'supplier' | 'both';
  terms_days: number;
}

export async function customerById(tx: TenantTx, id: string): Promise<SaleCustomer | undefined> {
  return tx.trx
    .selectFrom('companies')
    .select(['id', 'name', 'role', 'terms_days'])
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The business's walk-in customer (the counter sells to it), made when missing: at the first
 * look at a new sale's defaults or the first sale without a customer. Found by its name, so a
 * partner the business made under that name before is the one used.
 */
export async function walkInCustomer(tx: TenantTx): Promise<SaleCustomer> {
  const find = () =>
    tx.trx
      .selectFrom('companies')
      .select(['id', 'name', 'role', 'terms_days'])
      .where('tenant_id', '=', tx.tenantId)
      .where('name', '=', WALK_IN_CUSTOMER)
      .executeTakeFirst();
  const found = await find();
  if (found) return found;
  await seedWalkInCustomer(tx);
  const made = await find();
  if (!made) throw new Error('the walk-in customer could not be made');
  return made;
}

/** Adds the walk-in customer unless the business has a partner of that name. */
export async function seedWalkInCustomer(tx: TenantTx): Promise<void> {
  await tx.trx
    .insertInto('companies')
    .values({ tenant_id: tx.tenantId, id: newId(), name: WALK_IN_CUSTOMER, role: 'customer', buyer_type: 'b2c', terms_days: 0 })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The business's locations, by name; the first is where a sale takes stock from by default. */
export async function saleLocations(tx: TenantTx) {
  return tx.trx
    .selectFrom('locations')
    .select(['id', 'name'])
    .where('tenant_id', '=', tx.tenantId)
    .orderBy('name')
    .orderBy('id')
    .limit(1000)
    .execute();
}

export async function locationExists(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx
    .selectFrom('locations')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export interface SaleCurrency {
  code: string;
  decimals: number;
  symbol: string | null;
  rate: string;
  is_default: boolean;
}

/** The business's currencies, the default first. */
export async function saleCurrencies(tx: TenantTx): Promise<SaleCurrency[]> {
  return tx.trx
    .selectFrom('currencies')
    .select(['code', 'decimals', 'symbol', sql<string>`rate::text`.as('rate'), 'is_default'])
    .where('tenant_id', '=', tx.tenantId)
    .orderBy('is_default', 'desc')
    .orderBy('code')
    .limit(1000)
    .execute();
}

/** Whether the business is registered for VAT and lets stock go below zero (the defaults while it has no settings row). */
export async function saleSettings(tx: TenantTx): Promise<{ vat_registered: boolean; allow_negative_stock: boolean }> {
  const row = await tx.trx
    .selectFrom('business_settings')
    .select(['vat_registered', 'allow_negative_stock'])
    .where('tenant_id', '=', tx.tenantId)
    .executeTakeFirst();
  return { vat_registered: row?.vat_registered ?? true, allow_negative_stock: row?.allow_negative_stock ?? false };
}

/** The business's active taxes, by code. */
export async function saleTaxes(tx: TenantTx) {
  return tx.trx
    .selectFrom('taxes')
    .select(['id', 'code', 'name', 'kind', sql<string>`rate::text`.as('rate')])
    .where('tenant_id', '=', tx.tenantId)
    .where('active', '=', true)
    .orderBy('code')
    .limit(1000)
    .execute();
}

export interface InvoiceRow {
  id: string;
  request_id: string;
  kind: 'invoice' | 'cash_sale';
  status: 'draft' | 'issued';
  number: string | null;
  customer_id: string;
  customer_name: string;
  customer_tin: string | null;
  customer_phone: string | null;
  buyer_name: string | null;
  buyer_phone: string | null;
  location_id: string;
  location_name: string | null;
  currency_code: string;
  currency_decimals: number;
  issued_on: string;
  due_on: string;
  reference: string | null;
  notes: string | null;
  vat_registered: boolean;
  discount_total: string;
  net_total: string;
  tax_total: string;
  gross_total: string;
  fiscal_status: 'none' | 'pending' | 'fiscalised' | 'failed';
  fiscal_fdn: string | null;
  fiscal_verification_code: string | null;
  fiscal_qr_code: string | null;
  fiscal_simulated: boolean;
  created_at: Date | string;
  issued_at: Date | string | null;
  paid: string;
  credited: string;
  debited: string;
  total?: string | number;
}

const INVOICE_COLUMNS = sql`
  i.id, i.request_id, i.kind, i.status, i.number, i.customer_id, c.name AS customer_name, c.tin AS customer_tin,
  c.phone AS customer_phone, i.buyer_name, i.buyer_phone, i.location_id, l.name AS location_name, i.currency_code,
  i.currency_decimals, i.issued_on::text AS issued_on, i.due_on::text AS due_on, i.reference, i.notes, i.vat_registered,
  i.discount_total::text AS discount_total, i.net_total::text AS net_total, i.tax_total::text AS tax_total,
  i.gross_total::text AS gross_total, i.fiscal_status, i.fiscal_fdn, i.fiscal_verification_code, i.fiscal_qr_code,
  i.fiscal_simulated, i.created_at, i.issued_at`;

const SETTLED = sql`
  coalesce((SELECT sum(a.amount) FROM receipt_allocations a WHERE a.tenant_id = i.tenant_id AND a.invoice_id = i.id), 0) AS paid,
  coalesce((SELECT sum(m.gross_total) FROM memos m WHERE m.tenant_id = i.tenant_id AND m.invoice_id = i.id AND m.kind = 'credit'), 0) AS credited,
  coalesce((SELECT sum(m.gross_total) FROM memos m WHERE m.tenant_id = i.tenant_id AND m.invoice_id = i.id AND m.kind = 'debit'), 0) AS debited`;

const JOINS = sql`
  JOIN companies c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
  LEFT JOIN locations l ON l.tenant_id = i.tenant_id AND l.id = i.location_id`;

/** One invoice of the business with its customer, location and what is settled on it. */
export async function invoiceRow(tx: TenantTx, id: string): Promise<InvoiceRow | undefined> {
  const result = await sql<InvoiceRow>`
    SELECT ${INVOICE_COLUMNS}, s.paid::text AS paid, s.credited::text AS credited, s.debited::text AS debited
      FROM invoices i ${JOINS}
      CROSS JOIN LATERAL (SELECT ${SETTLED}) s
     WHERE i.tenant_id = ${tx.tenantId} AND i.id = ${id}`.execute(tx.trx);
  return result.rows[0];
}

/**
 * Locks the invoice's row to the end of the transaction and answers its status and kind: an
 * issue, an edit or a delete of the same invoice take turns here, and the second sees what the
 * first left.
 */
export async function lockInvoice(tx: TenantTx, id: string) {
  return tx.trx
    .selectFrom('invoices')
    .select(['id', 'status', 'kind', 'request_id'])
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** The invoice saved for a client's request id, if any. */
export async function invoiceOfRequest(tx: TenantTx, requestId: string) {
  return tx.trx
    .selectFrom('invoices')
    .select(['id', 'kind', 'status'])
    .where('tenant_id', '=', tx.tenantId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

type MoneyColumn = 'rate' | 'discount_total' | 'net_total' | 'tax_total' | 'gross_total';
/**
 * An invoice row to write. Its numeric columns with a database default are typed
 * `Generated<Numeric>` (db/sales-types.ts), whose insert type is the column type itself rather
 * than the decimal text it takes: they are declared here as that text.
 */
export type NewInvoice = Omit<Insertable<InvoicesTable>, 'tenant_id' | 'created_at' | 'updated_at' | MoneyColumn> &
  Partial<Record<MoneyColumn, string>>;
const asRow = (invoice: Partial<NewInvoice>) => invoice as unknown as Partial<Insertable<InvoicesTable>>;

/**
 * Inserts the invoice unless its request id is already saved: answers false then. A second
 * transaction with the same request id waits here until the first ends (the unique index) and
 * then sees it, so the caller answers the first without an aborted transaction.
 */
export async function insertInvoice(tx: TenantTx, invoice: NewInvoice): Promise<boolean> {
  const inserted = await tx.trx
    .insertInto('invoices')
    .values({ ...(asRow(invoice) as Insertable<InvoicesTable>), tenant_id: tx.tenantId })
    .onConflict((oc) => oc.columns(['tenant_id', 'request_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export type InvoiceChange = Partial<Omit<NewInvoice, 'id' | 'request_id'>>;

export async function updateInvoice(tx: TenantTx, id: string, change: InvoiceChange): Promise<void> {
  await tx.trx
    .updateTable('invoices')
    .set({ ...asRow(change), updated_at: sql`now()` })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .execute();
}

export async function deleteInvoiceRow(tx: TenantTx, id: string): Promise<void> {
  await tx.trx.deleteFrom('invoices').where('tenant_id', '=', tx.tenantId).where('id', '=', id).execute();
}

export interface StoredLine {
  line: number;
  product_id: string;
  description: string | null;
  quantity: string;
  unit_price: string;
  discount: string;
  tax_id: string | null;
  tax_code: string | null;
  tax_kind: 'standard' | 'zero' | 'exempt' | 'deemed' | null;
  tax_rate: string;
  gross: string;
  tax: string;
  net: string;
  unit_cost: string;
}

/** Replaces a draft's lines (the database refuses it once the invoice is issued). */
export async function replaceLines(tx: TenantTx, invoiceId: string, lines: ReadonlyArray<StoredLine>): Promise<void> {
  await tx.trx.deleteFrom('invoice_lines').where('tenant_id', '=', tx.tenantId).where('invoice_id', '=', invoiceId).execute();
  if (lines.length === 0) return;
  const rows = lines.map(
    (l) =>
      sql`(${tx.tenantId}::uuid, ${invoiceId}::uuid, ${l.line}, ${l.product_id}::uuid, ${l.description}, ${l.quantity}::numeric,
        ${l.unit_price}::numeric, ${l.discount}::numeric, ${l.tax_id}::uuid, ${l.tax_code}, ${l.tax_kind}, ${l.tax_rate}::numeric,
        ${l.gross}::numeric, ${l.tax}::numeric, ${l.net}::numeric, ${l.unit_cost}::numeric)`,
  );
  for (let start = 0; start < rows.length; start += 250)
    await sql`INSERT INTO invoice_lines (tenant_id, invoice_id, line, product_id, description, quantity, unit_price, discount,
        tax_id, tax_code, tax_kind, tax_rate, gross, tax, net, unit_cost) VALUES ${sql.join(rows.slice(start, start + 250))}`.execute(
      tx.trx,
    );
}

export interface LineRow extends StoredLine {
  product_code: string;
  product_name: string;
  product_unit: string;
  product_barcode: string | null;
}

/** An invoice's lines in order, with their products. */
export async function invoiceLines(tx: TenantTx, invoiceId: string): Promise<LineRow[]> {
  const result = await sql<LineRow>`
    SELECT il.line, il.product_id, il.description, il.quantity::text AS quantity, il.unit_price::text AS unit_price,
           il.discount::text AS discount, il.tax_id, il.tax_code, il.tax_kind, il.tax_rate::text AS tax_rate,
           il.gross::text AS gross, il.tax::text AS tax, il.net::text AS net, il.unit_cost::text AS unit_cost,
           p.code AS product_code, p.name AS product_name, p.unit AS product_unit, p.barcode AS product_barcode
      FROM invoice_lines il
      JOIN products p ON p.tenant_id = il.tenant_id AND p.id = il.product_id
     WHERE il.tenant_id = ${tx.tenantId} AND il.invoice_id = ${invoiceId}
     ORDER BY il.line
     LIMIT 500`.execute(tx.trx);
  return result.rows;
}

export interface InvoiceFilter {
  sdate: string;
  edate?: string;
  status?: 'draft' | 'paid' | 'part_paid' | 'unpaid' | 'overdue';
  kind?: 'invoice' | 'cash_sale';
  customer_id?: string;
  search?: string;
  today: string;
  page: number;
  per_page: number | null;
}

/**
 * Invoices dated from `sdate` (to `edate`), newest first, with what is settled on each; the
 * payment status filter is the shared paymentStatus rule in SQL (balance <= 0 paid; past due
 * overdue; something paid part paid; else unpaid).
 */
export async function listInvoices(tx: TenantTx, filter: InvoiceFilter): Promise<InvoiceRow[]> {
  const conditions = [sql`i.tenant_id = ${tx.tenantId}`, sql`i.issued_on >= ${filter.sdate}::date`];
  if (filter.edate) conditions.push(sql`i.issued_on <= ${filter.edate}::date`);
  if (filter.kind) conditions.push(sql`i.kind = ${filter.kind}`);
  if (filter.customer_id) conditions.push(sql`i.customer_id = ${filter.customer_id}`);
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(i.number ILIKE ${like} OR c.name ILIKE ${like} OR i.buyer_name ILIKE ${like} OR i.reference ILIKE ${like})`);
  }
  const balance = sql`(i.gross_total + s.debited - s.credited - s.paid)`;
  const status = {
    draft: sql`i.status = 'draft'`,
    paid: sql`i.status = 'issued' AND ${balance} <= 0`,
    overdue: sql`i.status = 'issued' AND ${balance} > 0 AND i.due_on < ${filter.today}::date`,
    part_paid: sql`i.status = 'issued' AND ${balance} > 0 AND i.due_on >= ${filter.today}::date AND s.paid > 0`,
    unpaid: sql`i.status = 'issued' AND ${balance} > 0 AND i.due_on >= ${filter.today}::date AND s.paid = 0`,
  };
  if (filter.status) conditions.push(status[filter.status]);
  const paging = filter.per_page === null ? sql`LIMIT 100000` : sql`LIMIT ${filter.per_page} OFFSET ${(filter.page - 1) * filter.per_page}`;
  const result = await sql<InvoiceRow>`
    SELECT ${INVOICE_COLUMNS}, s.paid::text AS paid, s.credited::text AS credited, s.debited::text AS debited,
           count(*) OVER () AS total
      FROM invoices i ${JOINS}
      CROSS JOIN LATERAL (SELECT ${SETTLED}) s
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY i.issued_on DESC, i.number DESC NULLS FIRST, i.created_at DESC, i.id
     ${paging}`.execute(tx.trx);
  return result.rows;
}

/** The receipt a counter sale was paid by. */
export async function counterReceipt(tx: TenantTx, invoiceId: string) {
  return tx.trx
    .selectFrom('receipts')
    .select(['id', 'number', sql<string>`amount::text`.as('amount')])
    .where('tenant_id', '=', tx.tenantId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('created_at')
    .executeTakeFirst();
}
