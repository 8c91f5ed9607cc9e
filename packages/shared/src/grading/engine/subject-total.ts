import { ABSENT, DEFAULT_MARK_MAXIMUM, type MarkValue } from '../../marks/cells.js';
import { bandFor, type GradeBand } from '../bands.js';
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
  /** The total out of 100, or null when a mark it needs is missing. */
  total: number | null;
  /** Each mark as a percentage (null when absent or missing), in the order given. */
  marks: Array<{ markType: string; percent: number | null }>;
  /** What the report must say beside the total (proportions not adding up to 100). */
  warnings: Explanation[];
}

const EPSILON = 1e-9;

function markExplanation(mark: SubjectMark): { percent: number | null; explain: Explanation } {
  if (mark.value === ABSENT) return { percent: null, explain: explanation('mark.absent', { markType: mark.markType }) };
  if (mark.value === null) return { percent: null, explain: explanation('mark.missing', { markType: mark.markType }) };
  const maximum = mark.maximum ?? DEFAULT_MARK_MAXIMUM;
  const percent = (mark.value / maximum) * 100;
  return { percent, explain: explanation('mark.scaled', { markType: mark.markType, raw: mark.value, maximum, percent }) };
}

/**
 * A subject's total out of 100 from its marks. With proportions for the subject (any mark type
 * named): the sum of each mark's percentage times its proportion, not scaled when the
 * proportions miss 100 (a warning says so). Without: one mark type is that mark, several are
 * their average (the raw marks stay in `marks`).
 */
export function subjectTotal(marks: ReadonlyArray<SubjectMark>, proportions: Proportions = {}): Explained<SubjectTotal> {
  const read = marks.map((mark) => ({ mark, ...markExplanation(mark) }));
  const percents = read.map(({ mark, percent }) => ({ markType: mark.markType, percent }));
  const weightedTypes = Object.keys(proportions);

  if (weightedTypes.length > 0) {
    const warnings: Explanation[] = [];
    const sum = weightedTypes.reduce((total, markType) => total + (proportions[markType] ?? 0), 0);
    if (Math.abs(sum - 100) > EPSILON) warnings.push(explanation('subjectTotal.proportionsNot100', { sum }));
    const notWeighted = read
      .filter(({ mark }) => proportions[mark.markType] === undefined)
      .map(({ mark }) => explanation('subjectTotal.notWeighted', { markType: mark.markType }));
    const parts: Explanation[] = [];
    const missing: string[] = [];
    let total = 0;
    for (const markType of weightedTypes) {
      const proportion = proportions[markType] ?? 0;
      const found = read.find(({ mark }) => mark.markType === markType);
      if (!found || found.percent === null) {
        missing.push(markType);
        parts.push(found?.explain ?? explanation('mark.missing', { markType }));
        continue;
      }
      const contribution = (found.percent * proportion) / 100;
      total += contribution;
      parts.push(found.explain, explanation('subjectTotal.weightedPart', { markType, percent: found.percent, proportion, contribution }));
    }
    if (missing.length > 0) {
      return {
        value: { total: null, marks: percents, warnings },
        explain: explanation('subjectTotal.incomplete', { markTypes: missing }, [...parts, ...notWeighted, ...warnings]),
      };
    }
    return {
      value: { total, marks: percents, warnings },
      explain: explanation('subjectTotal.weighted', { total }, [...parts, ...notWeighted, ...warnings]),
    };
  }

  const present = read.filter((entry): entry is typeof entry & { percent: number } => entry.percent !== null);
  const leftOut = read
    .filter((entry) => entry.percent === null)
    .flatMap(({ mark, explain }) => [explain, explanation('subjectTotal.leftOut', { markType: mark.markType })]);
  if (present.length === 0) {
    return { value: { total: null, marks: percents, warnings: [] }, explain: explanation('subjectTotal.noMarks', {}, leftOut) };
  }
  if (read.length === 1 && present[0]) {
    const only = present[0];
    return {
      value: { total: only.percent, marks: percents, warnings: [] },
      explain: explanation('subjectTotal.single', { markType: only.mark.markType, total: only.percent }, [only.explain]),
    };
  }
  const total = present.reduce((sum, entry) => sum + entry.percent, 0) / present.length;
  return {
    value: { total, marks: percents, warnings: [] },
    explain: explanation('subjectTotal.average', { total, count: present.length, marks: present.map((entry) => entry.percent) }, [
      ...present.map((entry) => entry.explain),
      ...leftOut,
    ]),
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
  total: number | null,
  bands: Iterable<GradeBand>,
  rules: GradingRules = DEFAULT_GRADING_RULES,
): Explained<SubjectGrade> {
  if (total === null) return { value: { grade: null, value: null }, explain: explanation('grade.noMark') };
  const band = bandFor(bands, total);
  if (!band) return { value: { grade: null, value: null }, explain: explanation('grade.noBand', { mark: total }) };
  const value = gradeValueOf(band.grade, rules);
  const explain = explanation('grade.band', { mark: total, grade: band.grade, lower: band.lower, upper: band.upper, value });
  if (value === null)
    return {
      value: { grade: band.grade, value },
      explain: { ...explain, parts: [explanation('grade.unknownLabel', { grade: band.grade })] },
    };
  return { value: { grade: band.grade, value }, explain };
}
