import { describe, expect, it } from 'vitest';
import { bandFor, DEFAULT_GRADE_BANDS, defaultGradeBands, GRADE_SET_TYPES, type GradeBand, gradeFor } from './index.js';

const standard = defaultGradeBands('default');

describe('the default grade bands (grading.md)', () => {
  it('D1 80-100 down to F9 0-34, and the lower type A+ to D', () => {
    expect(standard.map((band) => `${band.grade} ${band.lower}-${band.upper}`)).toEqual([
      'D1 80-100',
      'D2 75-79',
      'C3 70-74',
      'C4 65-69',
      'C5 60-64',
      'C6 55-59',
      'P7 45-54',
      'P8 35-44',
      'F9 0-34',
    ]);
    expect(defaultGradeBands('lower').map((band) => band.grade)).toEqual(['A+', 'A', 'B+', 'B', 'C+', 'C', 'D+', 'D']);
    expect(GRADE_SET_TYPES).toEqual(Object.keys(DEFAULT_GRADE_BANDS));
  });

  it('defaultGradeBands hands out a fresh copy each time', () => {
    const bands = defaultGradeBands();
    (bands[0] as GradeBand).lower = 1;
    expect(defaultGradeBands()[0]).toEqual({ grade: 'D1', lower: 80, upper: 100 });
  });
});

describe('gradeFor: the band with the highest lower bound not above the mark', () => {
  it('a mark on a lower bound takes that band, one below takes the band under it', () => {
    expect(gradeFor(standard, 80)).toBe('D1');
    expect(gradeFor(standard, 79)).toBe('D2');
    expect(gradeFor(standard, 75)).toBe('D2');
    expect(gradeFor(standard, 74)).toBe('C3');
    expect(gradeFor(standard, 35)).toBe('P8');
    expect(gradeFor(standard, 34)).toBe('F9');
    expect(gradeFor(standard, 0)).toBe('F9');
    expect(gradeFor(standard, 100)).toBe('D1');
  });

  it('decimal marks fall in no gap between whole-number bands (74.5 is C3, 79.9 is D2)', () => {
    expect(gradeFor(standard, 74.5)).toBe('C3');
    expect(gradeFor(standard, 79.9)).toBe('D2');
    expect(gradeFor(standard, 79.99)).toBe('D2');
    expect(gradeFor(standard, 34.5)).toBe('F9');
    expect(gradeFor(standard, 54.99)).toBe('P7');
    expect(gradeFor(standard, 0.01)).toBe('F9');
  });

  it('a mark below every band has no grade', () => {
    const fromTen: GradeBand[] = [
      { grade: 'PASS', lower: 50, upper: 100 },
      { grade: 'FAIL', lower: 10, upper: 49 },
    ];
    expect(gradeFor(fromTen, 9.99)).toBeNull();
    expect(gradeFor(fromTen, 0)).toBeNull();
    expect(gradeFor(fromTen, 10)).toBe('FAIL');
    expect(bandFor(fromTen, 5)).toBeUndefined();
  });

  it('no bands: no grade', () => {
    expect(gradeFor([], 50)).toBeNull();
  });

  it('the order of the bands does not matter', () => {
    const marks = [0, 12.5, 34, 34.99, 35, 44.5, 45, 59, 60, 74.5, 75, 79.9, 80, 100];
    const expected = marks.map((mark) => gradeFor(standard, mark));
    expect(expected).toEqual(['F9', 'F9', 'F9', 'F9', 'P8', 'P8', 'P7', 'C6', 'C5', 'C3', 'D2', 'D2', 'D1', 'D1']);
    const reversed = [...standard].reverse();
    const shuffled = [4, 8, 0, 6, 2, 7, 1, 5, 3].map((index) => standard[index] as GradeBand);
    for (const bands of [reversed, shuffled]) expect(marks.map((mark) => gradeFor(bands, mark))).toEqual(expected);
  });

  it('only lower bounds decide: a mark above every upper bound takes the top band', () => {
    expect(gradeFor([{ grade: 'A', lower: 50, upper: 60 }], 75)).toBe('A');
  });

  it('of two bands with the same lower bound, the first given wins', () => {
    const twins: GradeBand[] = [
      { grade: 'X', lower: 40, upper: 100 },
      { grade: 'Y', lower: 40, upper: 100 },
    ];
    expect(gradeFor(twins, 50)).toBe('X');
    expect(gradeFor([...twins].reverse(), 50)).toBe('Y');
  });

  it('bandFor answers the band itself, whatever else it carries', () => {
    const rows = [
      { grade: 'D1', lower: 80, subject_id: 'maths' },
      { grade: 'F9', lower: 0, subject_id: 'maths' },
    ];
    expect(bandFor(rows, 81)).toBe(rows[0]);
  });
});
