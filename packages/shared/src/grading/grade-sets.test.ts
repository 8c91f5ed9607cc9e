import { describe, expect, it } from 'vitest';
import { defaultGradeBands, type GradeBand, gradeSetProblems } from './index.js';

/*
 * The grade-set check (grading.md: "Ranges must not overlap and should cover 0..100"). The full
 * cases, through the grade-set schema too, are in resources/school.test.ts.
 */

describe('gradeSetProblems', () => {
  it('both default sets pass, in any order', () => {
    expect(gradeSetProblems(defaultGradeBands('default'))).toEqual([]);
    expect(gradeSetProblems(defaultGradeBands('lower'))).toEqual([]);
    expect(gradeSetProblems(defaultGradeBands('default').reverse())).toEqual([]);
  });

  it('names a gap, an overlap, a reversed band, a missing bound and an empty set', () => {
    const bands = (change: Partial<GradeBand>): GradeBand[] =>
      defaultGradeBands().map((band) => (band.grade === 'D2' ? { ...band, ...change } : band));
    expect(gradeSetProblems(bands({ lower: 76 }))).toEqual([{ kind: 'gap', grade: 'D2', params: { from: 75, to: 75 } }]);
    expect(gradeSetProblems(bands({ lower: 74 }))).toEqual([{ kind: 'overlap', grade: 'D2', params: { grade: 'D2', other: 'C3' } }]);
    expect(gradeSetProblems(bands({ lower: 79, upper: 75 })).map((problem) => problem.kind)).toContain('reversed');
    expect(gradeSetProblems(bands({ upper: Number.NaN }))).toEqual([{ kind: 'missing', grade: 'D2', params: { grade: 'D2' } }]);
    expect(gradeSetProblems([])).toEqual([{ kind: 'empty', grade: '', params: {} }]);
  });

  it('marks up to 100 must be covered', () => {
    expect(gradeSetProblems([{ grade: 'A', lower: 0, upper: 99 }])).toEqual([{ kind: 'gap', grade: 'A', params: { from: 100, to: 100 } }]);
  });
});
