import { z } from 'zod';
import { ADJUSTMENT_REASONS, MAX_MOVEMENT_LINES, PRODUCT_KINDS, STOCK_RECORD_KINDS } from '../business/constants.js';
import { STOCK_MESSAGES as S } from '../business/messages.js';
import { amountText, Decimal, decimalText } from '../business/money.js';
import { flag, lowerId, optionalId } from '../endpoints/fields.js';
import { exactText } from '../resources/business-catalogue.js';
import { optionalText, text } from './common.js';

/*
 * The stock ledger's calls (issue 31 point 4): a movement a person records (opening balance,
 * goods received from a supplier, an adjustment with its reason, a transfer between locations),
 * the ledger it writes, stock on hand, valuation and the business's stock setting. Quantities and
 * money are exact decimal text.
 */

/** YYYY-MM-DD naming a real day. */
function realDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/** Today where the day is furthest ahead (UTC+14): a movement dated today anywhere is taken. */
export function latestDay(now = Date.now()): string {
  return new Date(now + 14 * 3600 * 1000).toISOString().slice(0, 10);
}

export const stockDay = text(S.dateInvalid)
  .trim()
  .refine(realDay, { error: S.dateInvalid, abort: true })
  .refine((value) => value >= '2000-01-01', { error: S.dateInvalid })
  .refine((value) => value <= latestDay(), { error: S.dateInFuture });

/** A quantity moved: more than 0, at most 3 decimals (whether the unit takes fractions is the product's). */
export const movedQuantity = decimalText(S.quantityInvalid).refine(
  (value) => {
    const quantity = new Decimal(value);
    return quantity.gt(0) && quantity.decimalPlaces() <= 3 && quantity.lt('1e12');
  },
  { error: S.quantityInvalid },
);

export const StockLineInputSchema = z.strictObject({
  product_id: lowerId(S.productRequired),
  quantity: movedQuantity,
  /** Cost of one unit: required for an opening balance and a purchase; others move at the average cost. */
  unit_cost: amountText.optional(),
});
export type StockLineInput = z.output<typeof StockLineInputSchema>;

/** The kinds a person records here; sales and returns come from invoices and memos (part 2). */
export const RECORDED_MOVEMENT_KINDS = ['opening', 'purchase', 'adjustment', 'transfer'] as const;

export const StockMovementInputSchema = z
  .strictObject({
    /** Made by the screen for each action: sent again (a retry on a dropping connection) it is recorded once. */
    request_id: lowerId(),
    kind: z.enum(RECORDED_MOVEMENT_KINDS),
    /** An adjustment adds (`in`: found, counted more) or removes (`out`: expired, damaged, …). */
    direction: z.enum(['in', 'out']).optional(),
    occurred_on: stockDay,
    location_id: lowerId(S.locationRequired),
    to_location_id: optionalId,
    partner_id: optionalId,
    reason: z.enum(ADJUSTMENT_REASONS, { error: S.reasonRequired }).optional(),
    reference: optionalText.refine((value) => value === null || value.length <= 80, { error: S.referenceTooLong }),
    note: optionalText,
    lines: z.array(StockLineInputSchema, { error: S.linesRequired }).min(1, S.linesRequired).max(MAX_MOVEMENT_LINES, S.tooManyLines),
  })
  .superRefine((movement, context) => {
    const need = (ok: boolean, path: string, message: string) => {
      if (!ok) context.addIssue({ code: 'custom', path: [path], message });
    };
    if (movement.kind === 'transfer') {
      need(Boolean(movement.to_location_id), 'to_location_id', S.toLocationRequired);
      need(movement.to_location_id !== movement.location_id, 'to_location_id', S.sameLocation);
    }
    if (movement.kind === 'purchase') need(Boolean(movement.partner_id), 'partner_id', S.supplierRequired);
    if (movement.kind === 'adjustment') {
      need(Boolean(movement.direction), 'direction', S.directionRequired);
      need(Boolean(movement.reason), 'reason', S.reasonRequired);
    }
    if (movement.kind === 'opening' || movement.kind === 'purchase')
      movement.lines.forEach((line, index) => {
        if (line.unit_cost === undefined)
          context.addIssue({ code: 'custom', path: ['lines', index, 'unit_cost'], message: S.unitCostRequired });
      });
  });
export type StockMovementInput = z.output<typeof StockMovementInputSchema>;

const namedRef = z.object({ name: z.string() }).nullable();

/** One ledger row as the ledger screen shows it, with the balance after it. */
export const StockRecordSchema = z.object({
  id: z.string(),
  movement_id: z.string(),
  occurred_on: z.string(),
  created_at: z.string(),
  kind: z.enum(STOCK_RECORD_KINDS),
  product_id: z.string(),
  product: z.object({ code: z.string(), name: z.string(), unit: z.string() }),
  location_id: z.string(),
  location: namedRef,
  quantity: exactText,
  unit_cost: exactText,
  /** On hand at this row's location after it. */
  balance: exactText,
  /** On hand of the product at every location after it. */
  total_balance: exactText,
  reason: z.enum(ADJUSTMENT_REASONS).nullable(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  partner: namedRef,
  user: namedRef,
});
export type StockRecord = z.output<typeof StockRecordSchema>;

export const StockRecordsQuerySchema = z.object({
  product_id: optionalId,
  location_id: optionalId,
  kind: z.enum(STOCK_RECORD_KINDS).optional(),
  from: stockDay.optional(),
  to: text().trim().max(10).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(50),
  excel: flag,
});

export const StockRecordsResponseSchema = z.object({ stockrecords: z.array(StockRecordSchema), totalRecords: z.number() });

export const StockMovementAnswerSchema = z.object({
  message: z.string(),
  movement_id: z.string(),
  /** False when the same request had already been recorded: nothing new was written. */
  created: z.boolean(),
  records: z.array(StockRecordSchema),
});

/** A product with its stock: on hand at each location and in all, its average cost and value. */
export const StockOnHandSchema = z.object({
  id: z.string(),
  code: z.string(),
  barcode: z.string().nullable(),
  name: z.string(),
  kind: z.enum(PRODUCT_KINDS),
  unit: z.string(),
  fractional: z.boolean(),
  group: namedRef,
  price: exactText,
  reorder_level: exactText,
  /** location id -> quantity on hand there. */
  locations: z.record(z.string(), exactText),
  on_hand: exactText,
  avg_cost: exactText,
  value: exactText,
  /** On hand at or below the reorder level (with a reorder level set). */
  low: z.boolean(),
});
export type StockOnHand = z.output<typeof StockOnHandSchema>;

export const StockOnHandQuerySchema = z.object({
  search: text().trim().max(100).optional(),
  group_id: optionalId,
  location_id: optionalId,
  /** Only products at or below their reorder level. */
  low: flag,
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(25),
  excel: flag,
});

export const StockOnHandResponseSchema = z.object({
  products: z.array(StockOnHandSchema),
  locations: z.array(z.object({ id: z.string(), name: z.string(), code: z.string().nullable() })),
  totalRecords: z.number(),
});

/** A code or barcode as typed or scanned: the product it names, with its stock. */
export const StockLookupQuerySchema = z.object({ code: text(S.productRequired).trim().min(1, S.productRequired).max(64) });
export const StockLookupResponseSchema = z.object({ product: StockOnHandSchema });

export const StockValuationQuerySchema = z.object({
  group_id: optionalId,
  location_id: optionalId,
  excel: flag,
});
export const StockValuationResponseSchema = z.object({
  rows: z.array(
    z.object({
      product_id: z.string(),
      code: z.string(),
      name: z.string(),
      unit: z.string(),
      group: namedRef,
      quantity: exactText,
      avg_cost: exactText,
      value: exactText,
    }),
  ),
  total_value: exactText,
  totalRecords: z.number(),
});

export const BusinessSettingsSchema = z.object({ allow_negative_stock: z.boolean() });
export const BusinessSettingsInputSchema = z.strictObject({ allow_negative_stock: z.boolean() });

/** The business dashboard (issue 31 point 7). */
export const BusinessHomeSchema = z.object({
  stock_value: exactText,
  low_stock: z.number(),
  movements_today: z.number(),
  products: z.number(),
  locations: z.number(),
});

/** `/api/uploads`: the product list or the opening stock from a spreadsheet. */
export const BUSINESS_UPLOAD_KINDS = ['products', 'openingstock'] as const;
export const BusinessUploadFieldsSchema = z.strictObject({
  kind: z.enum(BUSINESS_UPLOAD_KINDS),
  /** The opening stock's location. */
  location_id: optionalId,
  /** The opening stock's day (default today). */
  occurred_on: stockDay.optional(),
});

/** The countries of the business form (spec §3): code, letter group, name. */
export const CountriesResponseSchema = z.object({
  countries: z.array(z.object({ code: z.string(), group: z.string(), name: z.string() })),
  totalRecords: z.number(),
});
