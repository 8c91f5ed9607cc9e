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
    expect(primaryResult(ple(e, m, s, h)).value).toMatchObject({ aggregate, division });
  });

  it('(1,1,1,missing) -> X, and ABS too; there is no aggregate', () => {
    expect(primaryResult(ple(1, 1, 1, null)).value).toMatchObject({ aggregate: null, division: 'X' });
    const absent = primaryResult(ple(1, ABSENT, 1, 1));
    expect(absent.value).toMatchObject({ aggregate: null, division: 'X' });
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

  it('one subject counts per category: the best graded of two humanities, the other named as not counted', () => {
    const subjects = [...ple(2, 2, 2, 5), { subject: 'Religious Education', category: 'humanity' as const, value: 3 }];
    const result = primaryResult(subjects);
    expect(result.value).toMatchObject({ aggregate: 9, division: 'I' });
    expect(explainText(result.explain, true)).toContain(
      'Social Studies is not counted: one humanity subject counts, the best graded (Religious Education).',
    );
  });

  it('a category counts when one of its subjects has a mark, and gives X when none has', () => {
    const oneMarked = [...ple(2, 2, 2, null), { subject: 'Religious Education', category: 'humanity' as const, value: 4 }];
    expect(primaryResult(oneMarked).value).toMatchObject({ aggregate: 10, division: 'I' });
    const noneMarked = [
      ...ple(2, 2, 2, null),
      { subject: 'Religious Education', category: 'humanity' as const, value: ABSENT as GradeValue },
    ];
    const result = primaryResult(noneMarked);
    expect(result.value).toMatchObject({ aggregate: null, division: 'X' });
    expect(explainText(result.explain, true)).toContain('Religious Education has no mark (absent).');
  });
});
