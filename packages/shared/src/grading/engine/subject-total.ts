import { ABSENT, DEFAULT_MARK_MAXIMUM, type MarkValue } from '../../marks/cells.js';
import { bandFor, type GradeBand } from '../bands.js';
import { type Exact, exact, exactMean, exactPercent, exactRound, exactSum, percentOf, toNumber } from '../exact.js';
import { type Explained, type Explanation, explanation } from './explain.js';
import { DEFAULT_GRADING_RULES, DEFAULT_MISSED_RULE, type GradingRules, type MarkRounding, type MissedMarkRule } from './rules.js';

/*
 * Marks to a subject total, and a total to a grade (guide grading.md, "Marks to a subject mark"
 * and "Subject mark to grade").
 *
 * A missing mark (ABS or none) is never silently 0. How a total treats one:
 * - with proportions, a weighted mark type without a mark is missed, and the school's rule
 *   (grading rules `missed`) says what the total is: `reweight` (the default) scales the
 *   proportions of the mark types sat up to the whole, `zero` counts the missed part as 0, `none`
 *   leaves the subject with NO total (null); every rule names the mark types missed, and a
 *   subject with no weighted mark at all has no total under every rule;
 * - without proportions, the average is of the marks the learner has, and the explanation
 *   names each one left out; with no mark at all there is no total.
 * A school may round the subject mark before grading (grading rules `rounding`, subjectMark):
 * the rounded mark is then the one graded and printed.
 */

/** One mark of a subject: its mark type, the mark, and the mark type's maximum (default 100). */
export interface SubjectMark {
  markType: string;
  value: MarkValue;
  maximum?: number;
}

/** The percentage each mark type weighs in the subject total (BOT 20, MOT 30, EOT 50). */
export type Proportions = Readonly<Record<string, number>>;

export interface SubjectTotal {
  /** The total out of 100, or null when a mark it needs is missing (a float of `exact`, to hand out). */
  total: number | null;
  /** The total exactly (grading/exact.ts): what grades, means and ranks are computed from. */
  exact: Exact | null;
  /** Each mark as a percentage (null when absent or missing), in the order given. */
  marks: Array<{ markType: string; percent: number | null }>;
  /** What the report must say beside the total (proportions not adding up to 100). */
  warnings: Explanation[];
  /** The weighted mark types missed and re-weighted or counted 0 (the card's "MOT ABS"); empty otherwise. */
  missed: string[];
}

/** A mark read: its percentage exactly (null when absent or missing) and the explanation of it. */
interface ReadMark {
  mark: SubjectMark;
  percent: Exact | null;
  explain: Explanation;
}

function readMark(mark: SubjectMark): ReadMark {
  if (mark.value === ABSENT) return { mark, percent: null, explain: explanation('mark.absent', { markType: mark.markType }) };
  if (mark.value === null) return { mark, percent: null, explain: explanation('mark.missing', { markType: mark.markType }) };
  const maximum = mark.maximum ?? DEFAULT_MARK_MAXIMUM;
  const percent = exactPercent(mark.value, maximum);
  return {
    mark,
    percent,
    explain: explanation('mark.scaled', { markType: mark.markType, raw: mark.value, maximum, percent: toNumber(percent) }),
  };
}

/**
 * A subject's total out of 100 from its marks. With proportions for the subject (any mark type
 * named): the sum of each mark's percentage times its proportion, not scaled when the
 * proportions miss 100 (a warning says so); a weighted mark type missed is treated by `missed`
 * (the school's rule, see the file's head). Without: one mark type is that mark, several are
 * their average (the raw marks stay in `marks`).
 */
export function subjectTotal(
  marks: ReadonlyArray<SubjectMark>,
  proportions: Proportions = {},
  missedRule: MissedMarkRule = DEFAULT_MISSED_RULE,
): Explained<SubjectTotal> {
  const read = marks.map(readMark);
  const percents = read.map(({ mark, percent }) => ({ markType: mark.markType, percent: toNumber(percent) }));
  const weightedTypes = Object.keys(proportions);
  const result = (total: Exact | null, warnings: Explanation[] = [], missed: string[] = []): SubjectTotal => ({
    total: toNumber(total),
    exact: total,
    marks: percents,
    warnings,
    missed,
  });

  if (weightedTypes.length > 0) {
    const warnings: Explanation[] = [];
    const whole = exactSum(weightedTypes.map((markType) => exact(proportions[markType] ?? 0)));
    if (!whole.equals(exact(100))) warnings.push(explanation('subjectTotal.proportionsNot100', { sum: toNumber(whole) }));
    const notWeighted = read
      .filter(({ mark }) => proportions[mark.markType] === undefined)
      .map(({ mark }) => explanation('subjectTotal.notWeighted', { markType: mark.markType }));
    const sat: Array<{ markType: string; percent: Exact; proportion: number; contribution: Exact; explain: Explanation }> = [];
    const missed: Array<{ markType: string; absent: boolean; explain: Explanation }> = [];
    for (const markType of weightedTypes) {
      const proportion = proportions[markType] ?? 0;
      const found = read.find(({ mark }) => mark.markType === markType);
      if (!found || found.percent === null) {
        missed.push({
          markType,
          absent: found?.mark.value === ABSENT,
          explain: found?.explain ?? explanation('mark.missing', { markType }),
        });
      } else {
        sat.push({
          markType,
          percent: found.percent,
          proportion,
          contribution: percentOf(found.percent, proportion),
          explain: found.explain,
        });
      }
    }
    const missedTypes = missed.map((each) => each.markType);
    const satProportion = exactSum(sat.map((each) => exact(each.proportion)));
    // What the total rests on, in the order of the proportions: each part sat and its weight, each part missed.
    const parts = (missedPart: (each: (typeof missed)[number]) => Explanation) =>
      weightedTypes.flatMap((markType) => {
        const part = sat.find((each) => each.markType === markType);
        if (part) {
          return [
            part.explain,
            explanation('subjectTotal.weightedPart', {
              markType,
              percent: toNumber(part.percent),
              proportion: part.proportion,
              contribution: toNumber(part.contribution),
            }),
          ];
        }
        const gone = missed.find((each) => each.markType === markType);
        return gone ? [missedPart(gone)] : [];
      });
    const sum = exactSum(sat.map((each) => each.contribution));

    if (missed.length === 0) {
      return {
        value: result(sum, warnings),
        explain: explanation('subjectTotal.weighted', { total: toNumber(sum) }, [
          ...parts((each) => each.explain),
          ...notWeighted,
          ...warnings,
        ]),
      };
    }
    // No mark sat (or only parts weighing nothing): no total, whatever the school's rule.
    if (missedRule === 'none' || sat.length === 0 || (missedRule === 'reweight' && satProportion.equals(0))) {
      const code = missedRule === 'none' || sat.length > 0 ? 'subjectTotal.incomplete' : 'subjectTotal.noMarks';
      return {
        value: result(null, warnings),
        explain: explanation(code, code === 'subjectTotal.incomplete' ? { markTypes: missedTypes } : {}, [
          ...parts((each) => each.explain),
          ...notWeighted,
          ...warnings,
        ]),
      };
    }
    if (missedRule === 'zero') {
      const zeroParts = parts((each) => explanation('mark.missedZero', { markType: each.markType, absent: each.absent }));
      return {
        value: result(sum, warnings, missedTypes),
        explain: explanation('subjectTotal.missedZero', { total: toNumber(sum), markTypes: missedTypes }, [
          ...zeroParts,
          ...notWeighted,
          ...warnings,
        ]),
      };
    }
    // Re-weighted: the parts sat, out of their proportions, scaled up to the whole proportions (100).
    const total = sum.mul(whole).div(satProportion);
    const reweightParts = parts((each) => explanation('mark.missedReweighted', { markType: each.markType, absent: each.absent }));
    return {
      value: result(total, warnings, missedTypes),
      explain: explanation(
        'subjectTotal.reweighted',
        {
          total: toNumber(total),
          markTypes: missedTypes,
          sum: toNumber(sum),
          sat: toNumber(satProportion),
          whole: toNumber(whole),
        },
        [...reweightParts, ...notWeighted, ...warnings],
      ),
    };
  }

  const present = read.filter((entry): entry is ReadMark & { percent: Exact } => entry.percent !== null);
  const leftOut = read
    .filter((entry) => entry.percent === null)
    .flatMap(({ mark, explain }) => [explain, explanation('subjectTotal.leftOut', { markType: mark.markType })]);
  const mean = exactMean(present.map((entry) => entry.percent));
  if (mean === null) {
    return { value: result(null), explain: explanation('subjectTotal.noMarks', {}, leftOut) };
  }
  if (read.length === 1 && present[0]) {
    const only = present[0];
    return {
      value: result(only.percent),
      explain: explanation('subjectTotal.single', { markType: only.mark.markType, total: toNumber(only.percent) }, [only.explain]),
    };
  }
  return {
    value: result(mean),
    explain: explanation(
      'subjectTotal.average',
      { total: toNumber(mean), count: present.length, marks: present.map((entry) => toNumber(entry.percent)) },
      [...present.map((entry) => entry.explain), ...leftOut],
    ),
  };
}

/** The decimals each rounding rule rounds a subject mark to (null: not rounded). */
const ROUNDING_PLACES: Record<MarkRounding, number | null> = { none: null, whole: 0, oneDecimal: 1 };

/**
 * The subject mark that is graded and printed (grading rules `rounding`): the exact total under
 * `none` (printed cut to two decimals), else the total rounded half up to a whole number or one
 * decimal, exactly, explained as such and resting on the total's explanation. Either way the
 * printed mark and its grade agree: the grade is of the mark printed.
 */
export function subjectMark(total: Explained<Exact | null>, rounding: MarkRounding): Explained<Exact | null> {
  const places = ROUNDING_PLACES[rounding];
  if (places === null || total.value === null) return total;
  const rounded = exactRound(total.value, places);
  return {
    value: rounded,
    explain: explanation('subjectTotal.rounded', { total: toNumber(rounded), exact: toNumber(total.value), to: rounding }, [total.explain]),
  };
}

export interface SubjectGrade {
  grade: string | null;
  /** The grade's value in the school's rules (D1 1 .. F9 9), null without a grade or a value. */
  value: number | null;
}

/** The value of a grade label under the rules (case-insensitive), or null when it has none. */
export function gradeValueOf(grade: string, rules: GradingRules = DEFAULT_GRADING_RULES): number | null {
  const wanted = grade.trim().toUpperCase();
  return rules.grades.values.find((entry) => entry.label.toUpperCase() === wanted)?.value ?? null;
}

/** The grade of a subject total under a grade set's bands (the existing bandFor), with the band it fell in. */
export function gradeOfTotal(
  total: number | Exact | null,
  bands: Iterable<GradeBand>,
  rules: GradingRules = DEFAULT_GRADING_RULES,
): Explained<SubjectGrade> {
  if (total === null) return { value: { grade: null, value: null }, explain: explanation('grade.noMark') };
  const band = bandFor(bands, total);
  const mark = typeof total === 'number' ? total : toNumber(total);
  if (!band) return { value: { grade: null, value: null }, explain: explanation('grade.noBand', { mark }) };
  const value = gradeValueOf(band.grade, rules);
  const explain = explanation('grade.band', { mark, grade: band.grade, lower: band.lower, upper: band.upper, value });
  if (value === null)
    return {
      value: { grade: band.grade, value },
      explain: { ...explain, parts: [explanation('grade.unknownLabel', { grade: band.grade })] },
    };
  return { value: { grade: band.grade, value }, explain };
}
