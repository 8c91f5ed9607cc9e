import { describe, expect, it } from 'vitest';
import { defaultGradeBands } from '../grading/bands.js';
import { DEFAULT_GRADING_RULES } from '../grading/engine/rules.js';
import { gradeMeans, gradePaperMeans, meansOverTerms, paperMeansOverTerms } from './avg-marksheet.js';
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

describe('the A-level means (each paper on its own)', () => {
  const SUBJECTS_A: GradingSubject[] = [
    { id: 'phy', name: 'Physics', code: 'PHY', category: 'science' },
    { id: 'gp', name: 'General Paper', code: 'GP', category: 'general' },
  ];
  const learners = [
    { id: 'amina', stream: null },
    { id: 'brian', stream: null },
    { id: 'carol', stream: null },
  ];
  // Amina: Physics paper I 70 then 80, paper II 60 then ABS; General Paper 50 then 62.
  // Brian: Physics 90 and 85 in both terms; General Paper 40 in both.
  const means = paperMeansOverTerms([
    { student_id: 'amina', subject_id: 'phy', paper: 'I', total: 70 },
    { student_id: 'amina', subject_id: 'phy', paper: 'II', total: 60 },
    { student_id: 'amina', subject_id: 'gp', paper: 'I', total: 50 },
    { student_id: 'amina', subject_id: 'phy', paper: 'I', total: 80 },
    { student_id: 'amina', subject_id: 'phy', paper: 'II', total: null },
    { student_id: 'amina', subject_id: 'gp', paper: 'I', total: 62 },
    ...(['I', 'II'] as const).flatMap(() => [
      { student_id: 'brian', subject_id: 'phy', paper: 'I', total: 90 },
      { student_id: 'brian', subject_id: 'phy', paper: 'II', total: 85 },
      { student_id: 'brian', subject_id: 'gp', paper: 'I', total: 40 },
      // Carol: Physics paper II ABS in both terms.
      { student_id: 'carol', subject_id: 'phy', paper: 'I', total: 70 },
      { student_id: 'carol', subject_id: 'phy', paper: 'II', total: null },
    ]),
  ]);

  it('means each paper over the terms it has a mark in (ABS left out, never 0)', () => {
    const physics = means.get('amina')?.get('phy');
    expect(physics?.get('I')).toEqual({ mean: 75, terms: 2 });
    expect(physics?.get('II')).toEqual({ mean: 60, terms: 1 });
    expect(means.get('amina')?.get('gp')?.get('I')).toEqual({ mean: 56, terms: 2 });
    // A paper never marked has no mean (null), not a 0.
    expect(means.get('carol')?.get('phy')?.get('II')).toBeNull();
  });

  it('grades each paper mean, the letter and points from them, total points and positions', () => {
    const graded = gradePaperMeans(learners, means, {
      level: 'alevel',
      rules: DEFAULT_GRADING_RULES,
      markTypeLabels: new Map(),
      subjects: SUBJECTS_A,
      bands: new Map(SUBJECTS_A.map((subject) => [subject.id, defaultGradeBands()])),
    });
    const [amina, brian, carol] = graded.results;
    // Physics: paper I 75 is D2 (2), paper II 60 is C5 (5): two papers, the worst 5, a D: 3 points.
    // (Were the ABS a 0, paper II would be 30, F9, and the letter an O.)
    const physics = amina?.subjects[0]?.row;
    expect(physics?.papers).toEqual([
      { paper: 'I', mark: 75, grade: 'D2' },
      { paper: 'II', mark: 60, grade: 'C5' },
    ]);
    expect([physics?.total, physics?.grade, physics?.points]).toEqual([67.5, 'D', 3]);
    // General Paper 56 is C6, a credit: 1 point.
    const gp = amina?.subjects[1]?.row;
    expect([gp?.total, gp?.grade, gp?.points]).toEqual([56, 'C6', 1]);
    expect(amina?.points?.value).toBe(4);
    // Brian: D1 and D1 an A (6 points), General Paper 40 a P8 (0): 6 points, first.
    expect([brian?.subjects[0]?.row.grade, brian?.subjects[1]?.row.points, brian?.points?.value]).toEqual(['A', 0, 6]);
    const rank = (id: string) => graded.positions.get(id)?.class.value?.rank ?? null;
    expect([rank('brian'), rank('amina')]).toEqual([1, 2]);
    // Carol's Physics paper II never marked: no letter from paper I alone, as on the cards.
    expect(carol?.subjects[0]?.row.papers).toEqual([
      { paper: 'I', mark: 70, grade: 'C3' },
      { paper: 'II', mark: null, grade: null },
    ]);
    expect(carol?.subjects[0]?.row.grade).toBeNull();
  });
});
