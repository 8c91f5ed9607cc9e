import { describe, expect, it } from 'vitest';
import { defaultGradeBands } from '../grading/bands.js';
import { DEFAULT_GRADING_RULES } from '../grading/engine/rules.js';
import { gradeMeans, meansOverTerms } from './avg-marksheet.js';
import type { GradingSubject } from './graded-results.js';

/*
 * The average mark sheet's means (issue 28 point 5): over the terms a learner has a mark in
 * (ABS or missing is left out, never a 0), then graded by the one grader.
 */

const SUBJECTS: GradingSubject[] = [
  { id: 'eng', name: 'English', code: null, category: 'english' },
  { id: 'mat', name: 'Mathematics', code: null, category: 'mathematics' },
];

describe('meansOverTerms', () => {
  const means = meansOverTerms([
    { student_id: 'amina', subject_id: 'eng', total: 70 },
    { student_id: 'amina', subject_id: 'eng', total: 81 },
    { student_id: 'amina', subject_id: 'mat', total: 60 },
    // Absent in term II: not a 0.
    { student_id: 'amina', subject_id: 'mat', total: null },
    { student_id: 'brian', subject_id: 'eng', total: null },
  ]);

  it('means over the terms taken, an absence or missing mark left out', () => {
    expect(means.get('amina')?.get('eng')).toEqual({ mean: 75.5, terms: 2 });
    expect(means.get('amina')?.get('mat')).toEqual({ mean: 60, terms: 1 });
  });

  it('gives no mean where no term has a mark', () => {
    expect(means.get('brian')).toBeUndefined();
  });
});

describe('gradeMeans', () => {
  it('grades each mean by the one grader and ranks on it, ties sharing a rank', () => {
    const learners = [
      { id: 'amina', stream: null },
      { id: 'brian', stream: null },
      { id: 'carol', stream: null },
    ];
    const means = meansOverTerms([
      { student_id: 'amina', subject_id: 'eng', total: 80 },
      { student_id: 'amina', subject_id: 'eng', total: 90 },
      { student_id: 'amina', subject_id: 'mat', total: 85 },
      { student_id: 'brian', subject_id: 'eng', total: 85 },
      { student_id: 'brian', subject_id: 'mat', total: 85 },
      { student_id: 'carol', subject_id: 'eng', total: 40 },
      { student_id: 'carol', subject_id: 'mat', total: 50 },
    ]);
    const graded = gradeMeans(learners, means, {
      level: 'plain',
      rules: DEFAULT_GRADING_RULES,
      markTypeLabels: new Map(),
      subjects: SUBJECTS,
      bands: new Map(SUBJECTS.map((subject) => [subject.id, defaultGradeBands()])),
    });
    const amina = graded.results[0];
    expect(amina?.subjects.map((subject) => subject.row.total)).toEqual([85, 85]);
    expect(amina?.subjects[0]?.row.grade).toBe('D1');
    const rank = (id: string) => graded.positions.get(id)?.class.value?.rank ?? null;
    // Amina and Brian both average 85: they share first place; Carol is third.
    expect([rank('amina'), rank('brian'), rank('carol')]).toEqual([1, 1, 3]);
  });
});
