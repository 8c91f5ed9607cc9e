import { describe, expect, it } from 'vitest';
import { ABSENT } from '../../marks/cells.js';
import { explainText } from './explain.js';
import type { GradeValue } from './graded-subject.js';
import { primaryResult } from './primary.js';
import { DEFAULT_GRADING_RULES, type GradingRules, GradingRulesSchema } from './rules.js';

/** The four PLE subjects with the given grade values, plus a subject that does not count. */
function ple(english: GradeValue, mathematics: GradeValue, science: GradeValue, socialStudies: GradeValue) {
  return [
    { subject: 'English', category: 'english' as const, value: english },
    { subject: 'Mathematics', category: 'mathematics' as const, value: mathematics },
    { subject: 'Science', category: 'science' as const, value: science },
    { subject: 'Social Studies', category: 'humanity' as const, value: socialStudies },
    { subject: 'Religious Education', category: null, value: 9 },
  ];
}

describe('PLE aggregate and division: the test vectors of grading.md', () => {
  it.each([
    [[1, 1, 1, 1], 4, 'I'],
    [[3, 3, 3, 3], 12, 'I'],
    [[4, 3, 3, 3], 13, 'II'],
    [[6, 6, 6, 6], 24, 'III'],
    [[9, 9, 8, 8], 34, 'IV'],
    [[9, 9, 9, 8], 35, 'U'],
    [[9, 9, 9, 9], 36, 'U'],
  ] as const)('%j -> %i, Division %s', ([e, m, s, h], aggregate, division) => {
    expect(primaryResult(ple(e, m, s, h)).value).toEqual({ aggregate, division });
  });

  it('(1,1,1,missing) -> X, and ABS too; there is no aggregate', () => {
    expect(primaryResult(ple(1, 1, 1, null)).value).toEqual({ aggregate: null, division: 'X' });
    const absent = primaryResult(ple(1, ABSENT, 1, 1));
    expect(absent.value).toEqual({ aggregate: null, division: 'X' });
    expect(absent.explain.parts?.map((part) => explainText(part))).toContain('Mathematics has no mark (absent).');
  });

  it('X when a counted category has no subject at all', () => {
    const result = primaryResult(ple(1, 1, 1, 1).filter((subject) => subject.category !== 'science'));
    expect(result.value.division).toBe('X');
    expect(explainText(result.explain, true)).toContain('No science subject is counted.');
  });

  it('explains the division and the sum', () => {
    const result = primaryResult(ple(4, 3, 3, 3));
    expect(explainText(result.explain)).toBe('Aggregate 13 is at most 23: Division II.');
    expect(explainText(result.explain, true)).toBe(
      'Aggregate 13 is at most 23: Division II. Aggregate 13: the sum of the grade values 4, 3, 3, 3. English: grade value 4. Mathematics: grade value 3. Science: grade value 3. Social Studies: grade value 3.',
    );
    expect(explainText(primaryResult(ple(9, 9, 9, 8)).explain)).toBe('Aggregate 35 is above 34: Division U.');
  });

  it("a school's own cap changes the result: Division I up to 13", () => {
    const rules: GradingRules = structuredClone(DEFAULT_GRADING_RULES);
    rules.primary.divisions[0]!.aggregateAtMost = 13;
    expect(primaryResult(ple(4, 3, 3, 3), GradingRulesSchema.parse(rules)).value.division).toBe('I');
  });
});
