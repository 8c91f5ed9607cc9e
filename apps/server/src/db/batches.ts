/*
 * PostgreSQL takes at most 65,535 bind parameters in one statement (the protocol counts them in
 * 16 bits), and so does the embedded database: a multi-row INSERT of 4,400 history rows of 15
 * columns, or an `in` list of 70,000 ids, fails whole. A write whose size users decide (a class's
 * marks, a sheet's rows, a school's journal, a seed) either binds whole arrays, one parameter
 * per column whatever the number of rows (`= ANY(${ids}::uuid[])`, `unnest(...)`), or goes
 * through `inBatches`.
 */

/** The most bind parameters one statement may carry. */
export const PARAMETER_LIMIT = 65_535;

/**
 * What one batch binds at most: far enough under the limit to leave room for the statement's
 * own parameters (tenant, filters, a conflict clause), and statements of a size the database
 * plans quickly (the chunks of 500 to 1,000 rows the uploads had).
 */
export const PARAMETERS_PER_BATCH = 16_000;

/** Parameters an item binds: a row one per column (its keys), anything else (an id) one. */
function parametersOf(item: unknown): number {
  return typeof item === 'object' && item !== null && !Array.isArray(item) ? Object.keys(item).length : 1;
}

/** `items` in consecutive slices of at most `PARAMETERS_PER_BATCH` parameters, at least one item each. */
export function batchesOf<T>(
  items: readonly T[],
  parametersPerItem = items.reduce((most, item) => Math.max(most, parametersOf(item)), 1),
): T[][] {
  const size = Math.max(1, Math.floor(PARAMETERS_PER_BATCH / Math.max(1, parametersPerItem)));
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

/**
 * Runs `write` on consecutive slices of `items` (rows to insert, ids to delete), one after the
 * other and in order, so a statement never binds more than `PARAMETERS_PER_BATCH`: a row counts
 * one parameter per column (the widest row), an id one. Nothing runs for no items. In the
 * caller's transaction, the batches land together or not at all.
 */
export async function inBatches<T>(items: readonly T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (const batch of batchesOf(items)) await write(batch);
}
