import { describe, expect, it } from 'vitest';
import { ABSENT } from '../../marks/cells.js';
import { defaultGradeBands } from '../bands.js';
import { explainText } from './explain.js';
import { DEFAULT_GRADING_RULES, type GradingRules } from './rules.js';
import { gradeOfTotal, gradeValueOf, subjectTotal } from './subject-total.js';

const BOT_MOT_EOT = { BOT: 20, MOT: 30, EOT: 50 };

describe('subject total with proportions (grading.md: BOT 20%, MOT 30%, EOT 50%)', () => {
  it('weights each mark type by its proportion', () => {
    const result = subjectTotal(
      [
        { markType: 'BOT', value: 60 },
        { markType: 'MOT', value: 70 },
        { markType: 'EOT', value: 80 },
      ],
      BOT_MOT_EOT,
    );
    expect(result.value.total).toBeCloseTo(73);
    expect(result.value.warnings).toEqual([]);
    expect(explainText(result.explain, true)).toBe(
      'The total 73 is the sum of each mark type weighted by its proportion. BOT: 60 out of 100 is 60%. BOT: 60% weighted 20% gives 12. MOT: 70 out of 100 is 70%. MOT: 70% weighted 30% gives 21. EOT: 80 out of 100 is 80%. EOT: 80% weighted 50% gives 40.',
    );
  });

  it('proportions not adding up to 100: a warning, and the total is not scaled', () => {
    const result = subjectTotal(
      [
        { markType: 'MOT', value: 70 },
        { markType: 'EOT', value: 80 },
      ],
      { MOT: 30, EOT: 50 },
    );
    expect(result.value.total).toBeCloseTo(61);
    expect(result.value.warnings).toEqual([{ code: 'subjectTotal.proportionsNot100', params: { sum: 80 } }]);
    expect(explainText(result.value.warnings[0]!)).toBe('The proportions add up to 80%, not 100%; the total is not scaled.');
  });

  it('a raw mark out of another maximum is scaled to a percentage first', () => {
    const result = subjectTotal(
      [
        { markType: 'BOT', value: 15, maximum: 30 },
        { markType: 'EOT', value: 80 },
      ],
      { BOT: 50, EOT: 50 },
    );
    expect(result.value.total).toBeCloseTo(65);
    expect(result.value.marks).toEqual([
      { markType: 'BOT', percent: 50 },
      { markType: 'EOT', percent: 80 },
    ]);
    expect(explainText(result.explain.parts![0]!)).toBe('BOT: 15 out of 30 is 50%.');
  });

  it('ABS or a missing weighted mark leaves no total (not 0, not re-weighted), and names it', () => {
    const result = subjectTotal(
      [
        { markType: 'BOT', value: ABSENT },
        { markType: 'EOT', value: 80 },
      ],
      BOT_MOT_EOT,
    );
    expect(result.value.total).toBeNull();
    expect(result.explain.params).toEqual({ markTypes: ['BOT', 'MOT'] });
    expect(explainText(result.explain)).toBe('No total: BOT, MOT has no mark, and a missing mark is not counted as 0.');
    expect(result.explain.parts?.map((part) => part.code)).toEqual([
      'mark.absent',
      'mark.missing',
      'mark.scaled',
      'subjectTotal.weightedPart',
    ]);
  });

  it('a mark type with a mark but no proportion is not part of the total, and says so', () => {
    const result = subjectTotal(
      [
        { markType: 'EOT', value: 80 },
        { markType: 'Weekly', value: 10 },
      ],
      { EOT: 100 },
    );
    expect(result.value.total).toBe(80);
    expect(result.explain.parts?.map((part) => explainText(part))).toContain('Weekly has no proportion and is not part of the total.');
  });
});

describe('subject total without proportions', () => {
  it('a single mark type shows that mark', () => {
    const result = subjectTotal([{ markType: 'EOT', value: 67.5 }]);
    expect(result.value.total).toBe(67.5);
    expect(explainText(result.explain)).toBe('The total 67.5 is the EOT mark.');
  });

  it('several mark types: each raw mark and their average', () => {
    const result = subjectTotal([
      { markType: 'BOT', value: 60 },
      { markType: 'EOT', value: 45, maximum: 50 },
    ]);
    expect(result.value.total).toBe(75);
    expect(result.value.marks).toEqual([
      { markType: 'BOT', percent: 60 },
      { markType: 'EOT', percent: 90 },
    ]);
    expect(explainText(result.explain)).toBe('The total 75 is the average of 2 marks: 60, 90.');
  });

  it('the average leaves out ABS and missing marks, and names them', () => {
    const result = subjectTotal([
      { markType: 'BOT', value: 60 },
      { markType: 'MOT', value: ABSENT },
      { markType: 'EOT', value: null },
    ]);
    expect(result.value.total).toBe(60);
    expect(result.explain.parts?.map((part) => explainText(part))).toEqual([
      'BOT: 60 out of 100 is 60%.',
      'MOT: absent (ABS), not counted as 0.',
      'MOT has no mark and is left out of the average.',
      'EOT: no mark entered, not counted as 0.',
      'EOT has no mark and is left out of the average.',
    ]);
  });

  it('no mark at all: no total', () => {
    expect(subjectTotal([{ markType: 'EOT', value: ABSENT }]).value.total).toBeNull();
    expect(subjectTotal([]).explain.code).toBe('subjectTotal.noMarks');
  });
});

describe('grade of a total', () => {
  const bands = defaultGradeBands();

  it('takes the band of the existing grade set and names it (74.5 is C3, 79.9 is D2)', () => {
    expect(gradeOfTotal(74.5, bands).value).toEqual({ grade: 'C3', value: 3 });
    expect(gradeOfTotal(79.9, bands).value).toEqual({ grade: 'D2', value: 2 });
    expect(explainText(gradeOfTotal(73, bands).explain)).toBe('73 is in C3 (70 to 74), value 3.');
  });

  it('no total, no grade; below every band, no grade', () => {
    expect(gradeOfTotal(null, bands).value).toEqual({ grade: null, value: null });
    expect(gradeOfTotal(10, bands.slice(0, 3)).explain.code).toBe('grade.noBand');
  });

  it('a grade the rules give no value is shown, and said', () => {
    const result = gradeOfTotal(95, defaultGradeBands('lower'));
    expect(result.value).toEqual({ grade: 'A+', value: null });
    expect(result.explain.parts?.[0]?.code).toBe('grade.unknownLabel');
  });

  it('grade values come from the rules, case-insensitively', () => {
    expect(gradeValueOf('c6')).toBe(6);
    const rules: GradingRules = {
      ...DEFAULT_GRADING_RULES,
      grades: { ...DEFAULT_GRADING_RULES.grades, values: [{ label: 'A', value: 1 }] },
    };
    expect(gradeValueOf('a', rules)).toBe(1);
    expect(gradeValueOf('D1', rules)).toBeNull();
  });
});
