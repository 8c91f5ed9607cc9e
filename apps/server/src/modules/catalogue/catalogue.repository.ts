import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/* The catalogue's own queries, besides the resource mechanism's (catalogue.service.ts's rules read them). */

/** The decimals of the business's default currency, or null while it has none. */
export async function defaultCurrencyDecimals(tx: TenantTx): Promise<number | null> {
  const row = await tx.trx
    .selectFrom('currencies')
    .select('decimals')
    .$call(inTenant(tx.tenantId))
    .where('is_default', '=', true)
    .executeTakeFirst();
  return row?.decimals ?? null;
}

/** The default tax of a group of this business (null for none, or for a group it does not have). */
export async function groupTaxId(tx: TenantTx, groupId: string): Promise<string | null> {
  const group = await tx.trx
    .selectFrom('product_groups')
    .select('tax_id')
    .$call(inTenant(tx.tenantId))
    .where('id', '=', groupId)
    .executeTakeFirst();
  return group?.tax_id ?? null;
}

/** Whether the currency is the business's default (false for one it does not have). */
export async function isDefaultCurrency(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx
    .selectFrom('currencies')
    .select('is_default')
    .$call(inTenant(tx.tenantId))
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.is_default ?? false;
}

/**
 * Takes the default from every currency but `keep` (null: all). The old default's row lock
 * orders two such writes at once; the partial unique index refuses the second's new default.
 */
export async function clearDefaultCurrency(tx: TenantTx, keep: string | null): Promise<void> {
  await tx.trx
    .updateTable('currencies')
    .set({ is_default: false, updated_at: sql`now()` })
    .$call(inTenant(tx.tenantId))
    .where('is_default', '=', true)
    .$if(keep !== null, (query) => query.where('id', '<>', keep as string))
    .execute();
}
