import {
  averageStockCost,
  type BusinessHomeSchema,
  Decimal,
  latestDay,
  STOCK_MESSAGES,
  type StockLookupQuerySchema,
  type StockOnHand,
  type StockOnHandQuerySchema,
  type StockRecordsQuerySchema,
  type StockValuationQuerySchema,
} from '@mustard/shared';
import type { z } from 'zod';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import { invalid } from '../../errors.js';
import { rowsToWorkbook, timestampedFileName } from '../../resources/excel.js';
import {
  allowNegativeStock,
  businessCounts,
  businessLocations,
  ledger,
  levelsByProduct,
  type OnHandRow,
  onHandProducts,
  saveBusinessSettings,
  valuationRows,
} from './stock.repository.js';
import { exact, toStockRecord } from './stock.service.js';

/*
 * What the stock screens read (issue 31 points 5 and 7): the ledger with running balances, stock
 * on hand per location with the low-stock flag, the lookup of a scanned code, the valuation at
 * moving average cost, the business's settings and its dashboard. Each list answers its rows as
 * a workbook with `excel=1` (spec §9: mustard-<timestamp>.xlsx).
 */

interface Context {
  readonly tx: TenantTx;
}

/** A workbook answer: its file name and bytes. */
export interface Workbook {
  fileName: string;
  workbook: Buffer;
}

const workbookOf = async (
  sheet: string,
  columns: Parameters<typeof rowsToWorkbook>[1],
  rows: Record<string, unknown>[],
): Promise<Workbook> => ({
  fileName: timestampedFileName('mustard'),
  workbook: await rowsToWorkbook(sheet, columns, rows),
});

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const realDay = (value: string) => DAY.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** The ledger, oldest first, with the balances after each row; `excel=1` every row as a workbook. */
export async function stockLedger({ tx }: Context, query: z.output<typeof StockRecordsQuerySchema>) {
  if (query.to && !(realDay(query.to) && query.to >= '2000-01-01')) throw invalid({ to: [STOCK_MESSAGES.dateInvalid] });
  const rows = await ledger(tx, { ...query, per_page: query.excel ? null : query.per_page });
  const stockrecords = rows.map(toStockRecord);
  if (query.excel)
    return {
      file: await workbookOf(
        'Stock records',
        [
          { header: 'Date', value: (r) => r.occurred_on },
          { header: 'Kind', value: (r) => r.kind },
          { header: 'Code', value: (r) => (r.product as { code: string }).code },
          { header: 'Product', value: (r) => (r.product as { name: string }).name },
          { header: 'Location', value: (r) => (r.location as { name: string } | null)?.name ?? '' },
          { header: 'Quantity', value: (r) => Number(r.quantity) },
          { header: 'Unit cost', value: (r) => Number(r.unit_cost) },
          { header: 'Balance', value: (r) => Number(r.balance) },
          { header: 'Total balance', value: (r) => Number(r.total_balance) },
          { header: 'Reason', value: (r) => r.reason ?? '' },
          { header: 'Reference', value: (r) => r.reference ?? '' },
          { header: 'Partner', value: (r) => (r.partner as { name: string } | null)?.name ?? '' },
          { header: 'By', value: (r) => (r.user as { name: string } | null)?.name ?? '' },
        ],
        stockrecords,
      ),
    };
  return { answer: { stockrecords, totalRecords: Number(rows[0]?.total ?? 0) } };
}

/** Product rows with their levels: at one location when asked (on hand and value there), else in all. */
async function withLevels(tx: TenantTx, rows: OnHandRow[], locationId?: string | null): Promise<StockOnHand[]> {
  const levels = await levelsByProduct(
    tx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const valuation = { quantity: new Decimal(row.quantity), value: new Decimal(row.value) };
    const average = averageStockCost(valuation);
    const all = levels.get(row.id) ?? {};
    const locations = Object.fromEntries(
      Object.entries(locationId ? { [locationId]: all[locationId] ?? '0' } : all).map(([id, quantity]) => [id, exact(quantity)]),
    );
    const here = locationId ? new Decimal(all[locationId] ?? '0') : null;
    return {
      id: row.id,
      code: row.code,
      barcode: row.barcode,
      name: row.name,
      kind: row.kind,
      unit: row.unit,
      fractional: row.fractional,
      group: row.group_name === null ? null : { name: row.group_name },
      price: exact(row.price),
      reorder_level: exact(row.reorder_level),
      locations,
      on_hand: here ? here.toFixed() : exact(row.on_hand),
      avg_cost: average.toFixed(),
      // At one location: what is there at the average cost (the value is the product's, not a place's).
      value: here ? here.times(average).toDecimalPlaces(4).toFixed() : exact(row.value),
      low: row.low,
    };
  });
}

/** Products that keep stock, with on hand per location, average cost, value and whether low; `low=1` the low ones alone. */
export async function stockOnHand({ tx }: Context, query: z.output<typeof StockOnHandQuerySchema>) {
  const rows = await onHandProducts(tx, { ...query, per_page: query.excel ? null : query.per_page });
  const products = await withLevels(tx, rows, query.location_id);
  const locations = await businessLocations(tx);
  if (query.excel)
    return {
      file: await workbookOf(
        'Stock on hand',
        [
          { header: 'Code', value: (r) => r.code },
          { header: 'Barcode', value: (r) => r.barcode ?? '' },
          { header: 'Product', value: (r) => r.name },
          { header: 'Unit', value: (r) => r.unit },
          ...locations.map((location) => ({
            header: location.name,
            value: (r: Record<string, unknown>) => Number((r.locations as Record<string, string>)[location.id] ?? 0),
          })),
          { header: 'On hand', value: (r) => Number(r.on_hand) },
          { header: 'Reorder level', value: (r) => Number(r.reorder_level) },
          { header: 'Average cost', value: (r) => Number(r.avg_cost) },
          { header: 'Value', value: (r) => Number(r.value) },
          { header: 'Low', value: (r) => (r.low ? 'yes' : '') },
        ],
        products as unknown as Record<string, unknown>[],
      ),
    };
  return { answer: { products, locations, totalRecords: Number(rows[0]?.total ?? 0) } };
}

/** The product a typed or scanned code (any case) or barcode names, with its stock; 422 when none. */
export async function stockLookup({ tx }: Context, query: z.output<typeof StockLookupQuerySchema>) {
  const rows = await onHandProducts(tx, { code: query.code, page: 1, per_page: 1 });
  const [product] = await withLevels(tx, rows);
  if (!product) throw invalid({ code: [STOCK_MESSAGES.productUnknown] });
  return { product };
}

/** The stock's value at moving average cost, per product and in all; at one location its quantity there × the average. */
export async function stockValuation({ tx }: Context, query: z.output<typeof StockValuationQuerySchema>) {
  const found = await valuationRows(tx, query);
  let total = new Decimal(0);
  const rows = found.map((row) => {
    const valuation = { quantity: new Decimal(row.quantity), value: new Decimal(row.value) };
    const average = averageStockCost(valuation);
    const quantity = row.location_quantity === null ? valuation.quantity : new Decimal(row.location_quantity);
    const value = row.location_quantity === null ? valuation.value : quantity.times(average).toDecimalPlaces(4);
    total = total.plus(value);
    return {
      product_id: row.product_id,
      code: row.code,
      name: row.name,
      unit: row.unit,
      group: row.group_name === null ? null : { name: row.group_name },
      quantity: quantity.toFixed(),
      avg_cost: average.toFixed(),
      value: value.toFixed(),
    };
  });
  const listed = query.location_id ? rows.filter((row) => row.quantity !== '0') : rows;
  if (query.excel)
    return {
      file: await workbookOf(
        'Stock valuation',
        [
          { header: 'Code', value: (r) => r.code },
          { header: 'Product', value: (r) => r.name },
          { header: 'Unit', value: (r) => r.unit },
          { header: 'Group', value: (r) => (r.group as { name: string } | null)?.name ?? '' },
          { header: 'Quantity', value: (r) => Number(r.quantity) },
          { header: 'Average cost', value: (r) => Number(r.avg_cost) },
          { header: 'Value', value: (r) => Number(r.value) },
        ],
        [...listed, { code: '', name: 'Total', unit: '', group: null, quantity: '', avg_cost: '', value: total.toFixed() }].map((row) => ({
          ...row,
          quantity: row.quantity === '' ? null : row.quantity,
          avg_cost: row.avg_cost === '' ? null : row.avg_cost,
        })),
      ),
    };
  return { answer: { rows: listed, total_value: total.toFixed(), totalRecords: listed.length } };
}

export async function businessSettings({ tx }: Context) {
  return { allow_negative_stock: await allowNegativeStock(tx) };
}

/** Allowing or refusing negative stock, with an audit entry of before and after. */
export async function saveSettings({ tx }: Context, input: { allow_negative_stock: boolean }) {
  const before = await allowNegativeStock(tx);
  await saveBusinessSettings(tx, input.allow_negative_stock);
  await recordAudit(tx, {
    action: 'update',
    entity: 'business_settings',
    before: { allow_negative_stock: before },
    after: { allow_negative_stock: input.allow_negative_stock },
  });
  return { allow_negative_stock: input.allow_negative_stock };
}

/** The dashboard's figures; "today" is the day in Kampala (UTC+3), the business side's home. */
export async function businessHome({ tx }: Context): Promise<z.input<typeof BusinessHomeSchema>> {
  const today = new Date(Date.now() + 3 * 3600 * 1000).toISOString().slice(0, 10);
  const counts = await businessCounts(tx, today <= latestDay() ? today : latestDay());
  return { ...counts, stock_value: exact(counts.stock_value) };
}
