import { type Exact, exact } from './exact.js';

/*
 * Grade bands: how a subject mark becomes a grade (guide grading.md, "Subject mark to grade").
 * A grade set (per subject, class, term and year) is a list of bands; the school edits it, these
 * are the defaults a new set starts from.
 */

/** One band of a grade set: the marks from `lower` to `upper` (whole numbers) take `grade`. */
export interface GradeBand {
  grade: string;
  lower: number;
  upper: number;
}

/** The kinds of a new grade set (spec §3): D1..F9, or the "lower" A+..D. */
export const GRADE_SET_TYPES = ['default', 'lower'] as const;
export type GradeSetType = (typeof GRADE_SET_TYPES)[number];

/**
 * The default bands of each kind (grading.md: D1 80-100 ... F9 0-34, and the "lower" type's
 * A+ .. D). Published tables disagree [W]: these are a starting point the school edits.
 */
export const DEFAULT_GRADE_BANDS: Record<GradeSetType, ReadonlyArray<readonly [grade: string, lower: number, upper: number]>> = {
  default: [
    ['D1', 80, 100],
    ['D2', 75, 79],
    ['C3', 70, 74],
    ['C4', 65, 69],
    ['C5', 60, 64],
    ['C6', 55, 59],
    ['P7', 45, 54],
    ['P8', 35, 44],
    ['F9', 0, 34],
  ],
  lower: [
    ['A+', 90, 100],
    ['A', 80, 89],
    ['B+', 70, 79],
    ['B', 60, 69],
    ['C+', 50, 59],
    ['C', 40, 49],
    ['D+', 30, 39],
    ['D', 0, 29],
  ],
};

/** The default bands of a kind as band records (what the grade-set form starts from). */
export function defaultGradeBands(type: GradeSetType = 'default'): GradeBand[] {
  return DEFAULT_GRADE_BANDS[type].map(([grade, lower, upper]) => ({ grade, lower, upper }));
}

/**
 * Whether a mark reaches a band's lower bound. A mark given exactly (a combined total) is
 * compared exactly: its float decides only when it is clearly on one side, since an exact 60 may
 * print as 59.99999999999999 once it is a float.
 */
function reaches(mark: number | Exact, lower: number): boolean {
  if (typeof mark === 'number') return lower <= mark;
  const near = mark.valueOf();
  if (Math.abs(near - lower) > 1e-6) return lower < near;
  return mark.gte(exact(lower));
}

/**
 * The band a mark falls in (grading.md: "a mark takes the grade with the highest `lower` that
 * is <= the mark"): bounds are whole numbers but marks may have decimals, so 74.5 is C3 and
 * 79.9 is D2 under the default set, and no mark falls in a gap between 74 and 75. Only lower
 * bounds decide; the bands need not be sorted. A mark below every band has none (undefined).
 * Of two bands with the same lower bound (a set the grade-set check refuses), the first wins.
 * A combined mark is passed exactly (grading/exact.ts), so a total of exactly 60 is 60.
 */
export function bandFor<Band extends Pick<GradeBand, 'lower'>>(bands: Iterable<Band>, mark: number | Exact): Band | undefined {
  let best: Band | undefined;
  for (const band of bands) {
    if (reaches(mark, band.lower) && (best === undefined || band.lower > best.lower)) best = band;
  }
  return best;
}

/** The grade of a mark under a set of bands (see bandFor), or null when no band reaches it. */
export function gradeFor<Band extends Pick<GradeBand, 'grade' | 'lower'>>(bands: Iterable<Band>, mark: number | Exact): string | null {
  return bandFor(bands, mark)?.grade ?? null;
}
