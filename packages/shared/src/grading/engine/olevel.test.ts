import { describe, expect, it } from 'vitest';
import { ABSENT } from '../../marks/cells.js';
import { explainText } from './explain.js';
import type { GradedSubject, GradeValue } from './graded-subject.js';
import { olevelResult } from './olevel.js';
import { DEFAULT_GRADING_RULES, type GradingRules, GradingRulesSchema } from './rules.js';

const CORE = [
  ['English', 'english'],
  ['Mathematics', 'mathematics'],
  ['Biology', 'science'],
  ['History', 'humanity'],
] as const;

/** A learner's subjects: English, Mathematics, Biology, History, then options, with these values in order. */
function uce(...values: GradeValue[]): GradedSubject[] {
  return values.map((value, index) => {
    const core = CORE[index];
    return core ? { subject: core[0], category: core[1], value } : { subject: `Option ${index - 3}`, category: null, value };
  });
}

const tried = (result: ReturnType<typeof olevelResult>) =>
  result.explain.parts?.filter((part) => part.code === 'olevel.divisionTried').map((part) => [part.params.division, part.params.held]);

describe('UCE best 8 aggregate', () => {
  it('sums the best 8 of 10 subjects and names those left out', () => {
    const result = olevelResult(uce(2, 3, 3, 4, 2, 2, 3, 3, 9, 8));
    expect(result.value.aggregate).toBe(22);
    expect(result.value.best).not.toContain('Option 5');
    const aggregate = result.explain.parts?.[0];
    expect(aggregate?.code).toBe('olevel.aggregate');
    expect(aggregate?.parts?.filter((part) => part.code === 'olevel.subjectLeftOut').map((part) => part.params.subject)).toEqual([
      'Option 6',
      'Option 5',
    ]);
  });

  it('ABS and missing subjects are not graded and not counted as 9', () => {
    const result = olevelResult(uce(2, 2, 2, 2, 2, 2, 2, 2, ABSENT, null));
    expect(result.value).toMatchObject({ aggregate: 16, division: 'I' });
    expect(explainText(result.explain.parts![0]!, true)).toContain('Option 5 has no mark (absent) and is not counted.');
  });
});

describe('UCE divisions: the conditions of grading.md, tried in order I, II, III, IV', () => {
  it('Division I: 8 subjects with English, Mathematics, a science, a humanity, English a credit, 7 credits, <= 32', () => {
    const result = olevelResult(uce(3, 4, 4, 4, 4, 4, 4, 5));
    expect(result.value).toMatchObject({ aggregate: 32, division: 'I' });
    expect(tried(result)).toEqual([['I', true]]);
  });

  it('Division I fails on the cap alone: 33 is Division II', () => {
    const result = olevelResult(uce(3, 4, 4, 4, 4, 4, 5, 5));
    expect(result.value).toMatchObject({ aggregate: 33, division: 'II' });
    expect(tried(result)).toEqual([
      ['I', false],
      ['II', true],
    ]);
    const first = result.explain.parts?.[1];
    expect(first?.parts?.map((part) => explainText(part))).toEqual([
      'Aggregate 33 is not at most 32.',
      '8 graded subjects, at least 8.',
      'A english subject is graded.',
      'A mathematics subject is graded.',
      'A science subject is graded.',
      'A humanity subject is graded.',
      'english is a credit (grade value 3, credit at most 6).',
      'One of the alternatives holds.',
    ]);
    expect(explainText(first!.parts!.at(-1)!.parts![0]!)).toBe(
      'At least 0 passes with at least 7 credits (has 8 passes, 8 credits): holds.',
    );
  });

  it('English not a credit rules out Divisions I and II however good the rest', () => {
    const result = olevelResult(uce(7, 1, 1, 1, 1, 1, 1, 1));
    expect(result.value).toMatchObject({ aggregate: 14, division: 'III' });
    expect(tried(result)).toEqual([
      ['I', false],
      ['II', false],
      ['III', true],
    ]);
  });

  it('Division I needs a science: without one, 8 distinctions are Division II', () => {
    const subjects = uce(1, 1, 1, 1, 1, 1, 1, 1).map((subject) =>
      subject.category === 'science' ? { ...subject, category: null } : subject,
    );
    expect(olevelResult(subjects).value.division).toBe('II');
  });

  it('Division I needs 8 subjects', () => {
    expect(olevelResult(uce(1, 1, 1, 1, 1, 1, 1)).value).toMatchObject({ aggregate: 7, division: 'II' });
  });

  it('Division II: 6 credits including English, <= 45', () => {
    expect(olevelResult(uce(6, 6, 6, 6, 6, 6, 7, 7)).value).toMatchObject({ aggregate: 50, division: 'III' });
    expect(olevelResult(uce(6, 6, 6, 6, 6, 6, 1, 8)).value).toMatchObject({ aggregate: 45, division: 'II' });
  });

  it('Division III alternatives: 8 passes with 3 credits, 7 passes with 4 credits, or 5 credits; <= 58', () => {
    // 8 passes, 3 credits (the last alternative would need 5).
    const eightPasses = olevelResult(uce(7, 6, 6, 6, 8, 8, 8, 8));
    expect(eightPasses.value).toMatchObject({ aggregate: 57, division: 'III' });
    const alternatives = eightPasses.explain.parts
      ?.at(-1)
      ?.parts?.at(-1)
      ?.parts?.map((part) => part.params.held);
    expect(alternatives).toEqual([true, false, false]);
    // 7 passes with 4 credits.
    expect(olevelResult(uce(7, 6, 6, 6, 6, 8, 8, 9)).value).toMatchObject({ aggregate: 56, division: 'III' });
    // 5 credits and nothing else.
    expect(olevelResult(uce(7, 6, 6, 6, 6, 6, 9, 9)).value).toMatchObject({ aggregate: 55, division: 'III' });
    // 7 passes with 3 credits: none holds.
    expect(olevelResult(uce(7, 6, 6, 6, 8, 8, 8, 9)).value).toMatchObject({ aggregate: 58, division: 'IV' });
  });

  it('Division IV: <= 68 and at least one pass; otherwise U', () => {
    expect(olevelResult(uce(8, 8, 8, 8, 9, 9, 9, 9)).value).toMatchObject({ aggregate: 68, division: 'IV' });
    expect(olevelResult(uce(8, 9, 9, 9, 9, 9, 9, 9)).value).toMatchObject({ aggregate: 71, division: 'U' });
    const none = olevelResult(uce(9, 9, 9, 9, 9, 9, 9, 9));
    expect(none.value.division).toBe('U');
    expect(explainText(none.explain)).toBe("No division's conditions hold: U.");
    expect(tried(none)).toEqual([
      ['I', false],
      ['II', false],
      ['III', false],
      ['IV', false],
    ]);
  });

  it("a school's own rules change the result: Division I up to 33", () => {
    const rules: GradingRules = structuredClone(DEFAULT_GRADING_RULES);
    rules.olevel.divisions[0]!.aggregateAtMost = 33;
    const subjects = uce(3, 4, 4, 4, 4, 4, 5, 5);
    expect(olevelResult(subjects).value.division).toBe('II');
    expect(olevelResult(subjects, GradingRulesSchema.parse(rules)).value.division).toBe('I');
  });

  it("a school's own rules change the result: Division III without the 7-passes alternative", () => {
    const rules: GradingRules = structuredClone(DEFAULT_GRADING_RULES);
    rules.olevel.divisions[2]!.anyOf.splice(1, 1);
    const subjects = uce(7, 6, 6, 6, 6, 8, 8, 9);
    expect(olevelResult(subjects).value.division).toBe('III');
    expect(olevelResult(subjects, GradingRulesSchema.parse(rules)).value.division).toBe('IV');
  });

  it('a learner absent from every subject has no aggregate and the no-mark division, not an aggregate of 0', () => {
    const result = olevelResult([
      { subject: 'English', category: 'english', value: ABSENT },
      { subject: 'Mathematics', category: 'mathematics', value: null },
    ]);
    expect(result.value).toEqual({ aggregate: null, division: 'X', best: [] });
    expect(explainText(result.explain, true)).toBe(
      'No subject has a mark: no aggregate, Division X. English has no mark (absent) and is not counted. Mathematics has no mark (missing) and is not counted.',
    );
  });
});
