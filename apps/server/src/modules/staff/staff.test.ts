import { classTeachers, deputies, gradeFooters, reportFooters, SETTINGS_MESSAGES, subjectPapers, subjectTeachers } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { EXCEL_ATTACHMENT, newSubject, ok, type Row, valuesOf, workbookOf } from '../settings/settings-fixtures.js';

/*
 * Staff assignments (issue 13): the six lists on the resource mechanism, the teacher options,
 * the rules (no duplicate, one primary class teacher, papers 1 to 6, members only) and what
 * assignments grant (`/assignments/mine`).
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let grace: { id: string };
let peter: { id: string };
let maths: Row;
let english: Row;

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Staff Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const graceUser = await makeUser(t.database, { name: 'Grace Auma', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  grace = graceUser;
  peter = await makeUser(t.database, { name: 'Peter Okello', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, graceUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  maths = await newSubject(head, { name: 'Mathematics' });
  english = await newSubject(head, { name: 'English' });
});
afterAll(() => t.close());

const assignment = (fields: Record<string, unknown> = {}) => ({
  user_id: grace.id,
  subject_id: maths.id,
  form: 'P5',
  stream: 'A',
  term: 'I',
  year: 2026,
  ...fields,
});

describe('teacher options (GET /api/requisitions/defaults)', () => {
  it('are the school’s members, id and name, by name', async () => {
    const { users } = ok(await teacher.get('/api/requisitions/defaults'));
    expect(users.map((user: { name: string }) => user.name)).toEqual(['Grace Auma', 'Head Teacher', 'Peter Okello']);
    expect(Object.keys(users[0]).sort()).toEqual(['id', 'name']);
  });

  it('hold no one from another school', async () => {
    const { users } = ok(await other.get('/api/requisitions/defaults'));
    expect(users.map((user: { name: string }) => user.name)).toEqual(['Other Head']);
  });
});

describe('subject teachers', () => {
  it('creates an assignment answered with the teacher and subject named, the class in the school’s spelling', async () => {
    const saved = ok(await head.post(subjectTeachers.path, assignment({ form: 'p5' })));
    expect(saved).toMatchObject({
      user_id: grace.id,
      teacher: { name: 'Grace Auma', member: true },
      subject: { name: 'Mathematics' },
      form: 'P5',
      stream: 'A',
      term: 'I',
      year: 2026,
    });
    const { subjectteachers, totalRecords } = ok(await head.get(`${subjectTeachers.path}?form=P5`));
    expect(totalRecords).toBe(1);
    expect(subjectteachers[0].id).toBe(saved.id);
  });

  it('refuses the same assignment twice with 409, even sent twice at once', async () => {
    const body = assignment({ subject_id: english.id, form: 'P6', stream: ' ' });
    const answers = await Promise.all([head.post(subjectTeachers.path, body), head.post(subjectTeachers.path, body)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(refused?.json().message).toBe(SETTINGS_MESSAGES.assignmentExists);
    // A blank stream is the whole class, stored as none.
    expect(answers.find((answer) => answer.statusCode === 200)?.json().stream).toBeNull();
  });

  it('updates a record (PUT) and answers it', async () => {
    const saved = ok(await head.post(subjectTeachers.path, assignment({ form: 'P4' })));
    const updated = ok(await head.put(`${subjectTeachers.path}/${saved.id}`, assignment({ form: 'P4', stream: 'B', user_id: peter.id })));
    expect(updated).toMatchObject({ id: saved.id, stream: 'B', teacher: { name: 'Peter Okello' } });
  });

  it('takes only a member of the school as teacher, and a subject of the school', async () => {
    const stranger = await makeUser(t.database, { name: 'Not Here' });
    const notMember = await head.post(subjectTeachers.path, assignment({ user_id: stranger.id, form: 'P3' }));
    expect(notMember.statusCode).toBe(422);
    expect(notMember.json().errors.user_id).toEqual([SETTINGS_MESSAGES.teacherNotMember]);
    const theirSubject = ok(await other.post('/api/school/subjects', { name: 'Their subject', category: 'general' }));
    const foreign = await head.post(subjectTeachers.path, assignment({ subject_id: theirSubject.id, form: 'P3' }));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.subject_id).toEqual([SETTINGS_MESSAGES.referenceMissing]);
  });

  it('says what is wrong with bad input, saving nothing', async () => {
    const before = ok(await head.get(subjectTeachers.path)).totalRecords;
    const bad = await head.post(subjectTeachers.path, {
      user_id: 'x',
      subject_id: null,
      form: '',
      term: 'IV',
      year: 'soon',
      stream: 'A\u0000',
    });
    expect(bad.statusCode).toBe(422);
    const huge = await head.post(subjectTeachers.path, assignment({ stream: 'A'.repeat(10_000) }));
    expect(huge.statusCode).toBe(422);
    const unknownClass = await head.post(subjectTeachers.path, assignment({ form: 'P9' }));
    expect(unknownClass.json().errors.form).toEqual([SETTINGS_MESSAGES.classUnknown]);
    expect(ok(await head.get(subjectTeachers.path)).totalRecords).toBe(before);
  });

  it('a teacher reads the list but may not write it', async () => {
    expect(ok(await teacher.get(subjectTeachers.path)).totalRecords).toBeGreaterThan(0);
    expect((await teacher.post(subjectTeachers.path, assignment({ form: 'P2' }))).statusCode).toBe(403);
  });

  it('another school sees none of it, and cannot read, change or delete a record by id', async () => {
    const saved = ok(await head.post(subjectTeachers.path, assignment({ form: 'P1' })));
    expect(ok(await other.get(subjectTeachers.path)).totalRecords).toBe(0);
    expect((await other.get(`${subjectTeachers.path}/${saved.id}`)).statusCode).toBe(404);
    expect((await other.put(`${subjectTeachers.path}/${saved.id}`, assignment({ form: 'P1' }))).statusCode).toBe(404);
    expect((await other.delete(`${subjectTeachers.path}/${saved.id}`)).statusCode).toBe(404);
  });
});

describe('every staff list', () => {
  it('pages at 100, sorted ascending by class, and searches', async () => {
    const rows = Array.from({ length: 105 }, (_, index) => ({
      form: index % 2 ? 'P7' : 'P6',
      stream: `S${String(index).padStart(3, '0')}`,
      details: `A 80-100, B 60-79 (${index})`,
    }));
    for (const row of rows) ok(await head.post(gradeFooters.path, row));
    const first = ok(await head.get(gradeFooters.path));
    expect(first.totalRecords).toBe(105);
    expect(first.gradefoots).toHaveLength(100);
    const order = first.gradefoots.map((row: Row) => `${row.form}|${row.stream}`);
    expect(order).toEqual([...order].sort());
    expect(ok(await head.get(`${gradeFooters.path}?page=2`)).gradefoots).toHaveLength(5);
    expect(ok(await head.get(`${gradeFooters.path}?search=S004`)).gradefoots.map((row: Row) => row.stream)).toEqual(['S004']);
  });

  it('downloads the filtered list with excel=1, read back with its headers', async () => {
    const response = await head.get(`${subjectTeachers.path}?excel=1&form=P5`);
    expect(response.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    const sheet = await workbookOf(response);
    expect(valuesOf(sheet, 6)).toEqual([
      ['Teacher', 'Subject', 'Class', 'Stream', 'Term', 'Year'],
      ['Grace Auma', 'Mathematics', 'P5', 'A', 'I', 2026],
    ]);
  });

  it('class teachers: one primary per class, stream, term and year, the 409 naming who has it; co-teachers beside', async () => {
    ok(await head.post(classTeachers.path, { user_id: grace.id, form: 'P5', stream: 'A', term: 'I', year: 2026, category: 'primary' }));
    const taken = await head.post(classTeachers.path, {
      user_id: peter.id,
      form: 'P5',
      stream: 'a',
      term: 'I',
      year: 2026,
      category: 'primary',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(`${SETTINGS_MESSAGES.classTeacherTaken}: Grace Auma`);
    const co = ok(
      await head.post(classTeachers.path, { user_id: peter.id, form: 'P5', stream: 'A', term: 'I', year: 2026, category: 'co-teacher' }),
    );
    expect(co.category).toBe('co-teacher');
    // Making the co-teacher primary is refused the same way; another term is free.
    const promote = await head.put(`${classTeachers.path}/${co.id}`, {
      user_id: peter.id,
      form: 'P5',
      stream: 'A',
      term: 'I',
      year: 2026,
      category: 'primary',
    });
    expect(promote.statusCode).toBe(409);
    ok(await head.post(classTeachers.path, { user_id: peter.id, form: 'P5', stream: 'A', term: 'II', year: 2026, category: 'primary' }));
    expect(
      (await head.post(classTeachers.path, { user_id: peter.id, form: 'P5', stream: 'A', term: 'I', year: 2026, category: 'other' })).json()
        .errors.category,
    ).toEqual([SETTINGS_MESSAGES.categoryRequired]);
  });

  it('deputies: a member per class and stream, the same twice refused', async () => {
    const saved = ok(await head.post(deputies.path, { user_id: peter.id, form: 'P4', stream: '' }));
    expect(saved).toMatchObject({ form: 'P4', stream: null, teacher: { name: 'Peter Okello', member: true } });
    expect((await head.post(deputies.path, { user_id: peter.id, form: 'P4' })).statusCode).toBe(409);
    expect(ok(await head.get(`${deputies.path}?user_id=${peter.id}`)).deputies).toHaveLength(1);
  });

  it('report footers: year a number, category assesment or exam, the same title twice refused', async () => {
    const footer = {
      title: 'Next term begins',
      form: 'P7',
      term: 'I',
      year: '2026',
      category: 'exam',
      position: 1,
      remarks: '2 February 2026',
    };
    const saved = ok(await head.post(reportFooters.path, footer));
    expect(saved).toMatchObject({ year: 2026, category: 'exam', position: 1 });
    expect((await head.post(reportFooters.path, { ...footer, title: 'next term BEGINS' })).statusCode).toBe(409);
    expect((await head.post(reportFooters.path, { ...footer, category: 'assessment' })).json().errors.category).toEqual([
      SETTINGS_MESSAGES.categoryRequired,
    ]);
    expect((await head.post(reportFooters.path, { ...footer, year: 'next' })).json().errors.year).toEqual([SETTINGS_MESSAGES.yearInvalid]);
  });

  it('subject papers: between 1 and 6, one record per subject, class, term and year', async () => {
    const paper = { form: 'P7', term: 'I', year: 2026, subject_id: maths.id, papers: 2 };
    expect(ok(await head.post(subjectPapers.path, paper))).toMatchObject({ papers: 2, subject: { name: 'Mathematics' } });
    for (const papers of [0, 7, 2.5, 'two'])
      expect((await head.post(subjectPapers.path, { ...paper, subject_id: english.id, papers })).json().errors.papers).toEqual([
        SETTINGS_MESSAGES.papersInvalid,
      ]);
    expect((await head.post(subjectPapers.path, { ...paper, papers: 3 })).statusCode).toBe(409);
  });
});

describe('a member removed from the school', () => {
  it('keeps past assignments, named and marked no longer a member, and gets no new ones', async () => {
    const leaving = await makeUser(t.database, { name: 'Sarah Leaving', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const past = ok(await head.post(subjectTeachers.path, assignment({ user_id: leaving.id, form: 'P2' })));
    const removed = await head.delete(`/api/users/${leaving.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const listed = ok(await head.get(`${subjectTeachers.path}?form=P2`)).subjectteachers.find((row: Row) => row.id === past.id);
    expect(listed.teacher).toEqual({ name: 'Sarah Leaving', member: false });
    const again = await head.post(subjectTeachers.path, assignment({ user_id: leaving.id, form: 'P3' }));
    expect(again.json().errors.user_id).toEqual([SETTINGS_MESSAGES.teacherNotMember]);
    expect(ok(await head.get('/api/requisitions/defaults')).users.map((user: { name: string }) => user.name)).not.toContain(
      'Sarah Leaving',
    );
  });
});

describe('what the member may enter (GET /api/school/assignments/mine)', () => {
  it('a teacher: marks and comments where assigned, exactly their assignments of the term', async () => {
    const mine = ok(await teacher.get('/api/school/assignments/mine?term=I&year=2026'));
    // The default teacher role no longer manages remarks (issue 23 item 8): comments too are where assigned.
    expect(mine.reach).toEqual({ marks: 'assigned', subjectComments: 'assigned', reportComments: 'assigned' });
    const held = ok(await head.get(`${subjectTeachers.path}?term=I&year=2026&per_page=1000`)).subjectteachers.filter(
      (row: Row) => row.user_id === grace.id,
    );
    expect(mine.subjects.map((row: Row) => `${row.form}|${row.stream}|${(row.subject as { name: string }).name}`).sort()).toEqual(
      held.map((row: Row) => `${row.form}|${row.stream}|${(row.subject as { name: string }).name}`).sort(),
    );
    expect(mine.classes).toEqual([{ form: 'P5', stream: 'A', term: 'I', year: 2026, category: 'primary' }]);
    expect(ok(await teacher.get('/api/school/assignments/mine?term=III&year=2026'))).toMatchObject({ subjects: [], classes: [] });
  });

  it('a head teacher reaches everything', async () => {
    expect(ok(await head.get('/api/school/assignments/mine?term=I&year=2026')).reach).toEqual({
      marks: 'all',
      subjectComments: 'all',
      reportComments: 'all',
    });
  });

  it('asks for a term and a year', async () => {
    expect((await teacher.get('/api/school/assignments/mine?term=IV&year=2026')).statusCode).toBe(422);
    expect((await teacher.get('/api/school/assignments/mine')).statusCode).toBe(422);
  });
});
