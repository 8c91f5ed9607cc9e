import { Decimal, BUSINESS_MESSAGES as M } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { conflict, invalid } from '../../errors.js';

/*
 * The catalogue's rules beyond its forms (issue 31; guide business.md), run inside each write's
 * transaction by the resource mechanism (`beforeWrite`, `beforeRemove`).
 */

/** The fields of `amounts` that have more decimals than `decimals` allows, each with the reason. */
export function tooPrecise(amounts: Record<string, unknown>, decimals: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(amounts))
    if (typeof value === 'string' && new Decimal(value).decimalPlaces() > decimals) errors[field] = [M.amountTooPrecise];
  return errors;
}

/** The decimals of the business's default currency (UGX: 0); 4, the columns' own, if it has none. */
export async function defaultCurrencyDecimals(tx: TenantTx): Promise<number> {
  const row = await tx.trx
    .selectFrom('currencies')
    .select('decimals')
    .$call(inTenant(tx.tenantId))
    .where('is_default', '=', true)
    .executeTakeFirst();
  return row?.decimals ?? 4;
}

/**
 * A product as it may be stored: price and cost in the default currency's decimals (a shop in
 * UGX cannot price a pen at 500.50); a service keeps no stock, whatever the form said; a product
 * counted in whole units has a whole reorder level; a new product put in a group without a tax
 * of its own takes the group's default tax.
 */
export async function checkProduct(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  if (input.kind === 'service') input.track_stock = false;
  const errors = tooPrecise({ price: input.price, cost: input.cost }, await defaultCurrencyDecimals(tx));
  if (input.fractional === false && typeof input.reorder_level === 'string' && !new Decimal(input.reorder_level).isInteger())
    errors.reorder_level = [M.quantityWhole];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  if (id === null && input.tax_id === null && typeof input.group_id === 'string') {
    // A group of another business is not found here (RLS); the insert's foreign key then names group_id.
    const group = await tx.trx
      .selectFrom('product_groups')
      .select('tax_id')
      .$call(inTenant(tx.tenantId))
      .where('id', '=', input.group_id)
      .executeTakeFirst();
    if (group?.tax_id) input.tax_id = group.tax_id;
  }
}

/**
 * A business keeps exactly one default currency: making one the default takes it from the
 * other in the same transaction (the row lock on the old default orders two such writes; the
 * partial unique index refuses the loser, reported on `is_default`); the default itself cannot
 * be made not the default, only replaced.
 */
export async function checkCurrency(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  if (input.is_default === true) {
    await tx.trx
      .updateTable('currencies')
      .set({ is_default: false, updated_at: sql`now()` })
      .$call(inTenant(tx.tenantId))
      .where('is_default', '=', true)
      .$if(id !== null, (query) => query.where('id', '<>', id as string))
      .execute();
    return;
  }
  if (id === null) return;
  const current = await tx.trx
    .selectFrom('currencies')
    .select('is_default')
    .$call(inTenant(tx.tenantId))
    .where('id', '=', id)
    .executeTakeFirst();
  if (current?.is_default) throw invalid({ is_default: [M.defaultCurrencyKept] });
}

/** The default currency is never deleted: another is made the default first. */
export async function checkCurrencyRemoval(tx: TenantTx, id: string): Promise<void> {
  const current = await tx.trx
    .selectFrom('currencies')
    .select('is_default')
    .$call(inTenant(tx.tenantId))
    .where('id', '=', id)
    .executeTakeFirst();
  if (current?.is_default) throw conflict(M.defaultCurrencyInUse);
}
