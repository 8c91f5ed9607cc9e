import { describe, expect, it } from 'vitest';
import { DEFAULT_NC_RULES } from '../grading/engine/nc-rules.js';
import { gradeNcLearner, type NcSubjectInput } from '../grading/engine/new-curriculum.js';
import type { MarkValue } from '../marks/cells.js';
import { ABSENT } from '../marks/cells.js';
import { type NcAnalysisLearner, ncResultAnalysis } from './nc-analysis.js';

/*
 * The new-curriculum result analysis on small hand-made classes, graded by the one grader
 * (gradeNcLearner) as the cards are, with the guide's default rules (A >= 80, B >= 70, C >= 60,
 * D >= 50, else E; Outstanding >= 2.5, Moderate >= 1.5, else Basic; formative = score / 3 x 20,
 * summative = exam % x 0.8).
 */

const SUBJECTS = [
  { id: 'eng', name: 'English' },
  { id: 'mth', name: 'Mathematics' },
  { id: 'sci', name: 'Science' },
  { id: 'art', name: 'Art' },
];

/** One subject of a learner: one competency with one AOI score (or none), and the EOT out of 100 (or none). */
function subject(id: string, aoi: MarkValue | undefined, exam: MarkValue): NcSubjectInput {
  return {
    subject_id: id,
    subject: SUBJECTS.find((each) => each.id === id)?.name ?? id,
    topics: [{ topic_id: `${id}-t`, title: 'Topic' }],
    aois: aoi === undefined ? [] : [{ topic_id: `${id}-t`, marktype_id: 'aoi1', value: aoi }],
    exam: { mark: exam, outof: 100 },
    project: null,
  };
}

function learner(id: string, gender: 'F' | 'M' | null, inputs: NcSubjectInput[], initials?: Record<string, string>): NcAnalysisLearner {
  return {
    id,
    gender,
    inputs,
    result: gradeNcLearner(inputs, DEFAULT_NC_RULES),
    initials: initials ? new Map(Object.entries(initials)) : undefined,
  };
}

/*
 * The class:
 *   Grace (F) English AOI 3 (20) EOT 75 (60) = 80 A;  Maths AOI 2 (13.33) EOT 80 (64) = 77.33 B;  Science AOI 1, EOT ABS: absent;  Art nothing
 *   Peter (M) English AOI 2 (13.33) EOT 70 (56) = 69.33 C;  Maths AOI 3 (20) EOT 80 = 84 A;  Science AOI 2, no EOT: missing;  Art nothing
 *   John  (M) English AOI 1 (6.67) EOT 40 (32) = 38.67 E;  Maths AOI 2 EOT 55 (44) = 57.33 D;  Science nothing;  Art nothing
 */
const CLASS = [
  learner('grace', 'F', [subject('eng', 3, 75), subject('mth', 2, 80), subject('sci', 1, ABSENT), subject('art', undefined, null)], {
    eng: 'A.B.',
    mth: 'C.D.',
  }),
  learner('peter', 'M', [subject('eng', 2, 70), subject('mth', 3, 80), subject('sci', 2, null), subject('art', undefined, null)], {
    eng: 'X.Y.',
    sci: 'S.C.',
  }),
  learner('john', 'M', [subject('eng', 1, 40), subject('mth', 2, 55), subject('sci', undefined, null), subject('art', undefined, null)]),
];

describe('the new-curriculum result analysis', () => {
  const analysis = ncResultAnalysis(CLASS, { rules: DEFAULT_NC_RULES, subjects: SUBJECTS });
  const row = (id: string) => analysis.subjects.find((each) => each.subject_id === id);

  it('counts grades A..E and identifiers per subject, with the means and shares of those assessed', () => {
    expect(analysis.grades.map((each) => each.grade)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(analysis.identifiers).toEqual([
      { value: 3, label: 'Outstanding' },
      { value: 2, label: 'Moderate' },
      { value: 1, label: 'Basic' },
    ]);
    expect(analysis.satisfactoryGrade).toBe('C');
    expect(analysis.passGrade).toBe('D');
    const english = row('eng');
    expect(english).toMatchObject({ subject: 'English', assessed: 3, absent: 0, missing: 0, scored: 3, teacher: 'A.B.' });
    expect(english?.grades).toEqual({ A: 1, B: 0, C: 1, D: 0, E: 1 });
    expect(english?.identifiers).toEqual({ Outstanding: 1, Moderate: 1, Basic: 1 });
    expect(english?.meanScore).toBe(2);
    // (80 + 69 1/3 + 38 2/3) / 3 = 188 / 3
    expect(english?.meanTotal).toBeCloseTo(188 / 3, 10);
    expect(english?.satisfactory).toBeCloseTo(200 / 3, 10);
    expect(english?.pass).toBeCloseTo(200 / 3, 10);
    expect(english?.boys).toEqual({ assessed: 2, meanTotal: 54, meanScore: 1.5 });
    expect(english?.girls).toEqual({ assessed: 1, meanTotal: 80, meanScore: 3 });
    const maths = row('mth');
    expect(maths?.grades).toEqual({ A: 1, B: 1, C: 0, D: 1, E: 0 });
    expect(maths?.identifiers).toEqual({ Outstanding: 1, Moderate: 2, Basic: 0 });
    expect(maths?.meanTotal).toBeCloseTo(656 / 9, 10);
    expect(maths?.pass).toBe(100);
    expect(maths?.satisfactory).toBeCloseTo(200 / 3, 10);
  });

  it('keeps an ABS exam absent and a missing mark missing, never an E nor 0; a learner with nothing in the subject is not counted', () => {
    const science = row('sci');
    expect(science).toMatchObject({ assessed: 0, absent: 1, missing: 1, scored: 2, meanTotal: null, satisfactory: null, pass: null });
    expect(science?.grades).toEqual({ A: 0, B: 0, C: 0, D: 0, E: 0 });
    expect(science?.identifiers).toEqual({ Outstanding: 0, Moderate: 1, Basic: 1 });
    expect(science?.meanScore).toBe(1.5);
    expect(science?.teacher).toBe('S.C.');
  });

  it('leaves a subject nobody sat empty and unranked, and ranks the others by mean total, higher better', () => {
    expect(row('art')).toMatchObject({
      assessed: 0,
      absent: 0,
      missing: 0,
      scored: 0,
      meanScore: null,
      meanTotal: null,
      position: null,
      teacher: null,
      boys: { assessed: 0, meanTotal: null, meanScore: null },
    });
    expect(analysis.subjects.map((each) => each.position)).toEqual([2, 1, null, null]);
  });

  it('counts the overall grades (mean of totals) and identifiers (mean of scores) by sex', () => {
    // Grace (80 + 77 1/3) / 2 = 78 2/3 B; Peter (69 1/3 + 84) / 2 = 76 2/3 B; John (38 2/3 + 57 1/3) / 2 = 48 E.
    expect(analysis.overall.grades).toEqual([
      { grade: 'A', count: 0, boys: 0, girls: 0 },
      { grade: 'B', count: 2, boys: 1, girls: 1 },
      { grade: 'C', count: 0, boys: 0, girls: 0 },
      { grade: 'D', count: 0, boys: 0, girls: 0 },
      { grade: 'E', count: 1, boys: 1, girls: 0 },
    ]);
    expect(analysis.overall.ungraded).toEqual({ count: 0, boys: 0, girls: 0 });
    // Scores: Grace (3 + 2 + 1) / 3 = 2, Peter 7 / 3, John (1 + 2) / 2 = 1.5: all Moderate.
    expect(analysis.overall.identifiers.map((each) => [each.value, each.label, each.count])).toEqual([
      [3, 'Outstanding', 0],
      [2, 'Moderate', 3],
      [1, 'Basic', 0],
    ]);
    expect(analysis.overall.meanTotal).toBeCloseTo(610 / 9, 10);
  });

  it('shares a position on equal mean totals, and grades an exact 60 as C, in a class of one learner', () => {
    const one = [
      learner('solo', null, [subject('eng', 3, 50), subject('mth', 3, 50), subject('sci', 3, 100), subject('art', undefined, ABSENT)]),
    ];
    const alone = ncResultAnalysis(one, { rules: DEFAULT_NC_RULES, subjects: SUBJECTS });
    // 20 + 50 x 0.8 = 60 exactly: C, not D.
    expect(alone.subjects.map((each) => each.position)).toEqual([2, 2, 1, null]);
    expect(alone.subjects[0]?.grades.C).toBe(1);
    expect(alone.subjects[0]?.satisfactory).toBe(100);
    expect(alone.subjects[3]).toMatchObject({ assessed: 0, absent: 1, missing: 0 });
    // A learner of no recorded sex is counted, in neither column.
    expect(alone.overall.grades.find((each) => each.grade === 'B')).toEqual({ grade: 'B', count: 1, boys: 0, girls: 0 });
    expect([alone.subjects[0]?.boys.assessed, alone.subjects[0]?.girls.assessed]).toEqual([0, 0]);
  });

  it('reads a class without learners as empty rows', () => {
    const empty = ncResultAnalysis([], { rules: DEFAULT_NC_RULES, subjects: SUBJECTS.slice(0, 1) });
    expect(empty.subjects[0]).toMatchObject({ assessed: 0, position: null, meanTotal: null });
    expect(empty.overall.meanTotal).toBeNull();
  });
});
