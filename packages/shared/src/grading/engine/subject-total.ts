import { ABSENT, DEFAULT_MARK_MAXIMUM, type MarkValue } from '../../marks/cells.js';
import { bandFor, type GradeBand } from '../bands.js';
import { type Exact, exact, exactMean, exactPercent, exactSum, percentOf, toNumber } from '../exact.js';
import { type Explained, type Explanation, explanation } from './explain.js';
import { DEFAULT_GRADING_RULES, type GradingRules } from './rules.js';

/*
 * Marks to a subject total, and a total to a grade (guide grading.md, "Marks to a subject mark"
 * and "Subject mark to grade").
 *
 * A missing mark (ABS or none) is never 0. How a total treats one:
 * - with proportions, a weighted mark type without a mark leaves the subject with NO total
 *   (null), naming the mark types: counting it as 0 would fail the learner, and re-weighting
 *   the others would be the silent scaling the guide forbids;
 * - without proportions, the average is of the marks the learner has, and the explanation
 *   names each one left out; with no mark at all there is no total.
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
 * proportions miss 100 (a warning says so). Without: one mark type is that mark, several are
 * their average (the raw marks stay in `marks`).
 */
export function subjectTotal(marks: ReadonlyArray<SubjectMark>, proportions: Proportions = {}): Explained<SubjectTotal> {
  const read = marks.map(readMark);
  const percents = read.map(({ mark, percent }) => ({ markType: mark.markType, percent: toNumber(percent) }));
  const weightedTypes = Object.keys(proportions);
  const result = (total: Exact | null, warnings: Explanation[] = []): SubjectTotal => ({
    total: toNumber(total),
    exact: total,
    marks: percents,
    warnings,
  });

  if (weightedTypes.length > 0) {
    const warnings: Explanation[] = [];
    const sum = exactSum(weightedTypes.map((markType) => exact(proportions[markType] ?? 0)));
    if (!sum.equals(exact(100))) warnings.push(explanation('subjectTotal.proportionsNot100', { sum: toNumber(sum) }));
    const notWeighted = read
      .filter(({ mark }) => proportions[mark.markType] === undefined)
      .map(({ mark }) => explanation('subjectTotal.notWeighted', { markType: mark.markType }));
    const parts: Explanation[] = [];
    const missing: string[] = [];
    const contributions: Exact[] = [];
    for (const markType of weightedTypes) {
      const proportion = proportions[markType] ?? 0;
      const found = read.find(({ mark }) => mark.markType === markType);
      if (!found || found.percent === null) {
        missing.push(markType);
        parts.push(found?.explain ?? explanation('mark.missing', { markType }));
        continue;
      }
      const contribution = percentOf(found.percent, proportion);
      contributions.push(contribution);
      parts.push(
        found.explain,
        explanation('subjectTotal.weightedPart', {
          markType,
          percent: toNumber(found.percent),
          proportion,
          contribution: toNumber(contribution),
        }),
      );
    }
    if (missing.length > 0) {
      return {
        value: result(null, warnings),
        explain: explanation('subjectTotal.incomplete', { markTypes: missing }, [...parts, ...notWeighted, ...warnings]),
      };
    }
    const total = exactSum(contributions);
    return {
      value: result(total, warnings),
      explain: explanation('subjectTotal.weighted', { total: toNumber(total) }, [...parts, ...notWeighted, ...warnings]),
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
