import { CURRICULUM_MESSAGES, IN_USE_MESSAGES, localDay, projects, SETTINGS_MESSAGES, topics } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { setCodeTenantFilterForTests } from '../../db/tenant-filter.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newMarkType, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * The new curriculum's competencies (topics) and projects (issue 26 points 2 and 4): CRUD and
 * the list shapes, filters and pages of 25, the 409 of a competency that marks carry, bad input
 * by name with nothing saved, another school's ids, a teacher who only reads, and the tenants
 * kept apart by row-level security alone.
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let elsewhere: { id: string; tenantcode: string };
let maths: Row;
let english: Row;
let foreignSubject: Row;

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Curriculum SS', schooltype: 'secondary' });
  elsewhere = await makeTenant(t.database, { name: 'Other SS', schooltype: 'secondary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { name: 'Grace Auma', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  maths = await newSubject(head, { name: 'Mathematics' });
  english = await newSubject(head, { name: 'English Language' });
  foreignSubject = await newSubject(other, { name: 'Other Mathematics' });
});
afterAll(() => t.close());

const topic = (fields: Record<string, unknown> = {}) => ({
  form: 'S1',
  term: 'I',
  subject_id: maths.id,
  title: 'Number bases',
  remarks: 'Bases two to ten',
  ...fields,
});
const project = (fields: Record<string, unknown> = {}) => ({
  form: 'S3',
  subject_id: maths.id,
  term: 'II',
  year: 2026,
  title: 'Designing a school garden',
  ...fields,
});

const count = (table: 'topics' | 'projects', tenantId = school.id) =>
  withTenant(t.database.db, { tenantId }, async (trx) =>
    Number(
      (
        await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );

describe('competencies (topics)', () => {
  it('are created, read, listed, changed and deleted, with the subject named and the class in the school’s spelling', async () => {
    const saved = ok(await head.post(topics.path, topic({ form: 's1' })));
    expect(saved).toEqual({
      id: expect.any(String),
      form: 'S1',
      term: 'I',
      title: 'Number bases',
      remarks: 'Bases two to ten',
      subject_id: maths.id,
      subject: { name: 'Mathematics' },
    });
    // GET /api/school/topics/{id}: title, form, subject_id, term and the rest (spec §7).
    expect(ok(await head.get(`${topics.path}/${saved.id}`))).toEqual(saved);
    const list = ok(await head.get(`${topics.path}?form=S1&term=I&subject_id=${maths.id}`));
    expect(Object.keys(list).sort()).toEqual(['topics', 'totalRecords']);
    expect(list.topics).toEqual([saved]);
    expect(list.totalRecords).toBe(1);

    const changed = ok(await head.put(`${topics.path}/${saved.id}`, topic({ title: 'Working with integers', remarks: '' })));
    expect(changed).toMatchObject({ id: saved.id, title: 'Working with integers', remarks: null });
    expect(ok(await teacher.get(`${topics.path}/${saved.id}`)).title).toBe('Working with integers');

    ok(await head.delete(`${topics.path}/${saved.id}`));
    expect((await head.get(`${topics.path}/${saved.id}`)).statusCode).toBe(404);
  });

  it('filter by class, term and subject, search by title, 25 a page', async () => {
    const titles = Array.from({ length: 27 }, (_, at) => `Topic ${String(at).padStart(2, '0')}`);
    for (const title of titles) ok(await head.post(topics.path, topic({ form: 'S2', term: 'II', title })));
    ok(await head.post(topics.path, topic({ form: 'S2', term: 'II', subject_id: english.id, title: 'Reading for meaning' })));
    ok(await head.post(topics.path, topic({ form: 'S2', term: 'III', title: 'Term three topic' })));

    const first = ok(await head.get(`${topics.path}?form=S2&term=II&subject_id=${maths.id}`));
    expect(first.totalRecords).toBe(27);
    expect(first.topics).toHaveLength(25);
    expect(first.topics[0].title).toBe('Topic 00');
    const second = ok(await head.get(`${topics.path}?form=S2&term=II&subject_id=${maths.id}&page=2`));
    expect(second.topics.map((row: Row) => row.title)).toEqual(['Topic 25', 'Topic 26']);
    expect(ok(await head.get(`${topics.path}?form=S2&subject_id=${english.id}`)).topics.map((row: Row) => row.title)).toEqual([
      'Reading for meaning',
    ]);
    expect(ok(await head.get(`${topics.path}?form=S2&term=III`)).totalRecords).toBe(1);
    expect(ok(await head.get(`${topics.path}?form=S2&search=topic 1`)).totalRecords).toBe(10);
  });

  it('refuse deleting a competency that marks carry, with 409 naming why, and keep it', async () => {
    const saved = ok(await head.post(topics.path, topic({ form: 'S4', title: 'Probability' })));
    const marktype = await newMarkType(head);
    const learner = newId();
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('students')
        .values({
          tenant_id: school.id,
          id: learner,
          studentid: `CUR-${learner.slice(0, 8)}`,
          firstname: 'Amina',
          lastname: 'Okello',
          form: 'S4',
        })
        .execute(),
    );
    await makeMarks(t.database, school.id, learner, [
      { subjectId: maths.id, marktypeId: marktype.id, form: 'S4', term: 'I', year: 2026, mark: 2.5, topicId: saved.id },
    ]);
    const refused = await head.delete(`${topics.path}/${saved.id}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(IN_USE_MESSAGES.topics);
    expect(ok(await head.get(`${topics.path}/${saved.id}`)).title).toBe('Probability');
  });

  it('refuse bad input by field with 422, saving nothing', async () => {
    const before = await count('topics');
    const cases: Array<[Record<string, unknown>, string]> = [
      [topic({ title: '' }), 'title'],
      [topic({ title: 42 }), 'title'],
      [topic({ title: 'x'.repeat(201) }), 'title'],
      [topic({ title: 'Null\u0000byte' }), 'title'],
      [topic({ remarks: 'r'.repeat(2001) }), 'remarks'],
      [topic({ form: undefined }), 'form'],
      [topic({ form: 'P7' }), 'form'],
      [topic({ term: 'IV' }), 'term'],
      [topic({ subject_id: undefined }), 'subject_id'],
      [topic({ subject_id: 'not-an-id' }), 'subject_id'],
      [topic({ subject_id: foreignSubject.id }), 'subject_id'],
      [topic({ extra: 1 }), ''],
    ];
    for (const [body, field] of cases) {
      const answer = await head.post(topics.path, body);
      expect(answer.statusCode, `${field}: ${answer.body}`).toBe(422);
      if (field) expect(Object.keys(answer.json().errors ?? {}), answer.body).toContain(field);
    }
    const saved = ok(await head.post(topics.path, topic({ form: 'S3', title: 'Kept' })));
    const update = await head.put(`${topics.path}/${saved.id}`, topic({ subject_id: foreignSubject.id }));
    expect(update.statusCode, update.body).toBe(422);
    expect(update.json().errors.subject_id).toEqual([SETTINGS_MESSAGES.referenceMissing]);
    expect(ok(await head.get(`${topics.path}/${saved.id}`))).toMatchObject({ title: 'Kept', subject_id: maths.id });
    expect(await count('topics')).toBe(before + 1);
    expect((await head.get(`${topics.path}?term=IV`)).statusCode).toBe(422);
  });

  it('are read by a teacher, written only by those who manage marks (403)', async () => {
    const saved = ok(await head.post(topics.path, topic({ form: 'S1', title: 'Teacher reads' })));
    expect(ok(await teacher.get(`${topics.path}?form=S1`)).topics.map((row: Row) => row.id)).toContain(saved.id);
    expect((await teacher.post(topics.path, topic())).statusCode).toBe(403);
    expect((await teacher.put(`${topics.path}/${saved.id}`, topic())).statusCode).toBe(403);
    expect((await teacher.delete(`${topics.path}/${saved.id}`)).statusCode).toBe(403);
    expect(ok(await head.get(`${topics.path}/${saved.id}`)).title).toBe('Teacher reads');
  });
});

describe('projects', () => {
  it('are created with a maximum of 10 unless stated, read, listed, changed and deleted', async () => {
    const saved = ok(await head.post(projects.path, project({ form: 's3' })));
    expect(saved).toEqual({
      id: expect.any(String),
      form: 'S3',
      term: 'II',
      year: 2026,
      title: 'Designing a school garden',
      max_score: 10,
      subject_id: maths.id,
      subject: { name: 'Mathematics' },
    });
    expect(ok(await head.get(`${projects.path}/${saved.id}`))).toEqual(saved);
    const list = ok(await head.get(`${projects.path}?form=S3&term=II&year=2026&subject_id=${maths.id}`));
    expect(Object.keys(list).sort()).toEqual(['projects', 'totalRecords']);
    expect(list.projects).toEqual([saved]);

    const changed = ok(await head.put(`${projects.path}/${saved.id}`, project({ title: 'A garden plan', max_score: '20' })));
    expect(changed).toMatchObject({ id: saved.id, title: 'A garden plan', max_score: 20 });
    ok(await head.delete(`${projects.path}/${saved.id}`));
    expect((await head.get(`${projects.path}/${saved.id}`)).statusCode).toBe(404);
  });

  it('filter by class, term, subject and year, 25 a page', async () => {
    for (let at = 0; at < 26; at++)
      ok(await head.post(projects.path, project({ form: 'S4', year: 2025, title: `Project ${String(at).padStart(2, '0')}` })));
    ok(await head.post(projects.path, project({ form: 'S4', year: 2026, title: 'This year' })));
    ok(await head.post(projects.path, project({ form: 'S4', year: 2025, subject_id: english.id, title: 'A class magazine' })));
    const first = ok(await head.get(`${projects.path}?form=S4&year=2025&term=II&subject_id=${maths.id}`));
    expect(first.totalRecords).toBe(26);
    expect(first.projects).toHaveLength(25);
    expect(ok(await head.get(`${projects.path}?form=S4&year=2025&term=II&subject_id=${maths.id}&page=2`)).projects).toHaveLength(1);
    expect(ok(await head.get(`${projects.path}?form=S4&year=2026`)).projects.map((row: Row) => row.title)).toEqual(['This year']);
    expect(ok(await head.get(`${projects.path}?form=S4&subject_id=${english.id}`)).projects.map((row: Row) => row.title)).toEqual([
      'A class magazine',
    ]);
    expect(ok(await head.get(`${projects.path}?form=S4&term=I`)).totalRecords).toBe(0);
  });

  it('refuse bad input by field with 422, saving nothing', async () => {
    const before = await count('projects');
    const cases: Array<[Record<string, unknown>, string]> = [
      [project({ title: '' }), 'title'],
      [project({ title: ['x'] }), 'title'],
      [project({ title: 't'.repeat(100_000) }), 'title'],
      [project({ title: 'a\u0000b' }), 'title'],
      [project({ year: 'next' }), 'year'],
      [project({ year: 1999 }), 'year'],
      [project({ year: undefined }), 'year'],
      [project({ term: undefined }), 'term'],
      [project({ form: 'Senior Nine' }), 'form'],
      [project({ max_score: 0 }), 'max_score'],
      [project({ max_score: 2.5 }), 'max_score'],
      [project({ max_score: 'ten' }), 'max_score'],
      [project({ max_score: 1001 }), 'max_score'],
      [project({ subject_id: foreignSubject.id }), 'subject_id'],
    ];
    for (const [body, field] of cases) {
      const answer = await head.post(projects.path, body);
      expect(answer.statusCode, `${field}: ${answer.body}`).toBe(422);
      expect(Object.keys(answer.json().errors ?? {}), answer.body).toContain(field);
    }
    expect(await count('projects')).toBe(before);
  });

  it('are read by a teacher, written only by those who manage marks (403)', async () => {
    const saved = ok(await head.post(projects.path, project({ title: 'Read only' })));
    expect(ok(await teacher.get(`${projects.path}/${saved.id}`)).title).toBe('Read only');
    expect((await teacher.post(projects.path, project())).statusCode).toBe(403);
    expect((await teacher.put(`${projects.path}/${saved.id}`, project())).statusCode).toBe(403);
    expect((await teacher.delete(`${projects.path}/${saved.id}`)).statusCode).toBe(403);
  });
});

describe('which class a competency or project belongs to (issue 26 walk-through)', () => {
  const learnerIn = async (form: string) => {
    const id = newId();
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('students')
        .values({ tenant_id: school.id, id, studentid: `CUR-${id.slice(-12)}`, firstname: 'Brian', lastname: 'Mugisha', form })
        .execute(),
    );
    return id;
  };
  const refusedBy = (answer: { statusCode: number; body: string; json(): { errors?: Record<string, string[]> } }) => {
    expect(answer.statusCode, answer.body).toBe(422);
    return answer.json().errors ?? {};
  };
  const setCurricula = (year: number, classes: Array<{ form: string; curriculum: string }>) =>
    head.put('/api/school/curricula', { year, allow_zero: false, classes });

  it('keeps a scored competency’s class, term and subject (422 naming each changed), its title and remarks editable', async () => {
    const scored = ok(await head.post(topics.path, topic({ form: 'S2', title: 'Scored competency' })));
    const marktype = await newMarkType(head);
    await makeMarks(t.database, school.id, await learnerIn('S2'), [
      { subjectId: maths.id, marktypeId: marktype.id, form: 'S2', term: 'I', year: 2026, mark: 2, topicId: scored.id },
    ]);
    const stuck = [CURRICULUM_MESSAGES.topicHasScores];
    expect(refusedBy(await head.put(`${topics.path}/${scored.id}`, topic({ form: 'S3', title: 'Scored competency' })))).toEqual({
      form: stuck,
    });
    expect(refusedBy(await head.put(`${topics.path}/${scored.id}`, topic({ form: 'S2', term: 'II' })))).toEqual({ term: stuck });
    expect(refusedBy(await head.put(`${topics.path}/${scored.id}`, topic({ form: 'S2', subject_id: english.id })))).toEqual({
      subject_id: stuck,
    });
    expect(refusedBy(await head.put(`${topics.path}/${scored.id}`, topic({ form: 'S4', term: 'III', subject_id: english.id })))).toEqual({
      form: stuck,
      term: stuck,
      subject_id: stuck,
    });
    expect(ok(await head.get(`${topics.path}/${scored.id}`))).toEqual(scored);

    // The class in another spelling is the same class; the title and remarks change.
    const renamed = ok(await head.put(`${topics.path}/${scored.id}`, topic({ form: 's2', title: 'Renamed', remarks: 'New remarks' })));
    expect(renamed).toMatchObject({ form: 'S2', term: 'I', subject_id: maths.id, title: 'Renamed', remarks: 'New remarks' });

    // A competency without scores moves freely between new-curriculum classes.
    const unscored = ok(await head.post(topics.path, topic({ form: 'S2', title: 'Not yet scored' })));
    expect(ok(await head.put(`${topics.path}/${unscored.id}`, topic({ form: 'S3', term: 'II', title: 'Not yet scored' })))).toMatchObject({
      form: 'S3',
      term: 'II',
    });
  });

  it('refuses a competency or project for a class on the old curriculum (422 naming form), nothing saved', async () => {
    const old = [CURRICULUM_MESSAGES.oldCurriculumClass];
    const [topicsBefore, projectsBefore] = [await count('topics'), await count('projects')];
    expect(refusedBy(await head.post(topics.path, topic({ form: 'S5' })))).toEqual({ form: old });
    expect(refusedBy(await head.post(projects.path, project({ form: 'S6' })))).toEqual({ form: old });
    const kept = ok(await head.post(topics.path, topic({ form: 'S1', title: 'Stays in S1' })));
    expect(refusedBy(await head.put(`${topics.path}/${kept.id}`, topic({ form: 'S5', title: 'Stays in S1' })))).toEqual({ form: old });
    const project2026 = ok(await head.post(projects.path, project({ form: 'S3', title: 'Stays in S3' })));
    expect(refusedBy(await head.put(`${projects.path}/${project2026.id}`, project({ form: 'S5', title: 'Stays in S3' })))).toEqual({
      form: old,
    });
    expect(ok(await head.get(`${topics.path}/${kept.id}`)).form).toBe('S1');
    expect(ok(await head.get(`${projects.path}/${project2026.id}`)).form).toBe('S3');
    expect([await count('topics'), await count('projects')]).toEqual([topicsBefore + 1, projectsBefore + 1]);

    // A project follows its own year: S3 on the old curriculum in 2031 takes no project that year, nor one moved there.
    ok(await setCurricula(2031, [{ form: 'S3', curriculum: 'old' }]));
    try {
      expect(refusedBy(await head.post(projects.path, project({ form: 'S3', year: 2031 })))).toEqual({ form: old });
      expect(refusedBy(await head.put(`${projects.path}/${project2026.id}`, project({ form: 'S3', year: 2031 })))).toEqual({ form: old });
      expect(ok(await head.get(`${projects.path}/${project2026.id}`)).year).toBe(2026);
    } finally {
      ok(await setCurricula(2031, [{ form: 'S3', curriculum: 'new' }]));
    }

    // A competency follows this year's classes: S5 put on the new curriculum takes one.
    const year = Number(localDay().slice(0, 4));
    ok(await setCurricula(year, [{ form: 'S5', curriculum: 'new' }]));
    try {
      expect(ok(await head.post(topics.path, topic({ form: 'S5', title: 'A new S5 competency' }))).form).toBe('S5');
    } finally {
      ok(await setCurricula(year, [{ form: 'S5', curriculum: 'old' }]));
    }
  });
});

describe('another school', () => {
  for (const filter of [true, false]) {
    it(`cannot read, change or delete this school’s competencies and projects (${filter ? 'code filter and RLS' : 'RLS alone'})`, async () => {
      const mine = ok(await head.post(topics.path, topic({ form: 'S1', title: `Ours ${filter}` })));
      const ours = ok(await head.post(projects.path, project({ title: `Ours ${filter}` })));
      const theirs = ok(await other.post(topics.path, { ...topic({ subject_id: foreignSubject.id }), title: `Theirs ${filter}` }));
      setCodeTenantFilterForTests(filter);
      try {
        for (const [path, id, body] of [
          [topics.path, mine.id, topic({ subject_id: foreignSubject.id })],
          [projects.path, ours.id, project({ subject_id: foreignSubject.id })],
        ] as const) {
          expect((await other.get(`${path}/${id}`)).statusCode).toBe(404);
          expect((await other.put(`${path}/${id}`, body)).statusCode).toBe(404);
          expect((await other.delete(`${path}/${id}`)).statusCode).toBe(404);
          // The same person's token with this school's code is not a member here.
          expect((await other.in(school.tenantcode).get(`${path}/${id}`)).statusCode).toBe(403);
        }
        const listed = ok(await other.get(`${topics.path}?per_page=1000`)).topics.map((row: Row) => row.id);
        expect(listed).toContain(theirs.id);
        expect(listed).not.toContain(mine.id);
        expect(ok(await other.get(`${projects.path}?per_page=1000`)).projects.map((row: Row) => row.id)).not.toContain(ours.id);
        expect((await head.get(`${topics.path}/${theirs.id}`)).statusCode).toBe(404);
      } finally {
        setCodeTenantFilterForTests(true);
      }
      expect(ok(await head.get(`${topics.path}/${mine.id}`)).title).toBe(`Ours ${filter}`);
      expect(ok(await head.get(`${projects.path}/${ours.id}`)).title).toBe(`Ours ${filter}`);
    });
  }
});
