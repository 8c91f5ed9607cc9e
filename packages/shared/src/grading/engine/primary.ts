import { type Explained, type Explanation, explanation } from './explain.js';
import { type GradedSubject, noMarkReason } from './graded-subject.js';
import { DEFAULT_GRADING_RULES, type GradingRules } from './rules.js';

/*
 * Primary (PLE style, guide grading.md): the aggregate is the sum of the grade values of the
 * counted subjects (English, Mathematics, Science, Social Studies by default), and the division
 * is the first whose cap the aggregate does not pass. A counted subject without a mark (ABS or
 * nothing), or a counted category with no subject at all, gives the "no mark" division (X) and
 * no aggregate: a sum of three subjects would read as a good aggregate of four.
 */

export interface PrimaryResult {
  aggregate: number | null;
  division: string;
}

export function primaryResult(
  subjects: ReadonlyArray<GradedSubject>,
  rules: GradingRules = DEFAULT_GRADING_RULES,
): Explained<PrimaryResult> {
  const { countedCategories, divisions, otherwise, noMark } = rules.primary;
  const counted = subjects.filter((subject) => subject.category !== null && countedCategories.includes(subject.category));
  const parts: Explanation[] = [];
  let complete = true;
  for (const category of countedCategories) {
    if (!counted.some((subject) => subject.category === category)) {
      complete = false;
      parts.push(explanation('primary.categoryMissing', { category }));
    }
  }
  const values: number[] = [];
  for (const subject of counted) {
    const reason = noMarkReason(subject.value);
    if (reason !== null || typeof subject.value !== 'number') {
      complete = false;
      parts.push(explanation('primary.subjectNoMark', { subject: subject.subject, reason }));
    } else {
      values.push(subject.value);
      parts.push(explanation('primary.subject', { subject: subject.subject, value: subject.value }));
    }
  }
  if (!complete) {
    return { value: { aggregate: null, division: noMark }, explain: explanation('primary.divisionNoMark', { division: noMark }, parts) };
  }
  const aggregate = values.reduce((sum, value) => sum + value, 0);
  const sumExplained = explanation('primary.aggregate', { aggregate, values }, parts);
  const reached = divisions.find((division) => aggregate <= division.aggregateAtMost);
  if (reached) {
    return {
      value: { aggregate, division: reached.division },
      explain: explanation('primary.division', { aggregate, division: reached.division, atMost: reached.aggregateAtMost }, [sumExplained]),
    };
  }
  const highest = divisions[divisions.length - 1]?.aggregateAtMost ?? null;
  return {
    value: { aggregate, division: otherwise },
    explain: explanation('primary.divisionNone', { aggregate, division: otherwise, atMost: highest }, [sumExplained]),
  };
}
