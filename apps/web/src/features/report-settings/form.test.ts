import { DEFAULT_GRADING_RULES, DEFAULT_NC_RULES, GradingRulesSchema, NcRulesSchema } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import {
  fieldErrors,
  lineSlots,
  linesFromSlots,
  missedExample,
  moved,
  roundingExamples,
  sectionOrder,
  serverErrors,
  toggled,
  typedCondition,
  typedCount,
  withLowestBand,
} from './form.js';

describe('the report settings forms’ helpers', () => {
  it('read typed numbers: blank is no number, never 0', () => {
    expect(typedCount('')).toBeNaN();
    expect(typedCount(12)).toBe(12);
    expect(typedCondition('')).toBeUndefined();
    expect(typedCondition(3)).toBe(3);
  });

  it('name a failed check’s fields by their path in the document', () => {
    const rules = structuredClone(DEFAULT_GRADING_RULES);
    (rules.primary.divisions[1] as { aggregateAtMost: number }).aggregateAtMost = 12;
    const checked = GradingRulesSchema.safeParse(rules);
    expect(checked.success).toBe(false);
    if (!checked.success) {
      expect(fieldErrors(checked.error)).toEqual({
        'primary.divisions.1.aggregateAtMost': 'Each division must allow a higher aggregate than the one before it',
      });
    }
  });

  it('take the server’s 422 fields without the body’s prefix', () => {
    expect(serverErrors({ 'rules.primary.divisions.1.aggregateAtMost': ['A', 'B'], rules: ['C'], version: ['D'] }, 'rules')).toEqual({
      'primary.divisions.1.aggregateAtMost': 'A',
      '': 'C',
      version: 'D',
    });
    expect(serverErrors(undefined, 'rules')).toEqual({});
  });

  it('move, toggle and order list items', () => {
    expect(moved(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
    expect(toggled(['a', 'b', 'c'], ['c'], 'a', true)).toEqual(['a', 'c']);
    expect(toggled(['a', 'b', 'c'], ['a', 'c'], 'a', false)).toEqual(['c']);
    expect(sectionOrder(['a', 'b', 'c', 'd'], ['c', 'a'])).toEqual(['c', 'a', 'b', 'd']);
  });

  it('keep header lines in slots, dropping trailing blanks', () => {
    expect(lineSlots(['Motto'], 4)).toEqual(['Motto', '', '', '']);
    expect(linesFromSlots(['Motto', '', 'Box 1', ' '])).toEqual(['Motto', '', 'Box 1']);
    expect(linesFromSlots(['', '', '', ''])).toEqual([]);
  });
});

describe('the Grading rules screen’s worked examples (issue 24 point 4)', () => {
  it('missed MOT at BOT 20%, MOT 30%, EOT 50% with BOT 60 and EOT 70: 67.14 C4 re-weighted, 47 P7 counted 0, no total otherwise', () => {
    expect(missedExample('reweight')).toEqual({ total: 67.14, grade: 'C4' });
    expect(missedExample('zero')).toEqual({ total: 47, grade: 'P7' });
    expect(missedExample('none')).toEqual({ total: null, grade: null });
  });

  it('rounding: the mark printed and its grade agree under each rule', () => {
    expect(roundingExamples('none')).toEqual([
      { mark: 59.5, printed: 59.5, grade: 'C6' },
      { mark: 59.96, printed: 59.96, grade: 'C6' },
    ]);
    expect(roundingExamples('whole')).toEqual([
      { mark: 59.5, printed: 60, grade: 'C5' },
      { mark: 59.96, printed: 60, grade: 'C5' },
    ]);
    expect(roundingExamples('oneDecimal')).toEqual([
      { mark: 59.5, printed: 59.5, grade: 'C6' },
      { mark: 59.96, printed: 60, grade: 'C5' },
    ]);
  });
});

describe('the new curriculum’s bands on the Grading rules screen (issue 27 point 1)', () => {
  const band = (atLeast: number) => ({ label: '', atLeast, descriptor: '' });

  it('add a lowest band at 0, raising the former lowest halfway to the band above it, so the bands stay best first', () => {
    const added = withLowestBand(DEFAULT_NC_RULES.identifiers, band(0), 0.1, 3);
    expect(added.map((each) => each.atLeast)).toEqual([2.5, 1.5, 0.8, 0]);
    expect(added[2]?.label).toBe('Basic');
    expect(
      NcRulesSchema.safeParse({ ...DEFAULT_NC_RULES, identifiers: added.map((each) => ({ ...each, label: each.label || 'Low' })) }).success,
    ).toBe(true);
    const grades = withLowestBand(DEFAULT_NC_RULES.grades, { grade: 'F', atLeast: 0, descriptor: '' }, 1, 100);
    expect(grades.map((each) => each.atLeast)).toEqual([80, 70, 60, 50, 25, 0]);
    // The only band: raised halfway to the top of the scale.
    expect(withLowestBand([band(0)], band(0), 0.1, 3).map((each) => each.atLeast)).toEqual([1.5, 0]);
  });

  it('leave the bands as they are where no step fits or the lowest is not at 0 (the check then names the field)', () => {
    expect(withLowestBand([band(2), band(0.1), band(0)], band(0), 0.1, 3).map((each) => each.atLeast)).toEqual([2, 0.1, 0, 0]);
    expect(withLowestBand([band(2), band(1)], band(0), 0.1, 3).map((each) => each.atLeast)).toEqual([2, 1, 0]);
    expect(withLowestBand([band(Number.NaN), band(0)], band(0), 0.1, 3).map((each) => each.atLeast)).toEqual([Number.NaN, 0, 0]);
    expect(withLowestBand([], band(0), 0.1, 3)).toEqual([band(0)]);
  });

  it('name an unsorted band and a bound out of range by their path in the document', () => {
    const rules = structuredClone(DEFAULT_GRADING_RULES);
    (rules.newCurriculum.identifiers[1] as { atLeast: number }).atLeast = 2.6;
    (rules.newCurriculum.grades[0] as { atLeast: number }).atLeast = 120;
    const checked = GradingRulesSchema.safeParse(rules);
    expect(checked.success).toBe(false);
    if (!checked.success) {
      expect(fieldErrors(checked.error)).toEqual({
        'newCurriculum.identifiers.1.atLeast': 'Each band must start lower than the one above it, and the last at 0',
        'newCurriculum.grades.0.atLeast': 'A grade bound is a whole number from 0 to 100',
      });
    }
  });
});
