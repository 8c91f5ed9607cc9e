import { describe, expect, it } from 'vitest';
import { CURRICULA, curriculumOfClass, defaultCurriculum } from './curriculum.js';

describe('defaultCurriculum (guide new-curriculum.md "Which classes")', () => {
  it('makes a secondary school’s S1 to S4 new-curriculum classes and S5, S6 old', () => {
    expect(['S1', 'S2', 'S3', 'S4', 'S5', 'S6'].map((form) => defaultCurriculum('secondary', form))).toEqual([
      'new',
      'new',
      'new',
      'new',
      'old',
      'old',
    ]);
  });

  it('reads a class typed any way', () => {
    expect(defaultCurriculum('secondary', 's2')).toBe('new');
    expect(defaultCurriculum('secondary', ' S4 ')).toBe('new');
    expect(defaultCurriculum('secondary', 'S7')).toBe('old');
    expect(defaultCurriculum('secondary', '')).toBe('old');
  });

  it('gives a primary school, or one of no known type, no new-curriculum class', () => {
    for (const type of ['primary', null, undefined, 'college'])
      for (const form of ['P1', 'P7', 'S1', 'S4']) expect(defaultCurriculum(type, form)).toBe('old');
  });

  it('names the two curricula', () => {
    expect(CURRICULA).toEqual(['new', 'old']);
  });
});

describe('curriculumOfClass', () => {
  const secondary = { schooltype: 'secondary' };

  it('is the default when the school chose nothing for the class', () => {
    expect(curriculumOfClass(secondary, 'S3', [])).toBe('new');
    expect(curriculumOfClass(secondary, 'S6', [{ form: 'S4', curriculum: 'old' }])).toBe('old');
    expect(curriculumOfClass({ schooltype: 'primary' }, 'P7', [])).toBe('old');
  });

  it('is the school’s choice for the class, whichever way, compared ignoring case', () => {
    const overrides = [
      { form: 'S4', curriculum: 'old' },
      { form: 's5', curriculum: 'new' },
    ] as const;
    expect(curriculumOfClass(secondary, 'S4', overrides)).toBe('old');
    expect(curriculumOfClass(secondary, 's4', overrides)).toBe('old');
    expect(curriculumOfClass(secondary, 'S5', overrides)).toBe('new');
    expect(curriculumOfClass(secondary, 'S1', overrides)).toBe('new');
    expect(curriculumOfClass({ schooltype: 'primary' }, 'p7', [{ form: 'P7', curriculum: 'new' }])).toBe('new');
  });
});
