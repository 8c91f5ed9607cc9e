import type { StockRecordKind } from '@mustard/shared';
import { type Insertable, sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import type { StockMovementsTable } from '../../db/types.js';

/*
 * The stock ledger's queries (issue 31 point 4). The ledger (`stock_records`) is only ever
 * inserted into; on hand (`stock_levels`) and the moving-average value (`stock_valuations`) are
 * written beside it in the same transaction, under the product's valuation row lock.
 */

/** The decimals of the business's default currency, or null while it has none. */
export async function defaultCurrencyDecimals(tx: TenantTx): Promise<number | null> {
  const row = await tx.trx
    .selectFrom('currencies')
    .select('decimals')
    .where('tenant_id', '=', tx.tenantId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  return row?.decimals ?? null;
}

/** Whether the business lets stock go below zero (refused while it has no settings row). */
export async function allowNegativeStock(tx: TenantTx): Promise<boolean> {
  const row = await tx.trx
    .selectFrom('business_settings')
    .select('allow_negative_stock')
    .where('tenant_id', '=', tx.tenantId)
    .executeTakeFirst();
  return row?.allow_negative_stock ?? false;
}

/** Saves the business's settings (the row is made with the business; made here if missing). */
export async function saveBusinessSettings(tx: TenantTx, allowNegative: boolean): Promise<void> {
  await tx.trx
    .insertInto('business_settings')
    .values({ tenant_id: tx.tenantId, allow_negative_stock: allowNegative })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ allow_negative_stock: allowNegative, updated_at: sql`now()` }))
    .execute();
}

export interface StockProduct {
  id: string;
  code: string;
  name: string;
  unit: string;
  track_stock: boolean;
  fractional: boolean;
  cost: string;
}

/** The business's products among `ids` (another business's are not found). */
export async function productsByIds(tx: TenantTx, ids: readonly string[]): Promise<Map<string, StockProduct>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.trx
    .selectFrom('products')
    .select(['id', 'code', 'name', 'unit', 'track_stock', 'fractional', 'cost'])
    .where('tenant_id', '=', tx.tenantId)
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, { ...row, cost: String(row.cost) }]));
}

/** The business's locations among `ids`. */
export async function locationIds(tx: TenantTx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.trx
    .selectFrom('locations')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** A partner's role, or undefined when the business has no such partner. */
export async function partnerRole(tx: TenantTx, id: string): Promise<string | undefined> {
  const row = await tx.trx
    .selectFrom('companies')
    .select('role')
    .where('tenant_id', '=', tx.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.role;
}

/** The movement recorded for a client's request id, if any. */
export async function movementOfRequest(tx: TenantTx, requestId: string): Promise<string | undefined> {
  const row = await tx.trx
    .selectFrom('stock_movements')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row?.id;
}

export type NewMovement = Omit<Insertable<StockMovementsTable>, 'tenant_id' | 'created_at'>;

/**
 * Inserts the movement unless its request id is already recorded: answers false then. A second
 * transaction with the same request id waits here until the first ends (the unique index), and
 * then sees it: no unique violation aborts the transaction, so the caller can answer the first.
 */
export async function insertMovement(tx: TenantTx, movement: NewMovement): Promise<boolean> {
  const inserted = await tx.trx
    .insertInto('stock_movements')
    .values({ ...movement, tenant_id: tx.tenantId })
    .onConflict((oc) => oc.columns(['tenant_id', 'request_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface KeptValuation {
  quantity: string;
  value: string;
}

/**
 * Locks the products' valuation rows for the rest of the transaction, made first where missing,
 * in product id order: two movements of the same products take turns here, and, taking the
 * locks in one order, never wait on each other in a circle. Answers each row as locked.
 */
export async function lockValuations(tx: TenantTx, productIds: readonly string[]): Promise<Map<string, KeptValuation>> {
  const sorted = [...new Set(productIds)].sort();
  await tx.trx
    .insertInto('stock_valuations')
    .values(sorted.map((product_id) => ({ tenant_id: tx.tenantId, product_id })))
    .onConflict((oc) => oc.columns(['tenant_id', 'product_id']).doNothing())
    .execute();
  const rows = await tx.trx
    .selectFrom('stock_valuations')
    .select(['product_id', 'quantity', 'value'])
    .where('tenant_id', '=', tx.tenantId)
    .where('product_id', 'in', sorted)
    .orderBy('product_id')
    .forUpdate()
    .execute();
  return new Map(rows.map((row) => [row.product_id, { quantity: String(row.quantity), value: String(row.value) }]));
}

/** On hand of the products at every location (`product:location` -> quantity), read under the products' locks. */
export async function levelsOf(tx: TenantTx, productIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await tx.trx
    .selectFrom('stock_levels')
    .select(['product_id', 'location_id', 'on_hand'])
    .where('tenant_id', '=', tx.tenantId)
    .where('product_id', 'in', [...productIds])
    .execute();
  return new Map(rows.map((row) => [`${row.product_id}:${row.location_id}`, String(row.on_hand)]));
}

export interface NewRecord {
  id: string;
  movement_id: string;
  line: number;
  product_id: string;
  location_id: string;
  kind: StockRecordKind;
  quantity: string;
  unit_cost: string;
  occurred_on: string;
}

/** Writes a movement's ledger rows, one at a time so each carries its own clock time in line order. */
export async function insertRecords(tx: TenantTx, records: readonly NewRecord[]): Promise<void> {
  // One multi-row insert: clock_timestamp() may repeat within it, which `line` then orders.
  for (let start = 0; start < records.length; start += 500)
    await tx.trx
      .insertInto('stock_records')
      .values(records.slice(start, start + 500).map((record) => ({ ...record, tenant_id: tx.tenantId })))
      .execute();
}

/**
 * Sets on hand per product and location to the figures worked out under the lock. (Raw SQL: the
 * generated-numeric column types do not take a decimal text through Kysely's insert typing.)
 */
export async function saveLevels(tx: TenantTx, levels: ReadonlyArray<{ product_id: string; location_id: string; on_hand: string }>) {
  if (levels.length === 0) return;
  const rows = levels.map(
    (level) => sql`(${tx.tenantId}::uuid, ${level.product_id}::uuid, ${level.location_id}::uuid, ${level.on_hand}::numeric)`,
  );
  await sql`INSERT INTO stock_levels (tenant_id, product_id, location_id, on_hand) VALUES ${sql.join(rows)}
    ON CONFLICT (tenant_id, product_id, location_id) DO UPDATE SET on_hand = excluded.on_hand, updated_at = now()`.execute(tx.trx);
}

/** Sets the products' quantity and value to the figures worked out under the lock. */
export async function saveValuations(tx: TenantTx, valuations: ReadonlyArray<{ product_id: string; quantity: string; value: string }>) {
  if (valuations.length === 0) return;
  const rows = valuations.map(
    (row) => sql`(${tx.tenantId}::uuid, ${row.product_id}::uuid, ${row.quantity}::numeric, ${row.value}::numeric)`,
  );
  await sql`INSERT INTO stock_valuations (tenant_id, product_id, quantity, value) VALUES ${sql.join(rows)}
    ON CONFLICT (tenant_id, product_id) DO UPDATE SET quantity = excluded.quantity, value = excluded.value, updated_at = now()`.execute(
    tx.trx,
  );
}

export interface LedgerFilter {
  product_id?: string | null;
  location_id?: string | null;
  kind?: StockRecordKind;
  from?: string;
  to?: string;
  movement_id?: string;
  page: number;
  per_page: number | null;
}

export interface LedgerRow {
  id: string;
  movement_id: string;
  occurred_on: string;
  created_at: Date | string;
  kind: StockRecordKind;
  product_id: string;
  product_code: string;
  product_name: string;
  product_unit: string;
  location_id: string;
  location_name: string | null;
  quantity: string;
  unit_cost: string;
  balance: string;
  total_balance: string;
  reason: string | null;
  reference: string | null;
  note: string | null;
  partner_name: string | null;
  user_name: string | null;
  total: string | number;
}

/**
 * The ledger with the balance after each row: at its location (`balance`) and of the product
 * everywhere (`total_balance`), summed in the ledger's order (created_at, line, id). The sums run
 * over the product's whole ledger before the other filters, so a page or a day shows the true
 * balance, not one of the rows shown.
 */
export async function ledger(tx: TenantTx, filter: LedgerFilter): Promise<LedgerRow[]> {
  const inner = filter.product_id ? sql`AND r.product_id = ${filter.product_id}` : sql``;
  const conditions = [sql`TRUE`];
  if (filter.location_id) conditions.push(sql`b.location_id = ${filter.location_id}`);
  if (filter.kind) conditions.push(sql`b.kind = ${filter.kind}`);
  if (filter.from) conditions.push(sql`b.occurred_on >= ${filter.from}::date`);
  if (filter.to) conditions.push(sql`b.occurred_on <= ${filter.to}::date`);
  if (filter.movement_id) conditions.push(sql`b.movement_id = ${filter.movement_id}`);
  const paging = filter.per_page === null ? sql`` : sql`LIMIT ${filter.per_page} OFFSET ${(filter.page - 1) * filter.per_page}`;
  const result = await sql<LedgerRow>`
    WITH b AS (
      SELECT r.tenant_id, r.id, r.movement_id, r.line, r.product_id, r.location_id, r.kind, r.quantity, r.unit_cost,
             r.occurred_on, r.created_at,
             sum(r.quantity) OVER (PARTITION BY r.product_id, r.location_id ORDER BY r.created_at, r.line, r.id) AS balance,
             sum(r.quantity) OVER (PARTITION BY r.product_id ORDER BY r.created_at, r.line, r.id) AS total_balance
        FROM stock_records r
       WHERE r.tenant_id = ${tx.tenantId} ${inner}
    )
    SELECT b.id, b.movement_id, b.occurred_on::text AS occurred_on, b.created_at, b.kind, b.product_id,
           p.code AS product_code, p.name AS product_name, p.unit AS product_unit,
           b.location_id, l.name AS location_name, b.quantity::text AS quantity, b.unit_cost::text AS unit_cost,
           b.balance::text AS balance, b.total_balance::text AS total_balance,
           m.reason, m.reference, m.note, c.name AS partner_name, u.name AS user_name,
           count(*) OVER () AS total
      FROM b
      JOIN products p ON p.tenant_id = b.tenant_id AND p.id = b.product_id
      JOIN locations l ON l.tenant_id = b.tenant_id AND l.id = b.location_id
      JOIN stock_movements m ON m.tenant_id = b.tenant_id AND m.id = b.movement_id
      LEFT JOIN companies c ON c.tenant_id = m.tenant_id AND c.id = m.partner_id
      LEFT JOIN users u ON u.id = m.created_by
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY b.created_at, b.line, b.id
     ${paging}`.execute(tx.trx);
  return result.rows;
}

export interface OnHandFilter {
  search?: string;
  group_id?: string | null;
  location_id?: string | null;
  low?: boolean;
  /** Exact code (any case) or barcode: the lookup. */
  code?: string;
  page: number;
  per_page: number | null;
}

export interface OnHandRow {
  id: string;
  code: string;
  barcode: string | null;
  name: string;
  kind: 'goods' | 'service';
  unit: string;
  fractional: boolean;
  group_name: string | null;
  price: string;
  reorder_level: string;
  on_hand: string;
  quantity: string;
  value: string;
  low: boolean;
  total: string | number;
}

/**
 * Products that keep stock with their quantity and value (the valuation row: the sum of their
 * levels) and whether they are low (a reorder level set and on hand at or below it). A lookup by
 * code names any product of the business, stocked or not, so the screen can say which.
 */
export async function onHandProducts(tx: TenantTx, filter: OnHandFilter): Promise<OnHandRow[]> {
  const conditions = [sql`p.tenant_id = ${tx.tenantId}`];
  if (filter.code !== undefined) conditions.push(sql`(lower(p.code) = lower(${filter.code}) OR p.barcode = ${filter.code})`);
  else conditions.push(sql`p.track_stock`);
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(p.name ILIKE ${like} OR p.code ILIKE ${like} OR p.barcode ILIKE ${like})`);
  }
  if (filter.group_id) conditions.push(sql`p.group_id = ${filter.group_id}`);
  const low = sql`(p.reorder_level > 0 AND coalesce(v.quantity, 0) <= p.reorder_level)`;
  if (filter.low) conditions.push(low);
  const paging = filter.per_page === null ? sql`` : sql`LIMIT ${filter.per_page} OFFSET ${(filter.page - 1) * filter.per_page}`;
  const result = await sql<OnHandRow>`
    SELECT p.id, p.code, p.barcode, p.name, p.kind, p.unit, p.fractional, g.name AS group_name, p.price::text AS price,
           p.reorder_level::text AS reorder_level, coalesce(v.quantity, 0)::text AS quantity, coalesce(v.value, 0)::text AS value,
           coalesce(v.quantity, 0)::text AS on_hand, ${low} AS low, count(*) OVER () AS total
      FROM products p
      LEFT JOIN product_groups g ON g.tenant_id = p.tenant_id AND g.id = p.group_id
      LEFT JOIN stock_valuations v ON v.tenant_id = p.tenant_id AND v.product_id = p.id
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY ${filter.code !== undefined ? sql`(lower(p.code) = lower(${filter.code})) DESC,` : sql``} p.name, p.code, p.id
     ${paging}`.execute(tx.trx);
  return result.rows;
}

/** On hand of the products at each location where they have a level. */
export async function levelsByProduct(tx: TenantTx, productIds: readonly string[]): Promise<Map<string, Record<string, string>>> {
  const levels = new Map<string, Record<string, string>>();
  if (productIds.length === 0) return levels;
  const rows = await tx.trx
    .selectFrom('stock_levels')
    .select(['product_id', 'location_id', sql<string>`on_hand::text`.as('on_hand')])
    .where('tenant_id', '=', tx.tenantId)
    .where('product_id', 'in', [...productIds])
    .execute();
  for (const row of rows) {
    const product = levels.get(row.product_id) ?? {};
    product[row.location_id] = row.on_hand;
    levels.set(row.product_id, product);
  }
  return levels;
}

/** The business's locations, by name. */
export async function businessLocations(tx: TenantTx) {
  return tx.trx
    .selectFrom('locations')
    .select(['id', 'name', 'code'])
    .where('tenant_id', '=', tx.tenantId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export interface ValuationRow {
  product_id: string;
  code: string;
  name: string;
  unit: string;
  group_name: string | null;
  quantity: string;
  value: string;
  location_quantity: string | null;
}

/** Each product with stock or value: its quantity and value in all, and its quantity at `locationId` when asked. */
export async function valuationRows(
  tx: TenantTx,
  filter: { group_id?: string | null; location_id?: string | null },
): Promise<ValuationRow[]> {
  const conditions = [sql`v.tenant_id = ${tx.tenantId}`, sql`(v.quantity <> 0 OR v.value <> 0)`];
  if (filter.group_id) conditions.push(sql`p.group_id = ${filter.group_id}`);
  const result = await sql<ValuationRow>`
    SELECT p.id AS product_id, p.code, p.name, p.unit, g.name AS group_name, v.quantity::text AS quantity, v.value::text AS value,
           ${filter.location_id ? sql`coalesce(s.on_hand, 0)::text` : sql`NULL`} AS location_quantity
      FROM stock_valuations v
      JOIN products p ON p.tenant_id = v.tenant_id AND p.id = v.product_id
      LEFT JOIN product_groups g ON g.tenant_id = p.tenant_id AND g.id = p.group_id
      LEFT JOIN stock_levels s ON s.tenant_id = v.tenant_id AND s.product_id = v.product_id AND s.location_id = ${filter.location_id ?? null}
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY p.name, p.code, p.id`.execute(tx.trx);
  return result.rows;
}

/** The dashboard's figures: stock value, products low, today's movements, products and locations. */
export async function businessCounts(tx: TenantTx, today: string) {
  const result = await sql<{
    stock_value: string;
    low_stock: string | number;
    movements_today: string | number;
    products: string | number;
    locations: string | number;
  }>`
    SELECT (SELECT coalesce(sum(v.value), 0)::text FROM stock_valuations v WHERE v.tenant_id = ${tx.tenantId}) AS stock_value,
           (SELECT count(*) FROM products p LEFT JOIN stock_valuations v ON v.tenant_id = p.tenant_id AND v.product_id = p.id
             WHERE p.tenant_id = ${tx.tenantId} AND p.track_stock AND p.reorder_level > 0
               AND coalesce(v.quantity, 0) <= p.reorder_level) AS low_stock,
           (SELECT count(*) FROM stock_movements m WHERE m.tenant_id = ${tx.tenantId} AND m.occurred_on = ${today}::date) AS movements_today,
           (SELECT count(*) FROM products p WHERE p.tenant_id = ${tx.tenantId} AND p.active) AS products,
           (SELECT count(*) FROM locations l WHERE l.tenant_id = ${tx.tenantId}) AS locations`.execute(tx.trx);
  const row = result.rows[0];
  return {
    stock_value: row?.stock_value ?? '0',
    low_stock: Number(row?.low_stock ?? 0),
    movements_today: Number(row?.movements_today ?? 0),
    products: Number(row?.products ?? 0),
    locations: Number(row?.locations ?? 0),
  };
}
