import { describe, expect, it } from 'vitest';
import { defaultGradeBands } from '../grading/bands.js';
import { DEFAULT_GRADING_RULES } from '../grading/engine/rules.js';
import { classSummary, rankLowerBetter, resultAnalysis } from './analysis.js';
import { gradeClass } from './graded-class.js';
import type { GradingInputs, GradingMark, GradingSubject } from './graded-results.js';

/*
 * The result analysis (issue 28 point 1) of a small primary class graded by the one grader:
 * ABS left out of means and never a fail, ties sharing a subject position (by mean grade point,
 * lower better), a subject nobody sat, boys against girls, the division summary.
 */

const EOT = { id: 'eot', label: 'EOT', outof: 100 };
const SUBJECTS: GradingSubject[] = [
  { id: 'eng', name: 'English', code: null, category: 'english' },
  { id: 'mat', name: 'Mathematics', code: null, category: 'mathematics' },
  { id: 'sci', name: 'Science', code: null, category: 'science' },
  { id: 'sst', name: 'Social Studies', code: null, category: 'humanity' },
  { id: 'rel', name: 'Religious Education', code: null, category: 'general' },
];
const inputs: GradingInputs = {
  level: 'primary',
  rawmark: true,
  rules: DEFAULT_GRADING_RULES,
  markTypes: [EOT],
  markTypeLabels: new Map([[EOT.id, EOT.label]]),
  subjects: SUBJECTS,
  bands: new Map(SUBJECTS.map((subject) => [subject.id, defaultGradeBands()])),
  proportions: new Map(),
  initials: new Map([['eng|', 'JK']]),
};

const mark = (student_id: string, subject_id: string, value: number | null): GradingMark => ({
  student_id,
  subject_id,
  marktype_id: EOT.id,
  paper: 'I',
  mark: value,
  absent: value === null,
});

const learners = [
  { id: 'amina', stream: 'East', gender: 'F' as const },
  { id: 'brian', stream: 'East', gender: 'M' as const },
  { id: 'carol', stream: 'West', gender: 'F' as const },
  { id: 'david', stream: 'West', gender: 'M' as const },
];
const marks = [
  // English: D1, D2, ABS, F9: mean grade point 4.
  mark('amina', 'eng', 85),
  mark('brian', 'eng', 77),
  mark('carol', 'eng', null),
  mark('david', 'eng', 20),
  // Mathematics: D1, D1, P7, P8: 4.25.
  mark('amina', 'mat', 85),
  mark('brian', 'mat', 85),
  mark('carol', 'mat', 50),
  mark('david', 'mat', 40),
  // Science: D1, D1, C5, F9: 4 (ties with English).
  mark('amina', 'sci', 85),
  mark('brian', 'sci', 90),
  mark('carol', 'sci', 62),
  mark('david', 'sci', 30),
  // Social Studies: C3 for all: 3.
  mark('amina', 'sst', 70),
  mark('brian', 'sst', 70),
  mark('carol', 'sst', 70),
  mark('david', 'sst', 70),
];

describe('resultAnalysis', () => {
  const graded = gradeClass(learners, marks, inputs);
  const analysis = resultAnalysis(graded, { rules: DEFAULT_GRADING_RULES, subjects: SUBJECTS, level: 'primary' });
  const row = (id: string) => analysis.subjects.find((each) => each.subject_id === id);

  it('counts who sat and who was absent, ABS never a fail', () => {
    const english = row('eng');
    expect(english?.sat).toBe(3);
    expect(english?.absent).toBe(1);
    expect(english?.grades).toMatchObject({ D1: 1, D2: 1, F9: 1, C3: 0 });
    expect(english?.distinction).toBeCloseTo(66.6667, 3);
    expect(english?.credit).toBeCloseTo(66.6667, 3);
    expect(english?.pass).toBeCloseTo(66.6667, 3);
    expect(english?.fail).toBeCloseTo(33.3333, 3);
    expect(english?.meanMark).toBeCloseTo((85 + 77 + 20) / 3, 6);
    expect(english?.meanGradePoint).toBe(4);
    // (8 + 7 + 0) / (3 * 8) * 100
    expect(english?.performanceIndex).toBeCloseTo(62.5, 6);
    expect(english?.teacher).toBe('JK');
  });

  it('ranks subjects by mean grade point, lower better, ties sharing a rank', () => {
    expect(analysis.subjects.map((each) => [each.subject_id, each.position])).toEqual([
      ['eng', 2],
      ['mat', 4],
      ['sci', 2],
      ['sst', 1],
      ['rel', null],
    ]);
    expect(rankLowerBetter([3, null, 1, 3])).toEqual([2, null, 1, 2]);
  });

  it('leaves a subject nobody sat empty rather than failed', () => {
    expect(row('rel')).toMatchObject({ sat: 0, absent: 0, distinction: null, fail: null, meanMark: null, performanceIndex: null });
  });

  it('compares boys and girls over those who sat', () => {
    expect(row('eng')?.boys).toEqual({ sat: 2, meanMark: 48.5, meanGradePoint: 5.5 });
    expect(row('eng')?.girls).toEqual({ sat: 1, meanMark: 85, meanGradePoint: 1 });
  });

  it('summarises divisions as the graded results have them', () => {
    const expected = new Map<string, number>();
    for (const each of graded.results) {
      const division = each.division?.value;
      if (division) expected.set(division, (expected.get(division) ?? 0) + 1);
    }
    expect(analysis.divisions?.map((each) => each.division)).toEqual(['I', 'II', 'III', 'IV', 'U', 'X']);
    expect(analysis.divisions?.find((each) => each.division === 'I')?.count).toBe(2);
    for (const each of analysis.divisions ?? []) expect(each.count).toBe(expected.get(each.division) ?? 0);
    expect(analysis.divisions?.reduce((sum, each) => sum + each.count, 0)).toBe(4);
  });

  it('analyses a stream when asked', () => {
    const east = resultAnalysis(graded, {
      rules: DEFAULT_GRADING_RULES,
      subjects: SUBJECTS,
      level: 'primary',
      only: new Set(['amina', 'brian']),
    });
    expect(east.learners).toBe(2);
    expect(east.subjects[0]).toMatchObject({ sat: 2, absent: 0, fail: 0 });
  });
});

describe('classSummary (a whole school, a line per class)', () => {
  const row = (meanGradePoint: number | null) => ({ meanGradePoint }) as Parameters<typeof classSummary>[0]['subjects'][number];
  it('counts Division I against the learners with a result, leaving out X', () => {
    const summary = classSummary({
      learners: 10,
      divisions: [
        { division: 'I', count: 3 },
        { division: 'II', count: 4 },
        { division: 'U', count: 1 },
        { division: 'X', count: 2 },
      ],
      subjects: [row(2), row(4), row(null)],
      noMarkDivision: 'X',
    });
    expect(summary.divisionOne).toBe(37.5);
    expect(summary.meanGradePoint).toBe(3);
    expect(summary.learners).toBe(10);
    expect(summary.withResult).toBe(8);
  });
  it('has no Division I share without divisions (A level) or results', () => {
    expect(classSummary({ learners: 3, divisions: null, subjects: [] })).toMatchObject({ divisionOne: null, meanGradePoint: null });
    expect(
      classSummary({
        learners: 2,
        divisions: [
          { division: 'I', count: 0 },
          { division: 'X', count: 2 },
        ],
        subjects: [],
        noMarkDivision: 'X',
      }).divisionOne,
    ).toBeNull();
  });
});
