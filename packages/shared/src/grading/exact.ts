import Fraction from 'fraction.js';

/*
 * Exact arithmetic for marks (guide grading.md, "Exact arithmetic"). Marks have at most one
 * decimal and proportions are percentages, so every combined mark (a percentage of a maximum,
 * a weighted total, the mean of papers, a learner's average) is a rational number. Summed in
 * binary floating point, 58 out of 100 becomes 57.99999999999999% and an exact 60 takes the band
 * below (a card printing "60 C6"). So marks are combined as fractions (fraction.js, BigInt
 * numerators and denominators) and compared with band bounds as fractions; a float is made only
 * to hand a number out (the model, an explanation), never to decide anything.
 */

export type Exact = Fraction;

/**
 * A stored number as the exact value it was written as: 58.3 is 583/10. The float's shortest
 * decimal form (what String gives, and what the database sent) is read digit for digit; reading
 * the float itself (fraction.js's continued fractions) costs about 50 times as long, which a
 * class's report of thousands of marks feels.
 */
export function exact(value: number | Exact): Exact {
  if (value instanceof Fraction) return value;
  if (Number.isInteger(value)) return new Fraction(BigInt(value), 1n);
  const written = String(value);
  const decimal = /^(-?)(\d+)\.(\d+)$/.exec(written);
  if (!decimal) return new Fraction(value);
  const [, sign, whole, fraction] = decimal as unknown as [string, string, string, string];
  return new Fraction(BigInt(`${sign}${whole}${fraction}`), 10n ** BigInt(fraction.length));
}

const ZERO = new Fraction(0n, 1n);
const HUNDRED = new Fraction(100n, 1n);

/** The sum of exact values (0 for none). */
export function exactSum(values: ReadonlyArray<Exact>): Exact {
  if (values.length === 1) return values[0] as Exact;
  return values.reduce<Exact>((sum, value) => sum.add(value), ZERO);
}

/** The mean of exact values; null for none. */
export function exactMean(values: ReadonlyArray<Exact>): Exact | null {
  if (values.length === 0) return null;
  return values.length === 1 ? (values[0] as Exact) : exactSum(values).div(exact(values.length));
}

/** A percentage of a maximum: `value` out of `maximum` as a share of 100 (26.5 of 50 is 53). */
export function exactPercent(value: number | Exact, maximum: number | Exact): Exact {
  return maximum === 100 ? exact(value) : exact(value).mul(HUNDRED).div(exact(maximum));
}

/** `percent` percent of `value` (a weighted part of a total: 60% of 58 is 34.8). */
export function percentOf(value: Exact, percent: number | Exact): Exact {
  return value.mul(exact(percent)).div(HUNDRED);
}

/** The number to hand out (model, explanation): the nearest float to the exact value. */
export function toNumber(value: Exact): number;
export function toNumber(value: Exact | null): number | null;
export function toNumber(value: Exact | null): number | null {
  return value === null ? null : value.valueOf();
}

/** Whether `bound <= value`, exactly (the test of a band's lower bound). */
export function atLeast(value: number | Exact, bound: number | Exact): boolean {
  return exact(value).gte(exact(bound));
}

/** Orders two values exactly: negative when a < b, 0 when equal, positive when a > b. */
export function compareExact(a: number | Exact, b: number | Exact): number {
  return exact(a).compare(exact(b));
}

/**
 * `value` rounded half up to `places` decimals, exactly (59.5 to 60, 59.95 to 60.0 at one
 * decimal, 59.94 to 59.9): what a school that rounds the subject mark before grading prints and
 * grades. Marks are never negative; a negative value rounds half towards +infinity.
 */
export function exactRound(value: Exact, places: number): Exact {
  const unit = new Fraction(1n, 10n ** BigInt(places));
  return value.div(unit).add(new Fraction(1n, 2n)).floor().mul(unit);
}
