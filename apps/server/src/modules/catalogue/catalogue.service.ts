import { Decimal, BUSINESS_MESSAGES as M } from '@mustard/shared';
import type { TenantTx } from '../../db/tenant.js';
import { conflict, invalid } from '../../errors.js';
import { clearDefaultCurrency, defaultCurrencyDecimals, groupTaxId, isDefaultCurrency } from './catalogue.repository.js';

/*
 * The catalogue's rules beyond its forms (issue 31; guide business.md), run inside each write's
 * transaction by the resource mechanism (`beforeWrite`, `beforeRemove`).
 */

/** The columns' own scale (numeric(20, 4)): what an amount may have while no currency is the default. */
const COLUMN_DECIMALS = 4;

/** The fields of `amounts` that have more decimals than `decimals` allows, each with the reason. */
export function tooPrecise(amounts: Record<string, unknown>, decimals: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(amounts))
    if (typeof value === 'string' && new Decimal(value).decimalPlaces() > decimals) errors[field] = [M.amountTooPrecise];
  return errors;
}

/**
 * A product as it may be stored: price and cost in the default currency's decimals (a shop in
 * UGX cannot price a pen at 500.50); a service keeps no stock, whatever the form said; a product
 * counted in whole units has a whole reorder level; a new product put in a group without a tax
 * of its own takes the group's default tax.
 */
export async function checkProduct(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  if (input.kind === 'service') input.track_stock = false;
  const errors = tooPrecise({ price: input.price, cost: input.cost }, (await defaultCurrencyDecimals(tx)) ?? COLUMN_DECIMALS);
  if (input.fractional === false && typeof input.reorder_level === 'string' && !new Decimal(input.reorder_level).isInteger())
    errors.reorder_level = [M.quantityWhole];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  // A group of another business is not found here (RLS); the insert's foreign key then names group_id.
  if (id === null && input.tax_id === null && typeof input.group_id === 'string') input.tax_id = await groupTaxId(tx, input.group_id);
}

/**
 * A business keeps exactly one default currency: making one the default takes it from the
 * other in the same transaction (two at once: the second is refused on `is_default`); the
 * default itself cannot be made not the default, only replaced.
 */
export async function checkCurrency(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  if (input.is_default === true) await clearDefaultCurrency(tx, id);
  else if (id !== null && (await isDefaultCurrency(tx, id))) throw invalid({ is_default: [M.defaultCurrencyKept] });
}

/** The default currency is never deleted: another is made the default first. */
export async function checkCurrencyRemoval(tx: TenantTx, id: string): Promise<void> {
  if (await isDefaultCurrency(tx, id)) throw conflict(M.defaultCurrencyInUse);
}
