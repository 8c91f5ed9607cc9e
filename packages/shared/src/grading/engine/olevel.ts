import { type Explained, type Explanation, explanation } from './explain.js';
import { type GradedSubject, noMarkReason } from './graded-subject.js';
import { DEFAULT_GRADING_RULES, type GradingRules, type OlevelDivision } from './rules.js';

/*
 * Secondary O level (UCE style, guide grading.md): the aggregate is the sum of the best
 * `bestCount` (8) grade values; the divisions are tried in order, each a list of conditions
 * held as data (rules.ts), and the explanation says for each division tried which condition
 * held and which failed.
 *
 * Choices where the guide is silent: a subject without a mark (ABS or nothing) is not graded:
 * it is left out of the best subjects and of the counts, and the explanation names it. The
 * conditions on subjects, categories, credits and passes look at every graded subject (what
 * the learner sat), the cap at the aggregate of the best ones. With fewer graded subjects than
 * `bestCount`, the aggregate is the sum of those there are (the subject-count condition of
 * Division I is what refuses that learner a Division I). With no graded subject at all (absent
 * from the whole exam) there is no aggregate, and the division is the school's "no mark"
 * division (X, the one primary uses): an aggregate of 0 would read as the best of the class.
 */

export interface OlevelResult {
  aggregate: number | null;
  division: string;
  /** The subjects whose values make the aggregate, best first. */
  best: string[];
}

interface Graded {
  subject: string;
  category: GradedSubject['category'];
  value: number;
}

function tryDivision(division: OlevelDivision, graded: Graded[], aggregate: number, rules: GradingRules): Explanation {
  const { creditAtMost, passAtMost } = rules.grades;
  const credits = graded.filter((subject) => subject.value <= creditAtMost).length;
  const passes = graded.filter((subject) => subject.value <= passAtMost).length;
  const conditions: Explanation[] = [];
  conditions.push(
    explanation('olevel.condition.aggregate', { aggregate, atMost: division.aggregateAtMost, held: aggregate <= division.aggregateAtMost }),
  );
  if (division.minSubjects > 0) {
    conditions.push(
      explanation('olevel.condition.subjects', {
        count: graded.length,
        atLeast: division.minSubjects,
        held: graded.length >= division.minSubjects,
      }),
    );
  }
  for (const category of division.requiredCategories) {
    conditions.push(explanation('olevel.condition.category', { category, held: graded.some((subject) => subject.category === category) }));
  }
  for (const category of division.creditIn) {
    // The best subject of the category counts (a school may grade two English subjects).
    const values = graded.filter((subject) => subject.category === category).map((subject) => subject.value);
    const value = values.length > 0 ? Math.min(...values) : null;
    conditions.push(
      explanation('olevel.condition.creditIn', { category, value, atMost: creditAtMost, held: value !== null && value <= creditAtMost }),
    );
  }
  if (division.anyOf.length > 0) {
    const alternatives = division.anyOf.map((alternative) =>
      explanation('olevel.condition.passesCredits', {
        ...alternative,
        passes,
        credits,
        held: passes >= alternative.minPasses && credits >= alternative.minCredits,
      }),
    );
    conditions.push(explanation('olevel.condition.anyOf', { held: alternatives.some((part) => part.params.held === true) }, alternatives));
  }
  const held = conditions.every((condition) => condition.params.held === true);
  return explanation('olevel.divisionTried', { division: division.division, held }, conditions);
}

export function olevelResult(subjects: ReadonlyArray<GradedSubject>, rules: GradingRules = DEFAULT_GRADING_RULES): Explained<OlevelResult> {
  const { bestCount, divisions, otherwise } = rules.olevel;
  const graded: Graded[] = [];
  const ungraded: Explanation[] = [];
  for (const subject of subjects) {
    if (typeof subject.value === 'number') graded.push({ subject: subject.subject, category: subject.category, value: subject.value });
    else ungraded.push(explanation('olevel.subjectNoMark', { subject: subject.subject, reason: noMarkReason(subject.value) }));
  }
  if (graded.length === 0) {
    const division = rules.primary.noMark;
    return { value: { aggregate: null, division, best: [] }, explain: explanation('olevel.noGradedSubject', { division }, ungraded) };
  }
  // A stable sort: of equal values, the subject listed first is counted first.
  const sorted = [...graded].sort((a, b) => a.value - b.value);
  const best = sorted.slice(0, bestCount);
  const aggregate = best.reduce((sum, subject) => sum + subject.value, 0);
  const subjectParts = [
    ...best.map((subject) => explanation('olevel.subjectCounted', { subject: subject.subject, value: subject.value, best: bestCount })),
    ...sorted
      .slice(bestCount)
      .map((subject) => explanation('olevel.subjectLeftOut', { subject: subject.subject, value: subject.value, best: bestCount })),
    ...ungraded,
  ];
  const aggregateExplained = explanation('olevel.aggregate', { aggregate, counted: best.length, graded: graded.length }, subjectParts);

  const tried: Explanation[] = [];
  for (const division of divisions) {
    const attempt = tryDivision(division, graded, aggregate, rules);
    tried.push(attempt);
    if (attempt.params.held === true) {
      return {
        value: { aggregate, division: division.division, best: best.map((subject) => subject.subject) },
        explain: explanation('olevel.division', { division: division.division, aggregate }, [aggregateExplained, ...tried]),
      };
    }
  }
  return {
    value: { aggregate, division: otherwise, best: best.map((subject) => subject.subject) },
    explain: explanation('olevel.divisionNone', { division: otherwise, aggregate }, [aggregateExplained, ...tried]),
  };
}
