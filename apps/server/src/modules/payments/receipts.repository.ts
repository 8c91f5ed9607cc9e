import type { PaymentMethod } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';

/*
 * The receipts' queries (issue 32 point 2). `receipts` and `receipt_allocations` are append-only
 * (the app role may not update or delete them): a receipt is inserted once with its first
 * allocations, and an advance applied later is new allocation rows.
 */

/** The receipt recorded for a client's request id, if any. */
export async function receiptOfRequest(tx: TenantTx, requestId: string): Promise<string | undefined> {
  const row = await tx.trx
    .selectFrom('receipts')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row?.id;
}

/** A partner of the business and its role, or undefined. */
export async function partnerOf(tx: TenantTx, id: string) {
  return tx.trx
    .selectFrom('companies')
    .select(['id', 'name', 'role'])
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** An account of the business with its kind, or undefined. */
export async function accountOf(tx: TenantTx, id: string) {
  return tx.trx
    .selectFrom('accounts')
    .select(['id', 'subtype', 'active'])
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A withholding duty of the business, or undefined. */
export async function whdutyOf(tx: TenantTx, id: string) {
  return tx.trx.selectFrom('whduties').select(['id']).where('tenant_id', '=', tx.tenantId).where('id', '=', id).executeTakeFirst();
}

/** The business's default currency (code and decimals), or undefined while it has none. */
export async function defaultCurrency(tx: TenantTx) {
  return tx.trx
    .selectFrom('currencies')
    .select(['code', 'decimals'])
    .where('tenant_id', '=', tx.tenantId)
    .where('is_default', '=', true)
    .executeTakeFirst();
}

/** The decimals of one of the business's currencies, or undefined. */
export async function currencyDecimals(tx: TenantTx, code: string): Promise<number | undefined> {
  const row = await tx.trx
    .selectFrom('currencies')
    .select('decimals')
    .where('tenant_id', '=', tx.tenantId)
    .where('code', '=', code)
    .executeTakeFirst();
  return row?.decimals;
}

/** A receipt row as inserted: money as exact decimal text, days as YYYY-MM-DD. */
export interface NewReceipt {
  id: string;
  request_id: string;
  number: string;
  customer_id: string;
  received_on: string;
  method: PaymentMethod;
  reference: string | null;
  account_id: string;
  currency_code: string;
  amount: string;
  wht_amount: string;
  whduty_id: string | null;
  wht_certificate: string | null;
  invoice_id: string | null;
  notes: string | null;
  created_by: string | null;
}

export interface NewAllocation {
  id: string;
  receipt_id: string;
  invoice_id: string;
  amount: string;
  allocated_on: string;
  created_by: string | null;
}

export async function insertReceipt(tx: TenantTx, receipt: NewReceipt): Promise<void> {
  await tx.trx
    .insertInto('receipts')
    .values({ ...receipt, tenant_id: tx.tenantId })
    .execute();
}

export async function insertAllocations(tx: TenantTx, allocations: ReadonlyArray<NewAllocation>): Promise<void> {
  if (allocations.length === 0) return;
  await tx.trx
    .insertInto('receipt_allocations')
    .values(allocations.map((allocation) => ({ ...allocation, tenant_id: tx.tenantId })))
    .execute();
}

export interface ReceiptFilter {
  id?: string;
  from?: string;
  to?: string;
  method?: PaymentMethod;
  customer_id?: string;
  open?: boolean;
  search?: string;
  page: number;
  per_page: number | null;
}

export interface ReceiptRecord {
  id: string;
  number: string;
  customer_id: string;
  customer_name: string;
  received_on: string;
  method: PaymentMethod;
  reference: string | null;
  account_id: string;
  account_code: string;
  account_name: string;
  currency_code: string;
  amount: string;
  wht_amount: string;
  allocated: string;
  whduty_id: string | null;
  whduty_code: string | null;
  whduty_name: string | null;
  wht_certificate: string | null;
  invoice_id: string | null;
  notes: string | null;
  created_by_name: string | null;
  created_at: Date | string;
  total: string | number;
  total_amount: string;
  total_wht: string;
}

/**
 * Receipts with what is allocated of each (all allocations, now and later), newest first, and
 * the sums of amount and tax withheld over every receipt the filter selects.
 */
export async function receiptRecords(tx: TenantTx, filter: ReceiptFilter): Promise<ReceiptRecord[]> {
  const conditions = [sql`r.tenant_id = ${tx.tenantId}`];
  if (filter.id) conditions.push(sql`r.id = ${filter.id}`);
  if (filter.from) conditions.push(sql`r.received_on >= ${filter.from}::date`);
  if (filter.to) conditions.push(sql`r.received_on <= ${filter.to}::date`);
  if (filter.method) conditions.push(sql`r.method = ${filter.method}`);
  if (filter.customer_id) conditions.push(sql`r.customer_id = ${filter.customer_id}`);
  if (filter.open) conditions.push(sql`r.amount + r.wht_amount > coalesce(a.allocated, 0)`);
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(r.number ILIKE ${like} OR r.reference ILIKE ${like} OR c.name ILIKE ${like})`);
  }
  const paging = filter.per_page === null ? sql`` : sql`LIMIT ${filter.per_page} OFFSET ${(filter.page - 1) * filter.per_page}`;
  const result = await sql<ReceiptRecord>`
    SELECT r.id, r.number, r.customer_id, c.name AS customer_name, r.received_on::text AS received_on, r.method, r.reference,
           r.account_id, ac.code AS account_code, ac.name AS account_name, r.currency_code,
           r.amount::text AS amount, r.wht_amount::text AS wht_amount, coalesce(a.allocated, 0)::text AS allocated,
           r.whduty_id, w.code AS whduty_code, w.name AS whduty_name, r.wht_certificate, r.invoice_id, r.notes,
           u.name AS created_by_name, r.created_at,
           count(*) OVER () AS total,
           (sum(r.amount) OVER ())::text AS total_amount,
           (sum(r.wht_amount) OVER ())::text AS total_wht
      FROM receipts r
      JOIN companies c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
      JOIN accounts ac ON ac.tenant_id = r.tenant_id AND ac.id = r.account_id
      LEFT JOIN whduties w ON w.tenant_id = r.tenant_id AND w.id = r.whduty_id
      LEFT JOIN (
        SELECT ra.tenant_id, ra.receipt_id, sum(ra.amount) AS allocated
          FROM receipt_allocations ra
         WHERE ra.tenant_id = ${tx.tenantId}
         GROUP BY ra.tenant_id, ra.receipt_id
      ) a ON a.tenant_id = r.tenant_id AND a.receipt_id = r.id
      LEFT JOIN users u ON u.id = r.created_by
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY r.received_on DESC, r.created_at DESC, r.id
     ${paging}`.execute(tx.trx);
  return result.rows;
}

export interface AllocationRecord {
  id: string;
  invoice_id: string;
  invoice_number: string | null;
  amount: string;
  allocated_on: string;
}

/** A receipt's allocations in the order they were made. */
export async function allocationsOf(tx: TenantTx, receiptId: string): Promise<AllocationRecord[]> {
  const result = await sql<AllocationRecord>`
    SELECT ra.id, ra.invoice_id, i.number AS invoice_number, ra.amount::text AS amount, ra.allocated_on::text AS allocated_on
      FROM receipt_allocations ra
      JOIN invoices i ON i.tenant_id = ra.tenant_id AND i.id = ra.invoice_id
     WHERE ra.tenant_id = ${tx.tenantId} AND ra.receipt_id = ${receiptId}
     ORDER BY ra.created_at, ra.id`.execute(tx.trx);
  return result.rows;
}

/** Whether the business has this invoice (any status). */
export async function invoiceExists(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx.selectFrom('invoices').select('id').where('tenant_id', '=', tx.tenantId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** The customer's issued invoices, oldest first, at most 10000 (their balances are the sales module's to work out). */
export async function issuedInvoicesOf(tx: TenantTx, customerId: string) {
  return tx.trx
    .selectFrom('invoices')
    .select(['id', 'number', sql<string>`issued_on::text`.as('issued_on'), sql<string>`due_on::text`.as('due_on')])
    .where('tenant_id', '=', tx.tenantId)
    .where('customer_id', '=', customerId)
    .where('status', '=', 'issued')
    .orderBy('issued_on')
    .orderBy('number')
    .limit(10000)
    .execute();
}
