import { DEFAULT_GRADE_BANDS, type StudentResults } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newMarkType, newSubject, ok } from '../settings/settings-fixtures.js';

/*
 * The grades of a learner's results come from the shared band lookup (grading/bands.ts) over the
 * grade sets of the learner's subjects, classes, terms and years, loaded in one query. The
 * groupings themselves are covered in students.test.ts; here, which set grades which mark.
 */

let t: TestApp;
let head: Caller;
let tenantId: string;

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Grading High School', schooltype: 'secondary' });
  tenantId = school.id;
  const user = await makeUser(t.database, { memberOf: [{ tenantId, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, user.email), school.tenantcode);
  // An older cohort: this school grades its S1-S4 on the old curriculum in these years (issue 26
  // point 1), so the grades these tests read are the grade sets' (a new-curriculum class has none).
  const old = ['S1', 'S2', 'S3', 'S4'].map((form) => ({ form, curriculum: 'old' }));
  for (const year of [2025, 2026]) ok(await head.put('/api/school/curricula', { year, allow_zero: false, classes: old }));
});
afterAll(() => t?.close());

async function learner(form: string) {
  return ok(await head.post('/api/school/students', { firstname: 'Grace', lastname: 'Akello', form })).id as string;
}

/**
 * Saves the default set, then raises F9's lower bound as a school editing one grade can (a set
 * saved whole must cover 0 to 100; a single grade's edit is not checked against its set).
 */
async function setStartingAt(subjectId: string, form: string, lower: number) {
  const saved = ok(await head.post('/api/school/grades', gradeSet(subjectId, { form, term: 'I', year: 2026 })));
  const f9 = saved.grades.find((grade: { grade: string }) => grade.grade === 'F9');
  ok(await head.put(`/api/school/grades/${f9.id}`, { form, term: 'I', year: 2026, subject_id: subjectId, grade: 'F9', lower, upper: 34 }));
}

/** The grade of each (exam, subject) of the learner's one record, in order. */
async function gradesOf(studentId: string) {
  const results: StudentResults = ok(await head.get(`/api/school/students/${studentId}/results`));
  return results.results.map((record) => ({
    record: `${record.form} ${record.term} ${record.year}`,
    grades: record.exams.flatMap((exam) => exam.subjects.map((subject) => [subject.mark, subject.score])),
  }));
}

describe('grades of a learner’s results', () => {
  it('each mark is graded by its own subject’s set of its class, term and year only', async () => {
    const [maths, science] = [await newSubject(head), await newSubject(head)];
    const [bot, eot] = [await newMarkType(head), await newMarkType(head)];
    // Maths S2 I 2026: the default set. Science S2 I 2026: the default set from 10 up.
    ok(await head.post('/api/school/grades', gradeSet(maths.id, { form: 'S2', term: 'I', year: 2026 })));
    await setStartingAt(science.id, 'S2', 10);
    // Sets of the same subject elsewhere (another class, term, year) never grade these marks.
    const lower = DEFAULT_GRADE_BANDS.lower;
    ok(await head.post('/api/school/grades', gradeSet(maths.id, { form: 'S1', term: 'I', year: 2026, bands: lower })));
    ok(await head.post('/api/school/grades', gradeSet(maths.id, { form: 'S2', term: 'II', year: 2026, bands: lower })));
    ok(await head.post('/api/school/grades', gradeSet(maths.id, { form: 'S2', term: 'I', year: 2025, bands: lower })));
    const id = await learner('S2');
    await makeMarks(t.database, tenantId, id, [
      { subjectId: maths.id, marktypeId: bot.id, form: 'S2', term: 'I', year: 2026, mark: 75 },
      { subjectId: science.id, marktypeId: bot.id, form: 'S2', term: 'I', year: 2026, mark: 9.99 },
      { subjectId: maths.id, marktypeId: eot.id, form: 'S2', term: 'I', year: 2026, mark: 74.99 },
      { subjectId: science.id, marktypeId: eot.id, form: 'S2', term: 'I', year: 2026, mark: 10 },
      // A term with no set for the subject: the mark shows without a grade.
      { subjectId: science.id, marktypeId: eot.id, form: 'S2', term: 'III', year: 2026, mark: 88 },
    ]);
    const grades = await gradesOf(id);
    const byRecord = Object.fromEntries(grades.map((record) => [record.record, record.grades]));
    expect(byRecord['S2 I 2026']).toEqual(
      expect.arrayContaining([
        [75, 'D2'], // on D2's lower bound
        [9.99, null], // below every band of the set
        [74.99, 'C3'], // between 74 and 75: the band below
        [10, 'F9'],
      ]),
    );
    expect(byRecord['S2 I 2026']).toHaveLength(4);
    expect(byRecord['S2 III 2026']).toEqual([[88, null]]);
  });

  it('S5 papers are graded one by one (a paper below every band has none), the subject’s total the papers’ mean as on the card; elsewhere a paper’s mark is the subject’s', async () => {
    const physics = await newSubject(head, { multiple_papers: true, multiple_paper_forms: 'S4,S5' });
    const exam = await newMarkType(head);
    await setStartingAt(physics.id, 'S5', 20);
    ok(await head.post('/api/school/grades', gradeSet(physics.id, { form: 'S4', term: 'I', year: 2025 })));
    const id = await learner('S5');
    await makeMarks(t.database, tenantId, id, [
      { subjectId: physics.id, marktypeId: exam.id, form: 'S5', term: 'I', year: 2026, mark: 80, paper: 'I' },
      { subjectId: physics.id, marktypeId: exam.id, form: 'S5', term: 'I', year: 2026, mark: 19.5, paper: 'II' },
      { subjectId: physics.id, marktypeId: exam.id, form: 'S5', term: 'I', year: 2026, mark: 49.5, paper: 'III' },
      { subjectId: physics.id, marktypeId: exam.id, form: 'S4', term: 'I', year: 2025, mark: 50, paper: 'I' },
    ]);
    const results: StudentResults = ok(await head.get(`/api/school/students/${id}/results`));
    const [s5, s4] = results.results;
    expect(s5?.exams[0]?.subjects[0]).toMatchObject({
      mark: null,
      // No letter while a paper has no grade: the card then shows the grade of the mean, 49.66 (P7).
      score: 'P7',
      papers: [
        { paper: 'I', mark: 80, score: 'D1' },
        { paper: 'II', mark: 19.5, score: null },
        { paper: 'III', mark: 49.5, score: 'P7' },
      ],
      total: 49.66,
    });
    expect(s4?.exams[0]?.subjects[0]).toMatchObject({ mark: 50, score: 'P7' });
    expect(s4?.exams[0]?.subjects[0]?.papers).toBeUndefined();
  });

  it('an absence (ABS) shows as absent, with no mark and no grade, and leaves the subject without a total, as on the card', async () => {
    const physics = await newSubject(head, { multiple_papers: true, multiple_paper_forms: 'S5' });
    const english = await newSubject(head);
    const exam = await newMarkType(head);
    ok(await head.post('/api/school/grades', gradeSet(english.id, { form: 'S5', term: 'II', year: 2026 })));
    const id = await learner('S5');
    await makeMarks(t.database, tenantId, id, [
      { subjectId: physics.id, marktypeId: exam.id, form: 'S5', term: 'II', year: 2026, mark: 70, paper: 'I' },
      { subjectId: physics.id, marktypeId: exam.id, form: 'S5', term: 'II', year: 2026, mark: 'ABS', paper: 'II' },
      { subjectId: english.id, marktypeId: exam.id, form: 'S5', term: 'II', year: 2026, mark: 'ABS' },
    ]);
    const results: StudentResults = ok(await head.get(`/api/school/students/${id}/results`));
    const subjects = results.results[0]?.exams[0]?.subjects ?? [];
    expect(subjects.find((subject) => subject.subject_id === physics.id)).toMatchObject({
      papers: [
        { paper: 'I', mark: 70 },
        { paper: 'II', mark: null, score: null, absent: true },
      ],
      total: null,
      score: null,
    });
    expect(subjects.find((subject) => subject.subject_id === english.id)).toMatchObject({ mark: null, score: null, absent: true });
  });
});
