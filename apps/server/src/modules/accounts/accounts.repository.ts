import type { PostingKey } from '@mustard/shared';
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
