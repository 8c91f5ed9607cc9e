import type { MemoKind, MemoReason } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';

/*
 * The memos' queries (issue 32 point 3). A memo is inserted once with its lines and never changes
 * afterwards except its fiscal fields (the database freezes it, migration 0028).
 */

/** The memo recorded for a client's request id, if any. */
export async function memoOfRequest(tx: TenantTx, requestId: string): Promise<string | undefined> {
  const row = await tx.trx
    .selectFrom('memos')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row?.id;
}

export interface InvoiceForMemo {
  id: string;
  number: string | null;
  status: 'draft' | 'issued';
  customer_id: string;
  customer_name: string;
  location_id: string;
  issued_on: string;
  currency_code: string;
  currency_decimals: number;
  vat_registered: boolean;
}

/** The invoice a memo is against, with its customer's name, or undefined when not the business's. */
export async function invoiceForMemo(tx: TenantTx, id: string): Promise<InvoiceForMemo | undefined> {
  const result = await sql<InvoiceForMemo>`
    SELECT i.id, i.number, i.status, i.customer_id, c.name AS customer_name, i.location_id, i.issued_on::text AS issued_on,
           i.currency_code, i.currency_decimals, i.vat_registered
      FROM invoices i
      JOIN companies c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
     WHERE i.tenant_id = ${tx.tenantId} AND i.id = ${id}`.execute(tx.trx);
  return result.rows[0];
}

export interface InvoiceLineForMemo {
  line: number;
  product_id: string;
  product_code: string;
  product_name: string;
  track_stock: boolean;
  fractional: boolean;
  description: string | null;
  quantity: string;
  unit_price: string;
  discount: string;
  tax_id: string | null;
  tax_code: string | null;
  tax_kind: 'standard' | 'zero' | 'exempt' | 'deemed' | null;
  tax_rate: string;
  gross: string;
  unit_cost: string;
}

/** An invoice's lines in their order, with their products. */
export async function invoiceLinesForMemo(tx: TenantTx, invoiceId: string): Promise<InvoiceLineForMemo[]> {
  const result = await sql<InvoiceLineForMemo>`
    SELECT l.line, l.product_id, p.code AS product_code, p.name AS product_name, p.track_stock, p.fractional, l.description,
           l.quantity::text AS quantity, l.unit_price::text AS unit_price, l.discount::text AS discount, l.tax_id, l.tax_code,
           l.tax_kind, l.tax_rate::text AS tax_rate, l.gross::text AS gross, l.unit_cost::text AS unit_cost
      FROM invoice_lines l
      JOIN products p ON p.tenant_id = l.tenant_id AND p.id = l.product_id
     WHERE l.tenant_id = ${tx.tenantId} AND l.invoice_id = ${invoiceId}
     ORDER BY l.line`.execute(tx.trx);
  return result.rows;
}

export interface EarlierMemoLine {
  kind: MemoKind;
  invoice_line: number;
  quantity: string;
  unit_price: string;
  gross: string;
}

/** The lines of the memos already against an invoice (read under the invoice's lock). */
export async function earlierMemoLines(tx: TenantTx, invoiceId: string): Promise<EarlierMemoLine[]> {
  const result = await sql<EarlierMemoLine>`
    SELECT m.kind, ml.invoice_line, ml.quantity::text AS quantity, ml.unit_price::text AS unit_price, ml.gross::text AS gross
      FROM memo_lines ml
      JOIN memos m ON m.tenant_id = ml.tenant_id AND m.id = ml.memo_id
     WHERE ml.tenant_id = ${tx.tenantId} AND ml.invoice_id = ${invoiceId}`.execute(tx.trx);
  return result.rows;
}

/** Whether the business has this location. */
export async function locationExists(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx
    .selectFrom('locations')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** A memo row as inserted: money as exact decimal text, days as YYYY-MM-DD. */
export interface NewMemo {
  id: string;
  request_id: string;
  number: string;
  kind: MemoKind;
  invoice_id: string;
  reason_code: MemoReason;
  reason: string;
  restock: boolean;
  location_id: string | null;
  issued_on: string;
  currency_code: string;
  net_total: string;
  tax_total: string;
  gross_total: string;
  stock_movement_id: string | null;
  created_by: string | null;
}

export interface NewMemoLine {
  memo_id: string;
  line: number;
  invoice_line: number;
  invoice_id: string;
  product_id: string;
  description: string | null;
  quantity: string;
  unit_price: string;
  tax_id: string | null;
  tax_code: string | null;
  tax_kind: 'standard' | 'zero' | 'exempt' | 'deemed' | null;
  tax_rate: string;
  gross: string;
  tax: string;
  net: string;
  unit_cost: string;
}

export async function insertMemo(tx: TenantTx, memo: NewMemo, lines: ReadonlyArray<NewMemoLine>): Promise<void> {
  await tx.trx
    .insertInto('memos')
    .values({ ...memo, tenant_id: tx.tenantId })
    .execute();
  for (let start = 0; start < lines.length; start += 250)
    await tx.trx
      .insertInto('memo_lines')
      .values(lines.slice(start, start + 250).map((line) => ({ ...line, tenant_id: tx.tenantId })))
      .execute();
}

export interface MemoFilter {
  id?: string;
  from?: string;
  to?: string;
  kind?: MemoKind;
  invoice_id?: string;
  customer_id?: string;
  search?: string;
  page: number;
  per_page: number | null;
}

export interface MemoRecord {
  id: string;
  number: string;
  kind: MemoKind;
  invoice_id: string;
  invoice_number: string | null;
  customer_id: string;
  customer_name: string;
  reason_code: MemoReason;
  reason: string;
  restock: boolean;
  location_id: string | null;
  location_name: string | null;
  issued_on: string;
  currency_code: string;
  net_total: string;
  tax_total: string;
  gross_total: string;
  fiscal_status: string;
  fiscal_fdn: string | null;
  fiscal_verification_code: string | null;
  fiscal_simulated: boolean;
  created_by_name: string | null;
  created_at: Date | string;
  total: string | number;
}

/** Memos newest first, with their invoice, customer and location. */
export async function memoRecords(tx: TenantTx, filter: MemoFilter): Promise<MemoRecord[]> {
  const conditions = [sql`m.tenant_id = ${tx.tenantId}`];
  if (filter.id) conditions.push(sql`m.id = ${filter.id}`);
  if (filter.from) conditions.push(sql`m.issued_on >= ${filter.from}::date`);
  if (filter.to) conditions.push(sql`m.issued_on <= ${filter.to}::date`);
  if (filter.kind) conditions.push(sql`m.kind = ${filter.kind}`);
  if (filter.invoice_id) conditions.push(sql`m.invoice_id = ${filter.invoice_id}`);
  if (filter.customer_id) conditions.push(sql`i.customer_id = ${filter.customer_id}`);
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(m.number ILIKE ${like} OR i.number ILIKE ${like} OR c.name ILIKE ${like} OR m.reason ILIKE ${like})`);
  }
  const paging = filter.per_page === null ? sql`` : sql`LIMIT ${filter.per_page} OFFSET ${(filter.page - 1) * filter.per_page}`;
  const result = await sql<MemoRecord>`
    SELECT m.id, m.number, m.kind, m.invoice_id, i.number AS invoice_number, i.customer_id, c.name AS customer_name,
           m.reason_code, m.reason, m.restock, m.location_id, l.name AS location_name, m.issued_on::text AS issued_on,
           m.currency_code, m.net_total::text AS net_total, m.tax_total::text AS tax_total, m.gross_total::text AS gross_total,
           m.fiscal_status, m.fiscal_fdn, m.fiscal_verification_code, m.fiscal_simulated, u.name AS created_by_name, m.created_at,
           count(*) OVER () AS total
      FROM memos m
      JOIN invoices i ON i.tenant_id = m.tenant_id AND i.id = m.invoice_id
      JOIN companies c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
      LEFT JOIN locations l ON l.tenant_id = m.tenant_id AND l.id = m.location_id
      LEFT JOIN users u ON u.id = m.created_by
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY m.issued_on DESC, m.created_at DESC, m.id
     ${paging}`.execute(tx.trx);
  return result.rows;
}

export interface MemoLineRecord {
  line: number;
  invoice_line: number;
  product_id: string;
  product_code: string;
  product_name: string;
  description: string | null;
  quantity: string;
  unit_price: string;
  tax_code: string | null;
  tax_kind: 'standard' | 'zero' | 'exempt' | 'deemed' | null;
  tax_rate: string;
  gross: string;
  tax: string;
  net: string;
  unit_cost: string;
}

/** A memo's lines in their order. */
export async function memoLinesOf(tx: TenantTx, memoId: string): Promise<MemoLineRecord[]> {
  const result = await sql<MemoLineRecord>`
    SELECT ml.line, ml.invoice_line, ml.product_id, p.code AS product_code, p.name AS product_name, ml.description,
           ml.quantity::text AS quantity, ml.unit_price::text AS unit_price, ml.tax_code, ml.tax_kind, ml.tax_rate::text AS tax_rate,
           ml.gross::text AS gross, ml.tax::text AS tax, ml.net::text AS net, ml.unit_cost::text AS unit_cost
      FROM memo_lines ml
      JOIN products p ON p.tenant_id = ml.tenant_id AND p.id = ml.product_id
     WHERE ml.tenant_id = ${tx.tenantId} AND ml.memo_id = ${memoId}
     ORDER BY ml.line`.execute(tx.trx);
  return result.rows;
}
