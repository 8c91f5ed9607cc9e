import DecimalJs from 'decimal.js';
import { z } from 'zod';
import { BUSINESS_MESSAGES as M } from './messages.js';

/**
 * Money and quantities are exact decimals (guide business.md): PostgreSQL `numeric` in the
 * database, decimal.js here, text on the wire ("12500", "0.125"), never a float. A Decimal of
 * its own: the settings of the global one are the library's users', not ours.
 */
export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP });
export type Decimal = InstanceType<typeof Decimal>;

const DECIMAL = /^-?\d{1,17}(\.\d{1,8})?$/;

/** Decimals after the point in a decimal text ("12.50" has 2). */
export function decimalsOf(value: string): number {
  const point = value.indexOf('.');
  return point < 0 ? 0 : value.length - point - 1;
}

/** Whether `value` has at most `places` decimals that are not zero ("12.50" fits 1). */
export function fitsDecimals(value: string, places: number): boolean {
  return new Decimal(value).decimalPlaces() <= places;
}

/**
 * An amount or quantity as a person types it (a number or text, spaces and thousands commas
 * allowed: "12,500"), normalised to plain decimal text; `message` when it is no number. Bounds
 * and decimals are the caller's (`.refine`), as they depend on the field and the currency.
 */
export function decimalText(message: string = M.amountInvalid) {
  return z.preprocess(
    (value) => {
      if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value;
      if (typeof value !== 'string') return value;
      return value.trim().replace(/[\s,]/g, '');
    },
    z
      .string({ error: message })
      .regex(DECIMAL, { error: message })
      .transform((value) => new Decimal(value).toFixed()),
  );
}

/** An amount of 0 or more (a price, a cost, a limit). */
export const amountText = decimalText(M.amountInvalid).refine((value) => !value.startsWith('-'), { error: M.amountInvalid });

/** A rate in percent from 0 to 100, up to 4 decimals. */
export const rateText = decimalText(M.rateInvalid).refine(
  (value) => {
    const rate = new Decimal(value);
    return rate.gte(0) && rate.lte(100) && rate.decimalPlaces() <= 4;
  },
  { error: M.rateInvalid },
);

/** Numbers as the spec shows them (§9): US English with thousands separators. */
export function formatAmount(value: string | number, decimals = 0): string {
  const exact = new Decimal(value).toDecimalPlaces(decimals);
  const [whole = '0', fraction] = exact.abs().toFixed(decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${exact.isNegative() && !exact.isZero() ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
