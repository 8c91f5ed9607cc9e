import { Decimal } from './money.js';

/*
 * The stock ledger's arithmetic (issue 31 point 4; guide business.md): stock on hand is the sum of
 * a product's signed movements, and its value follows the moving average. Pure and exact: the
 * server keeps `stock_levels` and `stock_valuations` with these very rules inside each movement's
 * transaction, and the tests fold the ledger with them to prove the kept figures.
 *
 * Rounding, decided once: a quantity has at most 3 decimals (numeric(20, 3)), a value and a unit
 * cost at most 4 (numeric(24, 4), numeric(20, 4)), half up. The average cost is never stored: it
 * is value / quantity whenever asked, so no rounded average feeds the next movement. An issue
 * takes quantity × (value / quantity) rounded to 4 decimals, and the issue that empties the
 * product takes all the value that is left: what went in comes out to the last shilling, and the
 * value never drifts from 0 when nothing is on hand.
 */

/** Decimals a value or a unit cost keeps. */
export const STOCK_VALUE_DECIMALS = 4;
/** Decimals a quantity keeps. */
export const STOCK_QUANTITY_DECIMALS = 3;

/** A product's stock in all locations: how much and what it cost, in the default currency. */
export interface StockValuation {
  quantity: Decimal;
  value: Decimal;
}

type Amount = Decimal | string | number;

const money = (value: Decimal) => value.toDecimalPlaces(STOCK_VALUE_DECIMALS, Decimal.ROUND_HALF_UP);

export const emptyStockValuation = (): StockValuation => ({ quantity: new Decimal(0), value: new Decimal(0) });

/** Stock on hand: the sum of the signed quantities moved. */
export function stockOnHand(quantities: ReadonlyArray<Amount>): Decimal {
  return quantities.reduce<Decimal>((sum, quantity) => sum.plus(quantity), new Decimal(0));
}

/**
 * The average cost of one unit, exact to 4 decimals (for showing and for costing an issue line);
 * 0 while nothing is on hand or the stock is negative (no meaningful average).
 */
export function averageStockCost(valuation: StockValuation): Decimal {
  if (valuation.quantity.lte(0)) return new Decimal(0);
  return money(valuation.value.div(valuation.quantity));
}

/**
 * Goods coming in at `unitCost` each (a purchase, an opening balance, a return at cost). Into
 * negative stock (allowed by the business) the units owed were issued at no value: only what is
 * left above zero is valued, at this receipt's cost.
 */
export function receiveStock(valuation: StockValuation, quantity: Amount, unitCost: Amount): StockValuation {
  const total = valuation.quantity.plus(quantity);
  if (valuation.quantity.lt(0)) return { quantity: total, value: total.gt(0) ? money(total.times(unitCost)) : new Decimal(0) };
  return { quantity: total, value: money(valuation.value.plus(new Decimal(quantity).times(unitCost))) };
}

/**
 * Goods going out at the average cost: answers the new valuation and the value taken. The issue
 * that leaves nothing (or less) on hand takes all the value left, so no remainder of rounding
 * stays behind; with negative stock allowed the value stays at 0 below zero and an issue from
 * 0 or less takes nothing.
 */
export function issueStock(valuation: StockValuation, quantity: Amount): { valuation: StockValuation; taken: Decimal } {
  const moved = new Decimal(quantity);
  const left = valuation.quantity.minus(moved);
  let taken: Decimal;
  if (valuation.quantity.lte(0)) taken = new Decimal(0);
  else if (left.lte(0)) taken = valuation.value;
  else taken = money(valuation.value.times(moved).div(valuation.quantity));
  return { valuation: { quantity: left, value: valuation.value.minus(taken) }, taken };
}

/** The unit cost a line coming in without a cost of its own is recorded with: the average, else `fallbackCost`. */
export function inboundStockCost(valuation: StockValuation, fallbackCost: Amount = 0): Decimal {
  return valuation.quantity.gt(0) ? averageStockCost(valuation) : money(new Decimal(fallbackCost));
}

/**
 * Goods found or counted more without a cost: they come in at the current average (as recorded,
 * to 4 decimals, so the ledger's own unit costs refold to the same value); from nothing on hand
 * at `fallbackCost`, the product's cost.
 */
export function adjustStockIn(valuation: StockValuation, quantity: Amount, fallbackCost: Amount = 0): StockValuation {
  return receiveStock(valuation, quantity, inboundStockCost(valuation, fallbackCost));
}

/** One movement of a product, as the ledger holds it (signed quantity; a unit cost for what comes in at a cost). */
export interface StockLedgerStep {
  kind: 'in' | 'out' | 'transfer';
  quantity: Amount;
  /** For `in`: the cost of one unit; none means the current average (an adjustment in). */
  unitCost?: Amount;
}

/**
 * The valuation after a sequence of movements: what the server keeps, refolded. A transfer
 * moves stock between locations of one product: its value is unchanged.
 */
export function foldStockValuation(steps: ReadonlyArray<StockLedgerStep>, start: StockValuation = emptyStockValuation()): StockValuation {
  return steps.reduce<StockValuation>((valuation, step) => {
    if (step.kind === 'transfer') return valuation;
    if (step.kind === 'out') return issueStock(valuation, step.quantity).valuation;
    return step.unitCost === undefined ? adjustStockIn(valuation, step.quantity) : receiveStock(valuation, step.quantity, step.unitCost);
  }, start);
}
