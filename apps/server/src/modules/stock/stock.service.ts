import {
  averageStockCost,
  BUSINESS_MESSAGES,
  Decimal,
  inboundStockCost,
  issueStock,
  receiveStock,
  SETTINGS_MESSAGES,
  STOCK_MESSAGES,
  type StockMovementInput,
  type StockRecord,
  type StockRecordKind,
  type StockValuation,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import type { TenantTx } from '../../db/tenant.js';
import { AppError, type FieldErrors, invalid } from '../../errors.js';
import {
  allowNegativeStock,
  defaultCurrencyDecimals,
  insertMovement,
  insertRecords,
  type LedgerRow,
  ledger,
  levelsOf,
  locationIds,
  lockValuations,
  movementOfRequest,
  type NewRecord,
  partnerRole,
  productsByIds,
  type StockProduct,
  saveLevels,
  saveValuations,
} from './stock.repository.js';

/*
 * Recording a stock movement (issue 31 point 4): one user action, one transaction. Its rows go to
 * the append-only ledger, and on hand per location and the moving-average value of each product
 * are kept beside it from the same figures (packages/shared business/stock.ts), under the
 * products' valuation row locks: two clerks moving the same product take turns, so no movement
 * is lost and no level is computed from a stale read.
 */

/**
 * What recording a movement takes: the action's transaction and who acts. A route hands its
 * `ActionContext` (`{ tx, member, school }`); a caller without a signed-in member (the demo
 * seed) hands `{ tx }` alone or with `userId`, and the movement is recorded as the
 * transaction's user (none for the seed).
 */
export interface StockContext {
  readonly tx: TenantTx;
  readonly member?: { readonly userId: string } | null;
  readonly userId?: string | null;
}

/**
 * A movement a document records through its service (issue 32): a sale takes stock out at the
 * moving-average cost, a sale return puts it back at the cost given (else the average). Only
 * services build these: the POST route's schema keeps refusing both kinds.
 */
export type ServiceMovementInput = Omit<StockMovementInput, 'kind'> & { kind: StockMovementInput['kind'] | 'sale' | 'sale_return' };

/** What `recordStockMovement` answers: the POST's answer. */
export interface RecordedMovement {
  message: string;
  movement_id: string;
  /** False when the request id was already recorded: nothing new was written. */
  created: boolean;
  records: StockRecord[];
}

/** A value that would not fit the valuation's numeric(24, 4). */
const MAX_VALUE = new Decimal('1e19');

const key = (productId: string, locationId: string) => `${productId}:${locationId}`;

/** A numeric as its shortest exact text ("10.000" -> "10"): the answer's serialiser runs no transform of exactText. */
export const exact = (value: string | number) => new Decimal(value).toFixed();

/** A ledger row as the contract shows it. */
export function toStockRecord(row: LedgerRow): StockRecord {
  return {
    id: row.id,
    movement_id: row.movement_id,
    occurred_on: row.occurred_on,
    created_at: row.created_at instanceof Date ? row.created_at.toISOString() : String(row.created_at),
    kind: row.kind,
    product_id: row.product_id,
    product: { code: row.product_code, name: row.product_name, unit: row.product_unit },
    location_id: row.location_id,
    location: row.location_name === null ? null : { name: row.location_name },
    quantity: exact(row.quantity),
    unit_cost: exact(row.unit_cost),
    balance: exact(row.balance),
    total_balance: exact(row.total_balance),
    reason: row.reason as StockRecord['reason'],
    reference: row.reference,
    note: row.note,
    partner: row.partner_name === null ? null : { name: row.partner_name },
    user: row.user_name === null ? null : { name: row.user_name },
  };
}

async function answerOf(tx: TenantTx, movementId: string, created: boolean): Promise<RecordedMovement> {
  const rows = await ledger(tx, { movement_id: movementId, page: 1, per_page: null });
  return {
    message: created ? STOCK_MESSAGES.recorded : STOCK_MESSAGES.alreadyRecorded,
    movement_id: movementId,
    created,
    records: rows.map(toStockRecord),
  };
}

/** The references a movement names, checked against the business's own records (another's are not found: 422 on the field). */
async function checkReferences(tx: TenantTx, input: ServiceMovementInput): Promise<Map<string, StockProduct>> {
  const errors: FieldErrors = {};
  const locations = await locationIds(tx, [input.location_id, ...(input.to_location_id ? [input.to_location_id] : [])]);
  if (!locations.has(input.location_id)) errors.location_id = [SETTINGS_MESSAGES.referenceMissing];
  if (input.to_location_id && !locations.has(input.to_location_id)) errors.to_location_id = [SETTINGS_MESSAGES.referenceMissing];
  if (input.partner_id) {
    const role = await partnerRole(tx, input.partner_id);
    if (role === undefined) errors.partner_id = [SETTINGS_MESSAGES.referenceMissing];
    // Goods are received from a supplier: a partner who only buys from the shop is not one.
    else if (input.kind === 'purchase' && role === 'customer') errors.partner_id = [STOCK_MESSAGES.supplierRequired];
  }
  const products = await productsByIds(tx, [...new Set(input.lines.map((line) => line.product_id))]);
  const decimals = (await defaultCurrencyDecimals(tx)) ?? 4;
  input.lines.forEach((line, index) => {
    const product = products.get(line.product_id);
    if (!product) errors[`lines.${index}.product_id`] = [SETTINGS_MESSAGES.referenceMissing];
    else if (!product.track_stock) errors[`lines.${index}.product_id`] = [STOCK_MESSAGES.productNotStocked];
    else if (!product.fractional && !new Decimal(line.quantity).isInteger())
      errors[`lines.${index}.quantity`] = [BUSINESS_MESSAGES.quantityWhole];
    // A cost a person types is in the currency's decimals; a sale return puts goods back at the cost
    // their sale took them out at, a moving average kept to 4 places.
    if (line.unit_cost !== undefined && input.kind !== 'sale_return' && new Decimal(line.unit_cost).decimalPlaces() > decimals)
      errors[`lines.${index}.unit_cost`] = [BUSINESS_MESSAGES.amountTooPrecise];
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return products;
}

/**
 * Records one movement (opening, purchase, adjustment in or out, transfer) in the caller's
 * transaction and answers its ledger rows with their balances. The same `request_id` again
 * (even at the same moment) records nothing and answers the first movement (`created: false`).
 * Refused with a 422 naming the field: another business's or an unknown product, location or
 * partner; a product that keeps no stock; a fraction of a product counted whole; a unit cost
 * finer than the default currency; a purchase from a partner who is only a customer; a line
 * that would take stock at its location below zero (unless the business allows it).
 * `input` is as StockMovementInputSchema parses it: a caller outside a route (an upload, the
 * seed) parses its movement with that schema first, which checks quantities, days and kinds.
 */
export async function recordStockMovement(context: StockContext, input: ServiceMovementInput): Promise<RecordedMovement> {
  const { tx } = context;
  const earlier = await movementOfRequest(tx, input.request_id);
  if (earlier) return answerOf(tx, earlier, false);
  const products = await checkReferences(tx, input);

  const movementId = newId();
  const inserted = await insertMovement(tx, {
    id: movementId,
    request_id: input.request_id,
    kind: input.kind,
    location_id: input.location_id,
    to_location_id: input.kind === 'transfer' ? (input.to_location_id ?? null) : null,
    partner_id: input.partner_id ?? null,
    reason: input.kind === 'adjustment' ? (input.reason ?? null) : null,
    reference: input.reference ?? null,
    note: input.note ?? null,
    occurred_on: input.occurred_on,
    created_by: context.member?.userId ?? context.userId ?? tx.userId ?? null,
  });
  // Another request with this id committed while this one was checking: answer it.
  if (!inserted) {
    const first = await movementOfRequest(tx, input.request_id);
    if (!first) throw new AppError(409);
    return answerOf(tx, first, false);
  }

  const productIds = [...products.keys()];
  const kept = await lockValuations(tx, productIds);
  const levels = await levelsOf(tx, productIds);
  const valuations = new Map<string, StockValuation>(
    [...kept].map(([id, row]) => [id, { quantity: new Decimal(row.quantity), value: new Decimal(row.value) }]),
  );
  const negativeAllowed = await allowNegativeStock(tx);
  const errors: FieldErrors = {};
  const records: NewRecord[] = [];
  const touched = new Set<string>();

  const level = (productId: string, locationId: string) => new Decimal(levels.get(key(productId, locationId)) ?? '0');
  const move = (index: number, productId: string, locationId: string, kind: StockRecordKind, quantity: Decimal, unitCost: Decimal) => {
    const after = level(productId, locationId).plus(quantity);
    if (after.lt(0) && !negativeAllowed) errors[`lines.${index}.quantity`] = [STOCK_MESSAGES.wouldGoNegative];
    levels.set(key(productId, locationId), after.toFixed());
    touched.add(key(productId, locationId));
    records.push({
      id: newId(),
      movement_id: movementId,
      line: records.length,
      product_id: productId,
      location_id: locationId,
      kind,
      quantity: quantity.toFixed(),
      unit_cost: unitCost.toFixed(),
      occurred_on: input.occurred_on,
    });
  };

  input.lines.forEach((line, index) => {
    const product = products.get(line.product_id);
    const valuation = valuations.get(line.product_id);
    if (!product || !valuation) return;
    const quantity = new Decimal(line.quantity);
    const goesOut = input.kind === 'transfer' || input.kind === 'sale' || (input.kind === 'adjustment' && input.direction === 'out');
    if (input.kind === 'transfer') {
      // Stock changes place, not value: both rows at the average cost, the valuation unchanged.
      const cost = averageStockCost(valuation);
      move(index, line.product_id, input.location_id, 'transfer_out', quantity.neg(), cost);
      move(index, line.product_id, input.to_location_id as string, 'transfer_in', quantity, cost);
    } else if (goesOut) {
      move(
        index,
        line.product_id,
        input.location_id,
        input.kind === 'sale' ? 'sale' : 'adjustment_out',
        quantity.neg(),
        averageStockCost(valuation),
      );
      valuations.set(line.product_id, issueStock(valuation, quantity).valuation);
    } else {
      // A purchase or opening at its cost; an adjustment in at its cost if given, else the average (else the product's cost).
      const cost = line.unit_cost !== undefined ? new Decimal(line.unit_cost) : inboundStockCost(valuation, product.cost);
      const kind: StockRecordKind =
        input.kind === 'adjustment' ? 'adjustment_in' : (input.kind as Exclude<typeof input.kind, 'adjustment' | 'transfer'>);
      move(index, line.product_id, input.location_id, kind, quantity, cost);
      const next = receiveStock(valuation, quantity, cost);
      if (next.value.abs().gte(MAX_VALUE)) errors[`lines.${index}.unit_cost`] = [BUSINESS_MESSAGES.amountInvalid];
      valuations.set(line.product_id, next);
    }
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);

  await insertRecords(tx, records);
  await saveLevels(
    tx,
    [...touched].map((pair) => {
      const [product_id = '', location_id = ''] = pair.split(':');
      return { product_id, location_id, on_hand: levels.get(pair) ?? '0' };
    }),
  );
  await saveValuations(
    tx,
    [...valuations].map(([product_id, valuation]) => ({
      product_id,
      quantity: valuation.quantity.toFixed(),
      value: valuation.value.toFixed(),
    })),
  );
  await recordAudit(tx, {
    action: 'create',
    entity: 'stock_movement',
    entityId: movementId,
    after: {
      request_id: input.request_id,
      kind: input.kind,
      direction: input.direction ?? null,
      location_id: input.location_id,
      to_location_id: input.to_location_id ?? null,
      partner_id: input.partner_id ?? null,
      reason: input.reason ?? null,
      occurred_on: input.occurred_on,
      lines: input.lines.map(({ product_id, quantity, unit_cost }) => ({ product_id, quantity, unit_cost: unit_cost ?? null })),
    },
  });
  return answerOf(tx, movementId, true);
}
