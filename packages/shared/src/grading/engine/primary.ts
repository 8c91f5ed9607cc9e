import { type Explained, type Explanation, explanation } from './explain.js';
import { type GradedSubject, noMarkReason } from './graded-subject.js';
import { DEFAULT_GRADING_RULES, type GradingRules } from './rules.js';

/*
 * Primary (PLE style, guide grading.md): the aggregate is the sum of the grade values of the
 * counted subjects (English, Mathematics, Science, Social Studies by default), and the division
 * is the first whose cap the aggregate does not pass. Each counted category gives one value: its
 * subject, or the best graded of its subjects when the school teaches several. A category whose
 * subjects have no mark (ABS or nothing), or with no subject at all, gives the "no mark" division
 * (X) and no aggregate: a sum of three subjects would read as a good aggregate of four.
 */

export interface PrimaryResult {
  aggregate: number | null;
  division: string;
  /** The subjects whose values make the aggregate (one per counted category). */
  counted: string[];
}

export function primaryResult(
  subjects: ReadonlyArray<GradedSubject>,
  rules: GradingRules = DEFAULT_GRADING_RULES,
): Explained<PrimaryResult> {
  const { countedCategories, divisions, otherwise, noMark } = rules.primary;
  const parts: Explanation[] = [];
  const values: number[] = [];
  const counted: string[] = [];
  let complete = true;
  // One subject counts per category: a school teaching two humanities (Social Studies and
  // Religious Education both as humanity) must not add five values into a four-subject aggregate.
  for (const category of countedCategories) {
    const inCategory = subjects.filter((subject) => subject.category === category);
    if (inCategory.length === 0) {
      complete = false;
      parts.push(explanation('primary.categoryMissing', { category }));
      continue;
    }
    const graded = inCategory
      .filter((subject): subject is GradedSubject & { value: number } => typeof subject.value === 'number')
      .sort((a, b) => a.value - b.value);
    const best = graded[0];
    if (!best) {
      complete = false;
      for (const subject of inCategory) {
        parts.push(explanation('primary.subjectNoMark', { subject: subject.subject, reason: noMarkReason(subject.value) }));
      }
      continue;
    }
    values.push(best.value);
    counted.push(best.subject);
    parts.push(explanation('primary.subject', { subject: best.subject, value: best.value }));
    for (const other of inCategory) {
      if (other !== best) parts.push(explanation('primary.notCounted', { subject: other.subject, counted: best.subject, category }));
    }
  }
  if (!complete) {
    return {
      value: { aggregate: null, division: noMark, counted: [] },
      explain: explanation('primary.divisionNoMark', { division: noMark }, parts),
    };
  }
  const aggregate = values.reduce((sum, value) => sum + value, 0);
  const sumExplained = explanation('primary.aggregate', { aggregate, values }, parts);
  const reached = divisions.find((division) => aggregate <= division.aggregateAtMost);
  if (reached) {
    return {
      value: { aggregate, division: reached.division, counted },
      explain: explanation('primary.division', { aggregate, division: reached.division, atMost: reached.aggregateAtMost }, [sumExplained]),
    };
  }
  const highest = divisions[divisions.length - 1]?.aggregateAtMost ?? null;
  return {
    value: { aggregate, division: otherwise, counted },
    explain: explanation('primary.divisionNone', { aggregate, division: otherwise, atMost: highest }, [sumExplained]),
  };
}
