import {
  autoMarkComments,
  autoReportComments,
  DEFAULT_GRADE_BANDS,
  GRADE_SET_MESSAGES,
  grades,
  markTypes,
  proportions,
  publishMarks,
  remarkTypes,
  SETTINGS_MESSAGES,
  subjects,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Caller, type TestApp } from '../../test/test-app.js';
import { type Bands, gradeSet, newSchool, newSubject, ok, type Row } from './settings-fixtures.js';

/*
 * Grade sets (spec §3 "Grade set": written whole, replacing the set before) and the exact-match
 * filters of the class/term/year lists, each school in its own tenant so totals are exact.
 */

let t: TestApp;
let head: Caller;

async function list(c: Caller, path: string, query: string): Promise<{ rows: Row[]; totalRecords: number }> {
  const body = ok(await c.get(`${path}?per_page=1000&${query}`));
  const key = Object.keys(body).find((name) => name !== 'totalRecords') as string;
  expect(body.totalRecords).toBe(body[key].length);
  return { rows: body[key], totalRecords: body.totalRecords };
}

beforeAll(async () => {
  t = await buildTestApp();
  head = await newSchool(t, 'Grading Primary');
});
afterAll(() => t.close());

describe('grade sets', () => {
  it('saves the default bands as 9 grades, highest first, with the subject’s name', async () => {
    const subject = await newSubject(head);
    const answer = ok(await head.post(grades.path, gradeSet(subject.id)));
    expect(answer.totalRecords).toBe(9);
    expect(answer.grades).toEqual(
      DEFAULT_GRADE_BANDS.default.map(([grade, lower, upper]) => ({
        id: expect.any(String),
        subject_id: subject.id,
        subject: { name: subject.name },
        form: 'P7',
        term: 'I',
        year: 2026,
        grade,
        lower,
        upper,
      })),
    );
    const uppers = answer.grades.map((row: Row) => row.upper);
    expect(uppers).toEqual([...uppers].sort((a, b) => b - a));
    const listed = await list(head, grades.path, `subject_id=${subject.id}`);
    expect(listed.rows).toEqual(answer.grades);
  });

  it('replaces the set of the same subject, class, term and year instead of adding to it', async () => {
    const subject = await newSubject(head);
    const first = ok(await head.post(grades.path, gradeSet(subject.id))).grades as Row[];
    const stricter: Bands = [
      ['D1', 90, 100],
      ['D2', 80, 89],
      ['C3', 70, 79],
      ['C4', 60, 69],
      ['C5', 50, 59],
      ['C6', 45, 49],
      ['P7', 40, 44],
      ['P8', 30, 39],
      ['F9', 0, 29],
    ];
    // A new set where one exists is refused: the school's own bounds are never replaced unasked.
    const again = await head.post(grades.path, gradeSet(subject.id, { bands: stricter }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ statusCode: 409, message: SETTINGS_MESSAGES.gradeSetExists });
    expect((await list(head, grades.path, `subject_id=${subject.id}`)).rows.map((row) => row.id).sort()).toEqual(
      first.map((row) => row.id).sort(),
    );
    const second = ok(await head.post(grades.path, { ...gradeSet(subject.id, { bands: stricter }), replace: true }));
    expect(second.totalRecords).toBe(9);
    expect(second.grades.map((row: Row) => [row.grade, row.lower, row.upper])).toEqual(stricter);
    const listed = await list(head, grades.path, `subject_id=${subject.id}`);
    expect(listed.totalRecords).toBe(9);
    expect(listed.rows.map((row) => [row.grade, row.lower, row.upper])).toEqual(stricter);
    for (const old of first) expect((await head.get(`${grades.path}/${old.id}`)).statusCode).toBe(404);

    // Another kind of set (other labels) replaces it too: no grade of the old set remains.
    const lower = ok(await head.post(grades.path, { ...gradeSet(subject.id, { bands: DEFAULT_GRADE_BANDS.lower }), replace: true }));
    expect(lower.totalRecords).toBe(8);
    const relisted = await list(head, grades.path, `subject_id=${subject.id}`);
    expect(relisted.rows.map((row) => row.grade)).toEqual(DEFAULT_GRADE_BANDS.lower.map(([grade]) => grade));
  });

  it('makes one set of the same new set saved twice at once: one 200, one 409', async () => {
    const subject = await newSubject(head);
    const answers = await Promise.all([head.post(grades.path, gradeSet(subject.id)), head.post(grades.path, gradeSet(subject.id))]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await list(head, grades.path, `subject_id=${subject.id}`)).totalRecords).toBe(9);
  });

  it('takes only the school’s classes, in its spelling', async () => {
    const subject = await newSubject(head);
    const refused = await head.post(grades.path, gradeSet(subject.id, { form: 'S9' }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ form: ['Choose one of the school’s classes'] });
    const saved = ok(await head.post(grades.path, gradeSet(subject.id, { form: 'p3' })));
    expect(saved.grades[0].form).toBe('P3');
  });

  it('keeps the sets of other classes, terms, years and subjects apart', async () => {
    const [subject, other] = [await newSubject(head), await newSubject(head)];
    ok(await head.post(grades.path, gradeSet(subject.id)));
    ok(await head.post(grades.path, gradeSet(subject.id, { form: 'P6' })));
    ok(await head.post(grades.path, gradeSet(subject.id, { term: 'II' })));
    ok(await head.post(grades.path, gradeSet(subject.id, { year: 2027 })));
    ok(await head.post(grades.path, gradeSet(other.id)));
    // Replacing one set leaves the other four as they were.
    ok(await head.post(grades.path, { ...gradeSet(subject.id, { bands: DEFAULT_GRADE_BANDS.lower }), replace: true }));
    expect((await list(head, grades.path, `subject_id=${subject.id}`)).totalRecords).toBe(8 + 9 * 3);
    expect((await list(head, grades.path, `subject_id=${other.id}`)).totalRecords).toBe(9);
  });

  it.each([
    [
      'overlapping bands',
      [
        ['A', 50, 100],
        ['B', 0, 60],
      ],
      GRADE_SET_MESSAGES.overlap,
    ],
    [
      'a gap',
      [
        ['A', 60, 100],
        ['B', 0, 50],
      ],
      GRADE_SET_MESSAGES.gap,
    ],
    [
      'marks above the top band',
      [
        ['A', 50, 90],
        ['B', 0, 49],
      ],
      GRADE_SET_MESSAGES.gap,
    ],
    [
      'a reversed band',
      [
        ['A', 100, 50],
        ['B', 0, 49],
      ],
      GRADE_SET_MESSAGES.reversed,
    ],
    ['no band', [], GRADE_SET_MESSAGES.empty],
  ] as Array<[string, Bands, string]>)('refuses %s and keeps the set before', async (_case, bands, message) => {
    const subject = await newSubject(head);
    const before = ok(await head.post(grades.path, gradeSet(subject.id))).grades;
    const response = await head.post(grades.path, gradeSet(subject.id, { bands }));
    expect(response.statusCode).toBe(422);
    const errors = response.json().errors as Record<string, string[]>;
    expect(Object.values(errors).flat()).toContain(message);
    for (const field of Object.keys(errors)) expect(field).toMatch(/^lower(\.|$)/);
    expect((await list(head, grades.path, `subject_id=${subject.id}`)).rows).toEqual(before);
  });

  it('names the grade beside which an overlap is shown', async () => {
    const subject = await newSubject(head);
    const response = await head.post(
      grades.path,
      gradeSet(subject.id, {
        bands: [
          ['A', 50, 100],
          ['B', 0, 60],
        ],
      }),
    );
    expect(response.json().errors).toEqual({ 'lower.A': [GRADE_SET_MESSAGES.overlap] });
  });

  it('wants a subject, a class, a term and a year', async () => {
    const response = await head.post(grades.path, { lower: { A: 0 }, upper: { A: 100 } });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toMatchObject({
      subject_id: [SETTINGS_MESSAGES.subjectRequired],
      form: [SETTINGS_MESSAGES.classRequired],
      term: [SETTINGS_MESSAGES.termRequired],
      year: [SETTINGS_MESSAGES.yearInvalid],
    });
  });

  it('changes and deletes one grade of a set', async () => {
    const subject = await newSubject(head);
    const [top, second] = ok(await head.post(grades.path, gradeSet(subject.id))).grades as Row[];
    const { id, subject: _name, ...fields } = top as Row;
    const changed = ok(await head.put(`${grades.path}/${id}`, { ...fields, lower: 85 }));
    expect(changed).toEqual({ ...top, lower: 85 });
    // Two grades of one set cannot carry the same label.
    const clash = await head.put(`${grades.path}/${id}`, { ...fields, grade: second?.grade });
    expect(clash.statusCode).toBe(422);
    expect(Object.values(clash.json().errors).flat()).toEqual([SETTINGS_MESSAGES.duplicate]);
    ok(await head.delete(`${grades.path}/${second?.id}`));
    expect((await list(head, grades.path, `subject_id=${subject.id}`)).totalRecords).toBe(8);
  });
});

describe('filters', () => {
  it('filters grades by class, term, year and subject', async () => {
    const c = await newSchool(t, 'Grade Filters');
    const [maths, english] = [await newSubject(c), await newSubject(c)];
    const sets: Array<[string, string, string, number]> = [
      [maths.id, 'P7', 'I', 2026],
      [maths.id, 'P6', 'I', 2026],
      [maths.id, 'P7', 'II', 2026],
      [maths.id, 'P7', 'I', 2027],
      [english.id, 'P7', 'I', 2026],
    ];
    for (const [subjectId, form, term, year] of sets) ok(await c.post(grades.path, gradeSet(subjectId, { form, term, year })));
    const all = await list(c, grades.path, '');
    expect(all.totalRecords).toBe(45);
    // Newest year first, then class, term, subject, and the highest band first.
    expect(all.rows.slice(0, 9).map((row) => [row.year, row.grade])).toEqual(DEFAULT_GRADE_BANDS.default.map(([grade]) => [2027, grade]));
    const cases: Array<[string, (row: Row) => boolean, number]> = [
      ['form=P6', (row) => row.form === 'P6', 9],
      ['term=II', (row) => row.term === 'II', 9],
      ['year=2027', (row) => row.year === 2027, 9],
      [`subject_id=${english.id}`, (row) => row.subject_id === english.id, 9],
      [`subject_id=${maths.id}`, (row) => row.subject_id === maths.id, 36],
      ['form=P7&term=I&year=2026', (row) => row.form === 'P7' && row.term === 'I' && row.year === 2026, 18],
      [`form=P7&term=I&year=2026&subject_id=${maths.id}`, (row) => row.subject_id === maths.id && row.form === 'P7', 9],
      ['form=P5', () => true, 0],
    ];
    for (const [query, matches, total] of cases) {
      const found = await list(c, grades.path, query);
      expect(found.totalRecords, query).toBe(total);
      expect(found.rows.every(matches), query).toBe(true);
    }
  });

  it('refuses filter values that cannot match', async () => {
    for (const query of ['term=IV', 'year=1999', 'year=abc', 'subject_id=not-a-uuid']) {
      expect((await head.get(`${grades.path}?${query}`)).statusCode, query).toBe(422);
    }
    expect((await head.get(`${proportions.path}?term=IV`)).statusCode).toBe(422);
    expect((await head.get(`${subjects.path}?active=maybe`)).statusCode).toBe(422);
  });

  it('filters proportions by class, term, year and subject', async () => {
    const c = await newSchool(t, 'Proportion Filters');
    const [maths, english] = [await newSubject(c), await newSubject(c)];
    const [test, exam] = [
      ok(await c.post(markTypes.path, { label: 'Test', category: 'test' })),
      ok(await c.post(markTypes.path, { label: 'Exam', category: 'exam' })),
    ];
    const rows: Array<[string, string, number, string, string, number]> = [
      ['P7', 'I', 2026, maths.id, test.id, 30],
      ['P7', 'I', 2026, maths.id, exam.id, 70],
      ['P6', 'I', 2026, maths.id, exam.id, 100],
      ['P7', 'II', 2026, english.id, exam.id, 100],
      ['P7', 'I', 2027, english.id, exam.id, 100],
    ];
    for (const [form, term, year, subject_id, marktype_id, percentage] of rows) {
      ok(await c.post(proportions.path, { form, term, year, subject_id, marktype_id, percentage }));
    }
    const cases: Array<[string, (row: Row) => boolean, number]> = [
      ['', () => true, 5],
      ['form=P7', (row) => row.form === 'P7', 4],
      ['term=II', (row) => row.term === 'II', 1],
      ['year=2026', (row) => row.year === 2026, 4],
      [`subject_id=${maths.id}`, (row) => row.subject_id === maths.id, 3],
      [`form=P7&term=I&year=2026&subject_id=${maths.id}`, (row) => row.percentage === 30 || row.percentage === 70, 2],
      [`subject_id=${english.id}&year=2026`, (row) => row.term === 'II', 1],
    ];
    for (const [query, matches, total] of cases) {
      const found = await list(c, proportions.path, query);
      expect(found.totalRecords, query).toBe(total);
      expect(found.rows.every(matches), query).toBe(true);
    }
    // Newest year first.
    expect((await list(c, proportions.path, '')).rows[0]).toMatchObject({ year: 2027, subject: { name: english.name } });
  });

  it('filters automatic report comments by class and remark type', async () => {
    const c = await newSchool(t, 'Comment Filters');
    const [conduct, effort] = [
      ok(await c.post(remarkTypes.path, { label: 'Conduct', category: 'exam' })),
      ok(await c.post(remarkTypes.path, { label: 'Effort', category: 'exam' })),
    ];
    for (const [form, remarktype_id, from, to] of [
      ['P7', conduct.id, 0, 49],
      ['P7', conduct.id, 50, 100],
      ['P6', conduct.id, 0, 100],
      ['P7', effort.id, 0, 100],
    ] as const) {
      ok(await c.post(autoReportComments.path, { form, remarktype_id, score: from, upper: to, comment: `From ${from}` }));
    }
    expect((await list(c, autoReportComments.path, 'form=P7')).totalRecords).toBe(3);
    expect((await list(c, autoReportComments.path, `remarktype_id=${conduct.id}`)).totalRecords).toBe(3);
    const both = await list(c, autoReportComments.path, `form=P7&remarktype_id=${conduct.id}`);
    expect(both.rows.map((row) => [row.score, row.upper, row.remarktype])).toEqual([
      [0, 49, { label: 'Conduct' }],
      [50, 100, { label: 'Conduct' }],
    ]);
    expect((await list(c, autoReportComments.path, `form=P6&remarktype_id=${effort.id}`)).totalRecords).toBe(0);
  });

  it('filters subjects by active, and the other lists by their own fields', async () => {
    const c = await newSchool(t, 'Other Filters');
    ok(await c.post(subjects.path, { name: 'Latin', category: 'humanity', active: false }));
    ok(await c.post(subjects.path, { name: 'English', category: 'english' }));
    const names = async (query: string) => (await list(c, subjects.path, query)).rows.map((row) => row.name);
    expect(await names('active=false')).toEqual(['Latin']);
    expect(await names('active=true')).toEqual(['English']);
    expect(await names('')).toEqual(['English', 'Latin']);

    ok(await c.post(markTypes.path, { label: 'Old test', category: 'test', status: 'inactive' }));
    ok(await c.post(markTypes.path, { label: 'Exam', category: 'exam' }));
    expect((await list(c, markTypes.path, 'status=inactive')).rows.map((row) => row.label)).toEqual(['Old test']);

    ok(await c.post(remarkTypes.path, { label: 'Mid term conduct', category: 'mid term' }));
    ok(await c.post(remarkTypes.path, { label: 'Exam conduct', category: 'exam' }));
    expect((await list(c, remarkTypes.path, 'category=mid%20term')).rows.map((row) => row.label)).toEqual(['Mid term conduct']);

    ok(await c.post(autoMarkComments.path, { score: 'D1', comment: 'Excellent', category: 'nc skill' }));
    ok(await c.post(autoMarkComments.path, { score: 'D2', comment: 'Very good' }));
    expect((await list(c, autoMarkComments.path, 'category=nc%20skill')).rows.map((row) => row.score)).toEqual(['D1']);
    expect((await list(c, autoMarkComments.path, 'category=general')).rows.map((row) => row.score)).toEqual(['D2']);
    // Grades are matched case-insensitively, so "d2" beside "D2" is the same grade: refused.
    const twin = await c.post(autoMarkComments.path, { score: ' d2', comment: 'Good' });
    expect(twin.statusCode).toBe(422);
    expect(twin.json().errors).toEqual({ score: [SETTINGS_MESSAGES.duplicate] });
    ok(await c.post(autoMarkComments.path, { score: 'd2', comment: 'Good', category: 'nc general' }));

    const markType = (await list(c, markTypes.path, 'status=active')).rows[0] as Row;
    for (const [term, year] of [
      ['I', 2026],
      ['II', 2026],
      ['I', 2027],
    ] as const) {
      ok(await c.post(publishMarks.path, { term, year, marktype_id: markType.id }));
    }
    const published = async (query: string) => (await list(c, publishMarks.path, query)).rows.map((row) => [row.term, row.year]);
    expect(await published('')).toEqual([
      ['I', 2027],
      ['II', 2026],
      ['I', 2026],
    ]);
    expect(await published('term=I')).toEqual([
      ['I', 2027],
      ['I', 2026],
    ]);
    expect(await published('year=2026&term=II')).toEqual([['II', 2026]]);

    ok(await c.post('/api/school/alevelscores', { total: 10, score: 2, papercount: 3 }));
    ok(await c.post('/api/school/alevelscores', { total: 10, score: 3, papercount: 4 }));
    expect((await list(c, '/api/school/alevelscores', 'papercount=4')).rows.map((row) => row.score)).toEqual([3]);
  });
});
