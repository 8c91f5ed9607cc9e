import { Decimal, type Voucher, type VoucherSummary } from '@mustard/shared';
import { type Insertable, sql } from 'kysely';
import type { VoucherLinesTable, VouchersTable } from '../../db/sales-types.js';
import type { TenantTx } from '../../db/tenant.js';

/*
 * Payment vouchers' queries (issue 32 point 4). A voucher's row moves draft -> approved -> paid
 * under its row lock (`lockVoucher`); the database refuses any other change once approved.
 */

const exact = (value: unknown) => new Decimal(value === null || value === undefined ? '0' : String(value)).toFixed();
const day = (value: unknown) => (value === null || value === undefined ? null : String(value));
const stamp = (value: unknown) =>
  value instanceof Date ? value.toISOString() : value === null || value === undefined ? null : String(value);
const person = (id: string | null, name: string | null) => (id === null || name === null ? null : { id, name });

function summaryQuery(tx: TenantTx) {
  return tx.trx
    .selectFrom('vouchers as v')
    .innerJoin('accounts as a', (join) => join.onRef('a.tenant_id', '=', 'v.tenant_id').onRef('a.id', '=', 'v.account_id'))
    .leftJoin('users as prep', 'prep.id', 'v.prepared_by')
    .leftJoin('users as appr', 'appr.id', 'v.approved_by')
    .leftJoin('users as payer', 'payer.id', 'v.paid_by')
    .where('v.tenant_id', '=', tx.tenantId);
}

type SummaryQuery = ReturnType<typeof summaryQuery>;

const summaryColumns = (query: SummaryQuery) =>
  query.select([
    'v.id',
    'v.number',
    'v.status',
    'v.payee_id',
    'v.payee_name',
    'v.method',
    'v.account_id',
    'a.code as account_code',
    'a.name as account_name',
    sql<string>`v.voucher_on::text`.as('voucher_on'),
    'v.currency_code',
    'v.gross_total',
    'v.tax_total',
    'v.wht_amount',
    'v.net_paid',
    'v.prepared_by',
    'prep.name as prepared_by_name',
    'v.approved_by',
    'appr.name as approved_by_name',
    'v.paid_by',
    'payer.name as paid_by_name',
    sql<string | null>`v.paid_on::text`.as('paid_on'),
  ]);

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryColumns>['execute']>>[number];

function toSummary(row: SummaryRow): VoucherSummary {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    payee_id: row.payee_id,
    payee_name: row.payee_name,
    method: row.method,
    account_id: row.account_id,
    account: { code: row.account_code, name: row.account_name },
    voucher_on: String(row.voucher_on),
    currency_code: row.currency_code,
    gross_total: exact(row.gross_total),
    tax_total: exact(row.tax_total),
    wht_amount: exact(row.wht_amount),
    net_paid: exact(row.net_paid),
    prepared_by: person(row.prepared_by, row.prepared_by_name),
    approved_by: person(row.approved_by, row.approved_by_name),
    paid_by: person(row.paid_by, row.paid_by_name),
    paid_on: day(row.paid_on),
  };
}

export interface VoucherFilters {
  status?: VoucherSummary['status'];
  from?: string;
  to?: string;
  search?: string;
  page: number;
  per_page: number;
}

/** The business's vouchers, newest first, filtered and paged, with the count of all that match. */
export async function listVouchers(tx: TenantTx, filters: VoucherFilters): Promise<{ rows: VoucherSummary[]; total: number }> {
  const pattern = filters.search ? `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const filtered = (query: SummaryQuery) =>
    query
      .$if(Boolean(filters.status), (q) => q.where('v.status', '=', filters.status as VoucherSummary['status']))
      .$if(Boolean(filters.from), (q) => q.where('v.voucher_on', '>=', filters.from as string))
      .$if(Boolean(filters.to), (q) => q.where('v.voucher_on', '<=', filters.to as string))
      .$if(pattern !== null, (q) =>
        q.where((eb) =>
          eb.or([
            eb('v.payee_name', 'ilike', pattern as string),
            eb('v.number', 'ilike', pattern as string),
            eb('v.reference', 'ilike', pattern as string),
          ]),
        ),
      );
  const total = Number(
    (
      await filtered(summaryQuery(tx))
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = await summaryColumns(filtered(summaryQuery(tx)))
    .orderBy('v.voucher_on', 'desc')
    .orderBy('v.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(filters.per_page)
    .offset((filters.page - 1) * filters.per_page)
    .execute();
  return { rows: rows.map(toSummary), total };
}

/** One voucher with its lines, or undefined (another business's is not found). */
export async function findVoucher(tx: TenantTx, id: string): Promise<Voucher | undefined> {
  const row = await summaryColumns(summaryQuery(tx))
    .leftJoin('whduties as w', (join) => join.onRef('w.tenant_id', '=', 'v.tenant_id').onRef('w.id', '=', 'v.whduty_id'))
    .select([
      'v.request_id',
      'v.reference',
      'v.whduty_id',
      'w.name as whduty_name',
      'v.wht_certificate',
      'v.notes',
      'v.approved_at',
      'v.paid_at',
      'v.payment_reference',
    ])
    .where('v.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const lines = await tx.trx
    .selectFrom('voucher_lines as l')
    .innerJoin('accounts as a', (join) => join.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'))
    .select(['l.line', 'l.account_id', 'a.code', 'a.name', 'l.description', 'l.amount', 'l.tax'])
    .where('l.tenant_id', '=', tx.tenantId)
    .where('l.voucher_id', '=', id)
    .orderBy('l.line')
    .execute();
  return {
    ...toSummary(row),
    request_id: row.request_id,
    reference: row.reference,
    whduty_id: row.whduty_id,
    whduty: row.whduty_name === null ? null : { name: row.whduty_name },
    wht_certificate: row.wht_certificate,
    notes: row.notes,
    approved_at: stamp(row.approved_at),
    paid_at: stamp(row.paid_at),
    payment_reference: row.payment_reference,
    lines: lines.map((line) => ({
      line: line.line,
      account_id: line.account_id,
      account: { code: line.code, name: line.name },
      description: line.description,
      amount: exact(line.amount),
      tax: exact(line.tax),
    })),
  };
}

/** The voucher's id made with this request id, if any. */
export async function voucherOfRequest(tx: TenantTx, requestId: string): Promise<string | undefined> {
  const row = await tx.trx
    .selectFrom('vouchers')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row?.id;
}

/** Locks the voucher's row to the end of the transaction and answers its state (undefined: not the business's). */
export async function lockVoucher(tx: TenantTx, id: string) {
  return tx.trx
    .selectFrom('vouchers')
    .select(['id', 'status', 'number', 'prepared_by', 'approved_by', 'payee_id', 'payee_name', 'account_id', 'wht_amount'])
    .select(sql<string>`voucher_on::text`.as('voucher_on'))
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export type NewVoucher = Omit<Insertable<VouchersTable>, 'tenant_id'>;
export type NewVoucherLine = Omit<Insertable<VoucherLinesTable>, 'tenant_id' | 'voucher_id'>;

/** Inserts a draft; false when its request id was taken meanwhile (nothing written). */
export async function insertVoucher(tx: TenantTx, voucher: NewVoucher): Promise<boolean> {
  const inserted = await tx.trx
    .insertInto('vouchers')
    .values({ ...voucher, tenant_id: tx.tenantId })
    .onConflict((oc) => oc.columns(['tenant_id', 'request_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Replaces a draft's fields (the caller holds its lock and checked it is a draft). */
export async function updateDraft(tx: TenantTx, id: string, voucher: Omit<NewVoucher, 'id' | 'request_id' | 'prepared_by'>): Promise<void> {
  await tx.trx
    .updateTable('vouchers')
    .set({ ...voucher, updated_at: sql`now()` })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .execute();
}

/** Replaces a draft's lines. */
export async function replaceLines(tx: TenantTx, id: string, lines: ReadonlyArray<NewVoucherLine>): Promise<void> {
  await tx.trx.deleteFrom('voucher_lines').where('tenant_id', '=', tx.tenantId).where('voucher_id', '=', id).execute();
  if (lines.length === 0) return;
  await tx.trx
    .insertInto('voucher_lines')
    .values(lines.map((line) => ({ ...line, tenant_id: tx.tenantId, voucher_id: id })))
    .execute();
}

export async function deleteDraft(tx: TenantTx, id: string): Promise<void> {
  await tx.trx.deleteFrom('vouchers').where('tenant_id', '=', tx.tenantId).where('id', '=', id).execute();
}

export async function markApproved(tx: TenantTx, id: string, number: string, userId: string): Promise<void> {
  await tx.trx
    .updateTable('vouchers')
    .set({ status: 'approved', number, approved_by: userId, approved_at: sql`now()`, updated_at: sql`now()` })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .execute();
}

export async function markPaid(tx: TenantTx, id: string, paid: { paid_on: string; payment_reference: string | null; userId: string }) {
  await tx.trx
    .updateTable('vouchers')
    .set({
      status: 'paid',
      paid_on: paid.paid_on,
      payment_reference: paid.payment_reference,
      paid_by: paid.userId,
      paid_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .execute();
}

/** The lines of a voucher as posted. */
export async function voucherLines(tx: TenantTx, id: string) {
  return tx.trx
    .selectFrom('voucher_lines')
    .select(['account_id', 'amount', 'tax'])
    .where('tenant_id', '=', tx.tenantId)
    .where('voucher_id', '=', id)
    .orderBy('line')
    .execute();
}

/**
 * How many members of the business may approve and pay vouchers (a superadmin, or a role with
 * `manage` on vouchers or on everything): with more than one, approving and paying are each
 * someone else's than the step before.
 */
export async function approverCount(tx: TenantTx): Promise<number> {
  const row = await tx.trx
    .selectFrom('memberships as m')
    .innerJoin('membership_roles as mr', (join) => join.onRef('mr.tenant_id', '=', 'm.tenant_id').onRef('mr.membership_id', '=', 'm.id'))
    .innerJoin('roles as r', (join) => join.onRef('r.tenant_id', '=', 'mr.tenant_id').onRef('r.id', '=', 'mr.role_id'))
    .select(sql<string>`count(DISTINCT m.user_id)`.as('n'))
    .where('m.tenant_id', '=', tx.tenantId)
    .where((eb) =>
      eb.or([
        eb(sql`lower(r.name)`, '=', 'superadmin'),
        eb.exists(
          eb
            .selectFrom('role_permissions as p')
            .select('p.id')
            .whereRef('p.tenant_id', '=', 'r.tenant_id')
            .whereRef('p.role_id', '=', 'r.id')
            .where('p.action', '=', 'manage')
            .where('p.subject_class', 'in', ['voucher', 'all']),
        ),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The decimals and code of the business's default currency (UGX, 0 decimals, while it has none). */
export async function defaultCurrency(tx: TenantTx): Promise<{ code: string; decimals: number }> {
  const row = await tx.trx
    .selectFrom('currencies')
    .select(['code', 'decimals'])
    .where('tenant_id', '=', tx.tenantId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  return row ?? { code: 'UGX', decimals: 0 };
}

export async function partnerName(tx: TenantTx, id: string): Promise<string | undefined> {
  const row = await tx.trx
    .selectFrom('companies')
    .select('name')
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.name;
}

export async function whduty(tx: TenantTx, id: string) {
  return tx.trx
    .selectFrom('whduties')
    .select(['id', 'rate', 'threshold', 'active'])
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}
