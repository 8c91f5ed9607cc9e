import type { EfrisOutboxQuery, EfrisOutboxRow, EfrisProductRow, EfrisProductsQuery } from '@mustard/shared';
import { type Kysely, sql } from 'kysely';
import type { EfrisMode } from '../../db/efris-types.js';
import type { TenantTx } from '../../db/tenant.js';
import type { DB } from '../../db/types.js';

/*
 * EFRIS's queries (issue 32 point 7): the device, the outbox, the messages kept, the products
 * registered with URA, and the documents the worker turns into URA's JSON. Every query is the
 * transaction's tenant's (row-level security holds it too).
 */

export interface DeviceRow {
  device_no: string;
  tin: string;
  mode: EfrisMode;
  url: string | null;
  credentials_sealed: string | null;
  enabled: boolean;
  updated_at: Date;
}

export async function deviceOf(tx: TenantTx): Promise<DeviceRow | undefined> {
  return tx.trx
    .selectFrom('efris_devices')
    .select(['device_no', 'tin', 'mode', 'url', 'credentials_sealed', 'enabled', 'updated_at'])
    .where('tenant_id', '=', tx.tenantId)
    .executeTakeFirst();
}

export async function saveDevice(
  tx: TenantTx,
  device: { device_no: string; tin: string; mode: EfrisMode; url: string | null; enabled: boolean; credentials_sealed: string | null },
): Promise<void> {
  await tx.trx
    .insertInto('efris_devices')
    .values({ tenant_id: tx.tenantId, ...device, updated_by: tx.userId })
    .onConflict((conflict) => conflict.column('tenant_id').doUpdateSet({ ...device, updated_by: tx.userId, updated_at: sql`now()` }))
    .execute();
}

/** The business's name, TIN, contact and Efris flag: the seller on URA's documents. */
export async function sellerOf(tx: TenantTx) {
  return tx.trx
    .selectFrom('tenants')
    .select(['name', 'tin', 'efrist', 'email', 'phone', 'address'])
    .where('id', '=', tx.tenantId)
    .executeTakeFirstOrThrow();
}

/**
 * Businesses with Efris on, a bounded batch after `after` in id order (a round-robin cursor):
 * what a worker round visits. The tenants table is global; each business's outbox is then read
 * in a transaction bound to it.
 */
export async function efrisTenants(db: Kysely<DB>, after: string | null, limit: number): Promise<string[]> {
  let query = db.selectFrom('tenants').select('id').where('efrist', '=', true).orderBy('id').limit(limit);
  if (after) query = query.where('id', '>', after);
  const rows = await query.execute();
  return rows.map((row) => row.id);
}

// --- Outbox -------------------------------------------------------------------------------

export interface OutboxItem {
  id: string;
  document_kind: 'invoice' | 'credit_memo';
  document_id: string;
  interface_code: 'T109' | 'T110' | 'T111';
  reference: string;
  status: 'pending' | 'sending' | 'done' | 'failed';
  attempts: number;
  last_exchange_id: string | null;
}

/**
 * Claims up to `limit` due rows (pending and due, or 'sending' whose lease ran out) of a business
 * whose device is set up, for this round: marked 'sending' with a lease and the attempt counted, skipping rows another worker
 * holds at this moment (SKIP LOCKED). Committed before URA is called.
 */
export async function claimDue(tx: TenantTx, limit: number, leaseMs: number): Promise<OutboxItem[]> {
  const due = await tx.trx
    .selectFrom('efris_outbox')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('status', 'in', ['pending', 'sending'])
    .where('next_attempt_at', '<=', sql<Date>`now()`)
    // A business whose device is not set up yet keeps its documents pending, untouched (no
    // attempt counted, no backoff to wait out): they go as soon as the device is saved.
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('efris_devices as d')
          .select('d.tenant_id')
          .whereRef('d.tenant_id', '=', 'efris_outbox.tenant_id')
          .where('d.enabled', '=', true)
          .where('d.credentials_sealed', 'is not', null),
      ),
    )
    .orderBy('next_attempt_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (due.length === 0) return [];
  return tx.trx
    .updateTable('efris_outbox')
    .set({
      status: 'sending',
      attempts: sql`attempts + 1`,
      next_attempt_at: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tx.tenantId)
    .where(
      'id',
      'in',
      due.map((row) => row.id),
    )
    .returning(['id', 'document_kind', 'document_id', 'interface_code', 'reference', 'status', 'attempts', 'last_exchange_id'])
    .execute();
}

export async function setExchange(tx: TenantTx, outboxId: string, exchangeId: string): Promise<void> {
  await tx.trx
    .updateTable('efris_outbox')
    .set({ last_exchange_id: exchangeId, updated_at: sql`now()` })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', outboxId)
    .execute();
}

/** Back to pending, due after `delayMs` (a failure's backoff, or the next look at a credit note's approval). */
export async function reschedule(
  tx: TenantTx,
  outboxId: string,
  change: { delayMs: number; error: string | null; interfaceCode?: 'T109' | 'T110' | 'T111'; resetAttempts?: boolean },
): Promise<void> {
  await tx.trx
    .updateTable('efris_outbox')
    .set({
      status: 'pending',
      next_attempt_at: sql`now() + ${`${Math.max(0, Math.round(change.delayMs))} milliseconds`}::interval`,
      last_error: change.error?.slice(0, 1000) ?? null,
      ...(change.interfaceCode ? { interface_code: change.interfaceCode } : {}),
      ...(change.resetAttempts ? { attempts: 0 } : {}),
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', outboxId)
    .execute();
}

export async function finish(tx: TenantTx, outboxId: string, status: 'done' | 'failed', error: string | null): Promise<void> {
  await tx.trx
    .updateTable('efris_outbox')
    .set({ status, last_error: error?.slice(0, 1000) ?? null, done_at: status === 'done' ? sql`now()` : null, updated_at: sql`now()` })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', outboxId)
    .execute();
}

export async function outboxPage(tx: TenantTx, query: EfrisOutboxQuery): Promise<{ rows: EfrisOutboxRow[]; total: number }> {
  let base = tx.trx.selectFrom('efris_outbox as o').where('o.tenant_id', '=', tx.tenantId);
  if (query.status) base = base.where('o.status', '=', query.status);
  const counted = await base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const rows = await base
    .leftJoin('invoices as i', (join) => join.onRef('i.tenant_id', '=', 'o.tenant_id').onRef('i.id', '=', 'o.document_id'))
    .leftJoin('memos as m', (join) => join.onRef('m.tenant_id', '=', 'o.tenant_id').onRef('m.id', '=', 'o.document_id'))
    .select([
      'o.id',
      'o.document_kind',
      'o.document_id',
      'o.reference',
      'o.interface_code',
      'o.status',
      'o.attempts',
      'o.next_attempt_at',
      'o.last_error',
      'o.created_at',
      'o.done_at',
      sql<string>`coalesce(i.fiscal_status, m.fiscal_status, 'none')`.as('fiscal_status'),
      sql<string | null>`coalesce(i.fiscal_fdn, m.fiscal_fdn)`.as('fiscal_fdn'),
      sql<boolean>`coalesce(i.fiscal_simulated, m.fiscal_simulated, false)`.as('fiscal_simulated'),
      sql<string>`(SELECT count(*) FROM efris_messages e WHERE e.tenant_id = o.tenant_id AND e.outbox_id = o.id)`.as('messages'),
    ])
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id')
    .limit(query.per_page)
    .offset((query.page - 1) * query.per_page)
    .execute();
  return { rows: rows.map(outboxAnswer), total: Number(counted.count) };
}

export async function outboxRow(tx: TenantTx, id: string): Promise<EfrisOutboxRow | undefined> {
  const page = await tx.trx
    .selectFrom('efris_outbox as o')
    .leftJoin('invoices as i', (join) => join.onRef('i.tenant_id', '=', 'o.tenant_id').onRef('i.id', '=', 'o.document_id'))
    .leftJoin('memos as m', (join) => join.onRef('m.tenant_id', '=', 'o.tenant_id').onRef('m.id', '=', 'o.document_id'))
    .select([
      'o.id',
      'o.document_kind',
      'o.document_id',
      'o.reference',
      'o.interface_code',
      'o.status',
      'o.attempts',
      'o.next_attempt_at',
      'o.last_error',
      'o.created_at',
      'o.done_at',
      sql<string>`coalesce(i.fiscal_status, m.fiscal_status, 'none')`.as('fiscal_status'),
      sql<string | null>`coalesce(i.fiscal_fdn, m.fiscal_fdn)`.as('fiscal_fdn'),
      sql<boolean>`coalesce(i.fiscal_simulated, m.fiscal_simulated, false)`.as('fiscal_simulated'),
      sql<string>`(SELECT count(*) FROM efris_messages e WHERE e.tenant_id = o.tenant_id AND e.outbox_id = o.id)`.as('messages'),
    ])
    .where('o.tenant_id', '=', tx.tenantId)
    .where('o.id', '=', id)
    .executeTakeFirst();
  return page ? outboxAnswer(page) : undefined;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function outboxAnswer(row: {
  id: string;
  document_kind: 'invoice' | 'credit_memo';
  document_id: string;
  reference: string;
  interface_code: string;
  status: 'pending' | 'sending' | 'done' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  done_at: Date | null;
  fiscal_status: string;
  fiscal_fdn: string | null;
  fiscal_simulated: boolean;
  messages: string | number;
}): EfrisOutboxRow {
  return {
    ...row,
    next_attempt_at: iso(row.next_attempt_at) as string,
    created_at: iso(row.created_at) as string,
    done_at: iso(row.done_at),
    messages: Number(row.messages),
  };
}

/** A failed or waiting row due again now, its attempts counted afresh; false when there is none such. */
export async function retryNow(tx: TenantTx, id: string): Promise<'retried' | 'not_found' | 'not_retryable'> {
  const row = await tx.trx
    .selectFrom('efris_outbox')
    .select('status')
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return 'not_found';
  if (row.status !== 'failed' && row.status !== 'pending') return 'not_retryable';
  await tx.trx
    .updateTable('efris_outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: sql`now()`, updated_at: sql`now()` })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .execute();
  return 'retried';
}

// --- Messages -----------------------------------------------------------------------------

export async function keepMessage(
  tx: TenantTx,
  message: {
    id: string;
    outbox_id: string | null;
    interface_code: string;
    exchange_id: string;
    direction: 'request' | 'answer' | 'failure';
    return_code: string | null;
    return_message: string | null;
    envelope: unknown;
    content: unknown;
  },
): Promise<void> {
  await tx.trx
    .insertInto('efris_messages')
    .values({
      tenant_id: tx.tenantId,
      ...message,
      return_message: message.return_message?.slice(0, 1000) ?? null,
      envelope: message.envelope === undefined || message.envelope === null ? null : JSON.stringify(message.envelope),
      content: message.content === undefined || message.content === null ? null : JSON.stringify(message.content),
    })
    .execute();
}

/** Whether an answer (of any code) to this exchange was kept: none means URA may or may not have it. */
export async function answerKept(tx: TenantTx, exchangeId: string): Promise<boolean> {
  const row = await tx.trx
    .selectFrom('efris_messages')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('exchange_id', '=', exchangeId)
    .where('direction', '=', 'answer')
    .executeTakeFirst();
  return row !== undefined;
}

// --- Documents ----------------------------------------------------------------------------

export async function invoiceForFiscal(tx: TenantTx, id: string) {
  const invoice = await tx.trx
    .selectFrom('invoices as i')
    .innerJoin('companies as c', (join) => join.onRef('c.tenant_id', '=', 'i.tenant_id').onRef('c.id', '=', 'i.customer_id'))
    .select([
      'i.id',
      'i.kind',
      'i.status',
      'i.number',
      'i.currency_code',
      'i.issued_on',
      'i.issued_at',
      'i.buyer_name',
      'i.buyer_phone',
      'i.gross_total',
      'i.tax_total',
      'i.net_total',
      'i.fiscal_status',
      'i.fiscal_fdn',
      'c.name as customer_name',
      'c.tin as customer_tin',
      'c.buyer_type',
      'c.phone as customer_phone',
      'c.email as customer_email',
      'c.address as customer_address',
    ])
    .where('i.tenant_id', '=', tx.tenantId)
    .where('i.id', '=', id)
    .executeTakeFirst();
  if (!invoice) return undefined;
  const lines = await tx.trx
    .selectFrom('invoice_lines as l')
    .innerJoin('products as p', (join) => join.onRef('p.tenant_id', '=', 'l.tenant_id').onRef('p.id', '=', 'l.product_id'))
    .select([
      'l.line',
      'l.product_id',
      'l.description',
      'l.quantity',
      'l.unit_price',
      'l.discount',
      'l.tax_code',
      'l.tax_kind',
      'l.tax_rate',
      'l.gross',
      'l.tax',
      'l.net',
      'p.code',
      'p.name',
      'p.unit',
      'p.kind as product_kind',
    ])
    .where('l.tenant_id', '=', tx.tenantId)
    .where('l.invoice_id', '=', id)
    .orderBy('l.line')
    .execute();
  const payments = await tx.trx
    .selectFrom('receipt_allocations as a')
    .innerJoin('receipts as r', (join) => join.onRef('r.tenant_id', '=', 'a.tenant_id').onRef('r.id', '=', 'a.receipt_id'))
    .select(['r.method', 'a.amount'])
    .where('a.tenant_id', '=', tx.tenantId)
    .where('a.invoice_id', '=', id)
    .orderBy('a.created_at')
    .limit(100)
    .execute();
  // Numeric columns as exact decimal text, whatever the driver answers.
  return {
    invoice: {
      ...invoice,
      gross_total: String(invoice.gross_total),
      tax_total: String(invoice.tax_total),
      net_total: String(invoice.net_total),
      issued_at: invoice.issued_at as unknown as Date | null,
    },
    lines: lines.map((line) => ({
      ...line,
      quantity: String(line.quantity),
      unit_price: String(line.unit_price),
      discount: String(line.discount),
      tax_rate: String(line.tax_rate),
      gross: String(line.gross),
      tax: String(line.tax),
      net: String(line.net),
    })),
    payments: payments.map((payment) => ({ method: payment.method, amount: String(payment.amount) })),
  };
}
export type FiscalInvoice = NonNullable<Awaited<ReturnType<typeof invoiceForFiscal>>>;

export async function memoForFiscal(tx: TenantTx, id: string) {
  const memo = await tx.trx
    .selectFrom('memos as m')
    .innerJoin('invoices as i', (join) => join.onRef('i.tenant_id', '=', 'm.tenant_id').onRef('i.id', '=', 'm.invoice_id'))
    .select([
      'm.id',
      'm.kind',
      'm.number',
      'm.reason_code',
      'm.reason',
      'm.currency_code',
      'm.gross_total',
      'm.tax_total',
      'm.net_total',
      'm.fiscal_status',
      'm.fiscal_reference',
      'm.created_at',
      'i.id as invoice_id',
      'i.number as invoice_number',
      'i.fiscal_status as invoice_fiscal_status',
      'i.fiscal_fdn as invoice_fdn',
      'i.fiscal_invoice_id as invoice_fiscal_id',
    ])
    .where('m.tenant_id', '=', tx.tenantId)
    .where('m.id', '=', id)
    .executeTakeFirst();
  if (!memo) return undefined;
  const lines = await tx.trx
    .selectFrom('memo_lines as l')
    .innerJoin('products as p', (join) => join.onRef('p.tenant_id', '=', 'l.tenant_id').onRef('p.id', '=', 'l.product_id'))
    .select([
      'l.line',
      'l.product_id',
      'l.quantity',
      'l.unit_price',
      'l.tax_code',
      'l.tax_kind',
      'l.tax_rate',
      'l.gross',
      'l.tax',
      'p.code',
      'p.name',
      'p.unit',
    ])
    .where('l.tenant_id', '=', tx.tenantId)
    .where('l.memo_id', '=', id)
    .orderBy('l.line')
    .execute();
  return {
    memo: {
      ...memo,
      gross_total: String(memo.gross_total),
      tax_total: String(memo.tax_total),
      net_total: String(memo.net_total),
      created_at: memo.created_at as unknown as Date,
    },
    lines: lines.map((line) => ({
      ...line,
      quantity: String(line.quantity),
      unit_price: String(line.unit_price),
      tax_rate: String(line.tax_rate),
      gross: String(line.gross),
      tax: String(line.tax),
    })),
  };
}
export type FiscalMemo = NonNullable<Awaited<ReturnType<typeof memoForFiscal>>>;

export async function markInvoiceFiscalised(
  tx: TenantTx,
  id: string,
  fiscal: { fdn: string; verification_code: string; qr_code: string; invoice_id: string; simulated: boolean },
): Promise<void> {
  await tx.trx
    .updateTable('invoices')
    .set({
      fiscal_status: 'fiscalised',
      fiscal_fdn: fiscal.fdn.slice(0, 40),
      fiscal_verification_code: fiscal.verification_code.slice(0, 80),
      fiscal_qr_code: fiscal.qr_code.slice(0, 2000),
      fiscal_invoice_id: fiscal.invoice_id.slice(0, 40),
      fiscal_at: sql`now()`,
      fiscal_simulated: fiscal.simulated,
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .execute();
}

export async function setInvoiceFiscalStatus(tx: TenantTx, id: string, status: 'pending' | 'failed'): Promise<void> {
  await tx.trx
    .updateTable('invoices')
    .set({ fiscal_status: status, updated_at: sql`now()` })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .where('fiscal_status', '<>', 'fiscalised')
    .execute();
}

export async function updateMemoFiscal(
  tx: TenantTx,
  id: string,
  change: {
    status: 'pending' | 'submitted' | 'approved' | 'rejected' | 'failed';
    reference?: string;
    fdn?: string;
    verification_code?: string;
    qr_code?: string;
    simulated?: boolean;
  },
): Promise<void> {
  await tx.trx
    .updateTable('memos')
    .set({
      fiscal_status: change.status,
      ...(change.reference !== undefined ? { fiscal_reference: change.reference.slice(0, 40) } : {}),
      ...(change.fdn ? { fiscal_fdn: change.fdn.slice(0, 40), fiscal_at: sql`now()` } : {}),
      ...(change.verification_code ? { fiscal_verification_code: change.verification_code.slice(0, 80) } : {}),
      ...(change.qr_code ? { fiscal_qr_code: change.qr_code.slice(0, 2000) } : {}),
      ...(change.simulated !== undefined ? { fiscal_simulated: change.simulated } : {}),
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .execute();
}

// --- Products -----------------------------------------------------------------------------

export interface EfrisProductState {
  product_id: string;
  code: string;
  name: string;
  kind: string;
  unit: string;
  price: string;
  goods_code: string | null;
  registered_at: Date | null;
  stocked_quantity: string;
  on_hand: string;
  track_stock: boolean;
}

/** The business's products among `ids` with their state with URA (another business's are not found). */
export async function productStates(tx: TenantTx, ids: ReadonlyArray<string>): Promise<EfrisProductState[]> {
  if (ids.length === 0) return [];
  const rows = await tx.trx
    .selectFrom('products as p')
    .leftJoin('efris_products as e', (join) => join.onRef('e.tenant_id', '=', 'p.tenant_id').onRef('e.product_id', '=', 'p.id'))
    .select([
      'p.id as product_id',
      'p.code',
      'p.name',
      'p.kind',
      'p.unit',
      'p.price',
      'p.track_stock',
      'e.goods_code',
      'e.registered_at',
      sql<string>`coalesce(e.stocked_quantity, 0)::text`.as('stocked_quantity'),
      sql<string>`coalesce((SELECT sum(s.on_hand) FROM stock_levels s WHERE s.tenant_id = p.tenant_id AND s.product_id = p.id), 0)::text`.as(
        'on_hand',
      ),
    ])
    .where('p.tenant_id', '=', tx.tenantId)
    .where('p.id', 'in', [...ids])
    .orderBy('p.code')
    .execute();
  return rows.map((row) => ({ ...row, price: String(row.price), registered_at: row.registered_at as unknown as Date | null }));
}

export async function productPage(tx: TenantTx, query: EfrisProductsQuery): Promise<{ rows: EfrisProductRow[]; total: number }> {
  let base = tx.trx
    .selectFrom('products as p')
    .leftJoin('efris_products as e', (join) => join.onRef('e.tenant_id', '=', 'p.tenant_id').onRef('e.product_id', '=', 'p.id'))
    .where('p.tenant_id', '=', tx.tenantId)
    .where('p.active', '=', true);
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
    base = base.where((eb) => eb.or([eb('p.code', 'ilike', like), eb('p.name', 'ilike', like)]));
  }
  if (query.registered === 'yes') base = base.where('e.registered_at', 'is not', null);
  if (query.registered === 'no') base = base.where('e.registered_at', 'is', null);
  const counted = await base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const rows = await base
    .select([
      'p.id as product_id',
      'p.code',
      'p.name',
      'p.kind',
      'e.goods_code',
      'e.registered_at',
      'e.last_error',
      sql<string>`coalesce(e.stocked_quantity, 0)::text`.as('stocked_quantity'),
      sql<string>`coalesce((SELECT sum(s.on_hand) FROM stock_levels s WHERE s.tenant_id = p.tenant_id AND s.product_id = p.id), 0)::text`.as(
        'on_hand',
      ),
    ])
    .orderBy('p.code')
    .limit(query.per_page)
    .offset((query.page - 1) * query.per_page)
    .execute();
  return {
    rows: rows.map((row) => ({ ...row, registered_at: iso(row.registered_at), last_error: row.last_error ?? null })),
    total: Number(counted.count),
  };
}

export async function productRows(tx: TenantTx, ids: ReadonlyArray<string>): Promise<EfrisProductRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx.trx
    .selectFrom('products as p')
    .leftJoin('efris_products as e', (join) => join.onRef('e.tenant_id', '=', 'p.tenant_id').onRef('e.product_id', '=', 'p.id'))
    .select([
      'p.id as product_id',
      'p.code',
      'p.name',
      'p.kind',
      'e.goods_code',
      'e.registered_at',
      'e.last_error',
      sql<string>`coalesce(e.stocked_quantity, 0)::text`.as('stocked_quantity'),
      sql<string>`coalesce((SELECT sum(s.on_hand) FROM stock_levels s WHERE s.tenant_id = p.tenant_id AND s.product_id = p.id), 0)::text`.as(
        'on_hand',
      ),
    ])
    .where('p.tenant_id', '=', tx.tenantId)
    .where('p.id', 'in', [...ids])
    .orderBy('p.code')
    .execute();
  return rows.map((row) => ({ ...row, registered_at: iso(row.registered_at), last_error: row.last_error ?? null }));
}

export async function markRegistered(
  tx: TenantTx,
  productId: string,
  goods: { goods_code: string; commodity_code: string; measure_unit: string } | null,
  error: string | null,
): Promise<void> {
  if (goods) {
    await tx.trx
      .insertInto('efris_products')
      .values({ tenant_id: tx.tenantId, product_id: productId, ...goods, registered_at: sql`now()`, last_error: null })
      .onConflict((conflict) =>
        conflict
          .columns(['tenant_id', 'product_id'])
          .doUpdateSet({ ...goods, registered_at: sql`now()`, last_error: null, updated_at: sql`now()` }),
      )
      .execute();
    return;
  }
  await tx.trx
    .updateTable('efris_products')
    .set({ last_error: error?.slice(0, 1000) ?? null, updated_at: sql`now()` })
    .where('tenant_id', '=', tx.tenantId)
    .where('product_id', '=', productId)
    .execute();
}

/** Registration failed before any row existed: the error is kept on a row without registered_at. */
export async function keepRegistrationError(
  tx: TenantTx,
  productId: string,
  goods: { goods_code: string; commodity_code: string; measure_unit: string },
  error: string,
): Promise<void> {
  await tx.trx
    .insertInto('efris_products')
    .values({ tenant_id: tx.tenantId, product_id: productId, ...goods, last_error: error.slice(0, 1000) })
    .onConflict((conflict) =>
      conflict.columns(['tenant_id', 'product_id']).doUpdateSet({ last_error: error.slice(0, 1000), updated_at: sql`now()` }),
    )
    .execute();
}

/** URA's stock of the product as Mustard knows it: more after a stock-in (T131), less after a fiscalised sale. */
export async function addStocked(tx: TenantTx, productId: string, quantity: string): Promise<void> {
  await tx.trx
    .updateTable('efris_products')
    .set({
      stocked_quantity: sql`greatest(stocked_quantity + ${quantity}::numeric, 0)`,
      stocked_at: sql`now()`,
      last_error: null,
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tx.tenantId)
    .where('product_id', '=', productId)
    .execute();
}
