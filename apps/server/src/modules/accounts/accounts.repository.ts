import type { PostingKey } from '@mustard/shared';
import { sql } from 'kysely';
import type { JournalSourceKind as JournalSource } from '../../db/sales-types.js';
import type { TenantTx } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { seedChartOfAccounts } from './chart.js';

/*
 * The chart of accounts' queries. The postings find their accounts by `system_key` (the
 * PostingKey), never by code or name: a business may renumber and rename its accounts.
 */

/** The business's accounts with these system keys, by key (a key without its account is absent). */
async function accountsWithKeys(tx: TenantTx, keys: ReadonlyArray<string>): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.trx
    .selectFrom('accounts')
    .select(['id', 'system_key'])
    .where('tenant_id', '=', tx.tenantId)
    .where('system_key', 'in', [...keys])
    .execute();
  return new Map(rows.map((row) => [row.system_key as string, row.id]));
}

/**
 * The ids of the accounts with these system keys. A business made before the chart existed has
 * none: its chart is seeded here, in the caller's transaction, on first use. A key still without
 * its account is a bug (system accounts cannot be deleted), not the user's input: a 500.
 */
export async function accountIdsByKeys(tx: TenantTx, keys: ReadonlyArray<string>): Promise<Map<string, string>> {
  const unique = [...new Set(keys)];
  let found = await accountsWithKeys(tx, unique);
  if (found.size < unique.length) {
    await seedChartOfAccounts(tx);
    found = await accountsWithKeys(tx, unique);
  }
  const missing = unique.filter((key) => !found.has(key));
  if (missing.length > 0) throw new AppError(500);
  return found;
}

/** The id of the business's account with this posting key (the default account of a payment method, say). */
export async function accountIdByKey(tx: TenantTx, key: PostingKey): Promise<string> {
  return (await accountIdsByKeys(tx, [key])).get(key) as string;
}

export interface StoredAccount {
  id: string;
  code: string;
  name: string;
  type: string;
  subtype: string;
  parent_id: string | null;
  system_key: string | null;
  active: boolean;
}

/** The business's accounts among `ids` (another business's are not found). */
export async function accountsByIds(tx: TenantTx, ids: ReadonlyArray<string>): Promise<Map<string, StoredAccount>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.trx
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'type', 'subtype', 'parent_id', 'system_key', 'active'])
    .where('tenant_id', '=', tx.tenantId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Whether the business has any account yet (a business made before the chart existed has none). */
export async function hasChart(tx: TenantTx): Promise<boolean> {
  const row = await tx.trx.selectFrom('accounts').select('id').where('tenant_id', '=', tx.tenantId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** An account's parent (walking up a chart to refuse a loop). */
export async function parentOf(tx: TenantTx, id: string): Promise<{ parent_id: string | null } | undefined> {
  return tx.trx.selectFrom('accounts').select('parent_id').where('tenant_id', '=', tx.tenantId).where('id', '=', id).executeTakeFirst();
}

/** Every account with its debit and credit totals over the entries up to `to` (all when null), by code. */
export async function trialBalanceRows(tx: TenantTx, to: string | null) {
  return tx.trx
    .selectFrom('accounts as a')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('journal_lines as l')
          .innerJoin('journal_entries as e', (join) => join.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
          .select(['l.tenant_id', 'l.account_id', sql<string>`sum(l.debit)`.as('debit'), sql<string>`sum(l.credit)`.as('credit')])
          .where('l.tenant_id', '=', tx.tenantId)
          .$if(to !== null, (q) => q.where('e.occurred_on', '<=', to as string))
          .groupBy(['l.tenant_id', 'l.account_id'])
          .as('t'),
      (join) => join.onRef('t.tenant_id', '=', 'a.tenant_id').onRef('t.account_id', '=', 'a.id'),
    )
    .select(['a.id', 'a.code', 'a.name', 'a.type', 'a.subtype', 't.debit', 't.credit'])
    .where('a.tenant_id', '=', tx.tenantId)
    .orderBy('a.code')
    .execute();
}

/** A page of journal entries, newest first, filtered by day, source and account, with how many match in all. */
export async function journalEntries(
  tx: TenantTx,
  query: { from?: string | null; to?: string | null; source_kind?: string | null; account_id?: string | null },
  limit: number,
  offset: number,
) {
  const tenant = tx.tenantId;
  const filtered = tx.trx
    .selectFrom('journal_entries as e')
    .where('e.tenant_id', '=', tenant)
    .$if(Boolean(query.from), (q) => q.where('e.occurred_on', '>=', query.from as string))
    .$if(Boolean(query.to), (q) => q.where('e.occurred_on', '<=', query.to as string))
    .$if(Boolean(query.source_kind), (q) => q.where('e.source_kind', '=', query.source_kind as JournalSource))
    .$if(Boolean(query.account_id), (q) =>
      q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('journal_lines as f')
            .select('f.line')
            .whereRef('f.tenant_id', '=', 'e.tenant_id')
            .whereRef('f.entry_id', '=', 'e.id')
            .where('f.account_id', '=', query.account_id as string),
        ),
      ),
    );
  const total = Number((await filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const entries = await filtered
    .leftJoin('users as u', 'u.id', 'e.created_by')
    .select([
      'e.id',
      sql<string>`e.occurred_on::text`.as('occurred_on'),
      'e.source_kind',
      'e.source_id',
      'e.description',
      'e.created_at',
      'u.name as created_by_name',
    ])
    .orderBy('e.occurred_on', 'desc')
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { total, entries };
}

/** The lines of these entries with their accounts and partners, in entry and line order. */
export async function journalLines(tx: TenantTx, ids: ReadonlyArray<string>) {
  const tenant = tx.tenantId;
  if (ids.length === 0) return [];
  return tx.trx
    .selectFrom('journal_lines as l')
    .innerJoin('accounts as a', (join) => join.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'))
    .leftJoin('companies as c', (join) => join.onRef('c.tenant_id', '=', 'l.tenant_id').onRef('c.id', '=', 'l.partner_id'))
    .select(['l.entry_id', 'l.line', 'l.account_id', 'a.code', 'a.name', 'l.partner_id', 'c.name as partner_name', 'l.debit', 'l.credit'])
    .where('l.tenant_id', '=', tenant)
    .where('l.entry_id', 'in', [...ids])
    .orderBy('l.entry_id')
    .orderBy('l.line')
    .execute();
}
