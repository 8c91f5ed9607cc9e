import { DEFAULT_GRADING_RULES, GradingRulesSchema } from '@mustard/shared';
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
