import { MARK_MESSAGES, markTypes, publishMarks, SETTINGS_MESSAGES, subjectTeachers } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { EXCEL_ATTACHMENT, newSubject, ok, type Row, valuesOf, workbookOf } from '../settings/settings-fixtures.js';

/*
 * Entering marks (issue 14) through the API: the grid's load and save, ABS apart from 0, the
 * same save_id twice, conflicts, published marks, assignments, bad input, the list, deletion
 * and history; another school sees none of it.
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let maths: Row;
let english: Row;
let bot: Row;
let mot: Row;
type Learner = { id: string; studentid: string };
let p5: Learner[];
let p6: Learner[];
const YEAR = new Date().getFullYear();

/** Learners of a class and stream, named so the grid's order is known (Amina, Brian, Carol, ...). */
async function learners(tenantId: string, form: string, stream: string, names: string[]) {
  const rows = names.map((firstname, index) => ({
    tenant_id: tenantId,
    id: newId(),
    studentid: `${form}-${stream}-${index + 1}`,
    firstname,
    lastname: 'Okello',
    form,
    stream,
  }));
  await withTenant(t.database.db, { tenantId }, (trx) => trx.insertInto('students').values(rows).execute());
  return rows.map((row) => ({ id: row.id, studentid: row.studentid }));
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Marks Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { name: 'Grace Auma', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  maths = await newSubject(head, { name: 'Mathematics' });
  english = await newSubject(head, { name: 'English' });
  bot = ok(await head.post(markTypes.path, { label: 'BOT', category: 'exam', position: 1 }));
  mot = ok(await head.post(markTypes.path, { label: 'MOT', category: 'exam', position: 2, outof: 50 }));
  p5 = await learners(school.id, 'P5', 'East', ['Amina', 'Brian', 'Carol']);
  p6 = await learners(school.id, 'P6', 'East', ['Daniel']);
  // Grace teaches Mathematics in P5 (every stream) in Term I.
  ok(
    await head.post(subjectTeachers.path, { user_id: teacherUser.id, subject_id: maths.id, form: 'P5', stream: '', term: 'I', year: YEAR }),
  );
});
afterAll(() => t.close());

const place = (fields: Record<string, unknown> = {}) => ({
  form: 'P5',
  stream: 'East',
  term: 'I',
  year: YEAR,
  subject_id: maths.id,
  paper: 'I',
  ...fields,
});
const grid = (by: Caller, fields: Record<string, unknown> = {}) =>
  by.post('/api/school/marks/grid', { ...place(), marktypes: [bot.id, mot.id], ...fields });
const save = (by: Caller, marks: Record<string, Record<string, unknown>>, base: Record<string, Record<string, number>> = {}, fields = {}) =>
  by.post('/api/school/marks', { ...place(), save_id: crypto.randomUUID(), marks, base, ...fields });
const historyOf = async (studentId: string, marktypeId: string, subjectId = maths.id as string) =>
  ok(
    await head.get(
      `/api/school/marks/history?student_id=${studentId}&subject_id=${subjectId}&marktype_id=${marktypeId}&term=I&year=${YEAR}`,
    ),
  ).history as Array<{ old: unknown; new: unknown; source: string; user: string | null }>;

describe('the grid', () => {
  it('lists the class’s learners by mark type, each mark type with its maximum', async () => {
    const answer = ok(await grid(head));
    expect(answer.students.map((row: { student: { fullname: string } }) => row.student.fullname)).toEqual([
      'Amina Okello',
      'Brian Okello',
      'Carol Okello',
    ]);
    expect(answer.students[0]).toEqual({ student: { id: p5[0]?.id, studentid: 'P5-East-1', fullname: 'Amina Okello' }, marktypes: {} });
    expect(answer.marktypes).toEqual([
      { id: bot.id, label: 'BOT', outof: 100, published: false },
      { id: mot.id, label: 'MOT', outof: 50, published: false },
    ]);
  });

  it('takes the mark types as a form sends them: marktypes[] repeated, or one comma-separated text', async () => {
    const boundary = 'mustardboundary';
    const fields = { ...place(), 'marktypes[]': [bot.id, mot.id] } as Record<string, unknown>;
    const parts = Object.entries(fields).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map(
        (item) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${item}\r\n`,
      ),
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/school/marks/grid',
      headers: {
        authorization: `Bearer ${head.token}`,
        tenantcode: school.tenantcode,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: `${parts.join('')}--${boundary}--\r\n`,
    });
    expect(ok(response).marktypes).toHaveLength(2);
    expect(ok(await grid(head, { marktypes: `${bot.id},${mot.id}` })).marktypes).toHaveLength(2);
  });
});

describe('saving a grid', () => {
  it('saves numbers, ABS and clears; ABS is kept apart from 0 and a reload shows each mark with its version', async () => {
    const [amina, brian, carol] = p5 as [Learner, Learner, Learner];
    const first = ok(
      await save(head, { [bot.id]: { [amina.id]: 56, [brian.id]: 'ABS', [carol.id]: 0 }, [mot.id]: { [amina.id]: '40.5' } }),
    );
    expect(first).toMatchObject({ saved: 4, unchanged: 0, message: 'Successfully created' });
    expect(first.marks[bot.id]).toEqual({
      [amina.id]: { mark: 56, version: 1 },
      [brian.id]: { mark: 'ABS', version: 1 },
      [carol.id]: { mark: 0, version: 1 },
    });
    const loaded = ok(await grid(head));
    const byName = Object.fromEntries(
      loaded.students.map((row: { student: { id: string }; marktypes: unknown }) => [row.student.id, row.marktypes]),
    );
    expect(byName[brian.id]).toEqual({ [bot.id]: { mark: 'ABS', version: 1 } });
    expect(byName[carol.id]).toEqual({ [bot.id]: { mark: 0, version: 1 } });
    expect(byName[amina.id]).toEqual({ [bot.id]: { mark: 56, version: 1 }, [mot.id]: { mark: 40.5, version: 1 } });

    // A change and a clear, each from the version loaded.
    const second = ok(await save(head, { [bot.id]: { [amina.id]: 58, [carol.id]: null } }, { [bot.id]: { [amina.id]: 1, [carol.id]: 1 } }));
    expect(second).toMatchObject({ saved: 2, unchanged: 0, message: 'Successfully updated' });
    expect(second.marks[bot.id]).toEqual({ [amina.id]: { mark: 58, version: 2 }, [carol.id]: { mark: null, version: 0 } });
    expect((await historyOf(amina.id, bot.id)).map((entry) => [entry.old, entry.new, entry.source, entry.user])).toEqual([
      [56, 58, 'grid', 'Head Teacher'],
      [null, 56, 'grid', 'Head Teacher'],
    ]);
    expect((await historyOf(carol.id, bot.id)).map((entry) => [entry.old, entry.new])).toEqual([
      [0, null],
      [null, 0],
    ]);
  });

  it('answers the same save_id twice with the first answer, writing once, even when both arrive at once', async () => {
    const [amina] = p5 as [Learner];
    const body = {
      ...place({ subject_id: english.id }),
      save_id: crypto.randomUUID(),
      marks: { [bot.id]: { [amina.id]: 71 } },
      base: {},
    };
    const [one, two] = await Promise.all([head.post('/api/school/marks', body), head.post('/api/school/marks', body)]);
    expect(ok(one)).toEqual(ok(two));
    const again = ok(await head.post('/api/school/marks', body));
    expect(again).toEqual(ok(one));
    expect(again.marks[bot.id][amina.id]).toEqual({ mark: 71, version: 1 });
    expect(await historyOf(amina.id, bot.id, english.id)).toHaveLength(1);
  });

  it('answers a retry that comes after someone else’s change with the cells as they are now, still writing nothing', async () => {
    const [, brian] = p5 as [Learner, Learner];
    const body = { ...place({ subject_id: english.id }), save_id: crypto.randomUUID(), marks: { [mot.id]: { [brian.id]: 22 } }, base: {} };
    const first = ok(await head.post('/api/school/marks', body));
    ok(await save(head, { [mot.id]: { [brian.id]: 25 } }, { [mot.id]: { [brian.id]: 1 } }, { subject_id: english.id }));
    const retried = ok(await head.post('/api/school/marks', body));
    expect(retried).toEqual({ ...first, marks: { [mot.id]: { [brian.id]: { mark: 25, version: 2 } } } });
    expect(await historyOf(brian.id, mot.id, english.id)).toHaveLength(2);
  });

  it('drops save keys older than 30 days as later saves come, keeping the recent ones', async () => {
    const [amina] = p5 as [Learner];
    const [old, recent] = [crypto.randomUUID(), crypto.randomUUID()];
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('mark_saves')
        .values([
          {
            tenant_id: school.id,
            save_id: old,
            user_id: null,
            answer: JSON.stringify({}),
            saved_at: sql`now() - interval '31 days'`,
          },
          {
            tenant_id: school.id,
            save_id: recent,
            user_id: null,
            answer: JSON.stringify({}),
            saved_at: sql`now() - interval '29 days'`,
          },
        ])
        .execute(),
    );
    // Any save claims its key, and drops the expired ones in the same statement.
    ok(await save(head, { [bot.id]: { [amina.id]: 71 } }, {}, { subject_id: english.id }));
    const kept = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('mark_saves').select('save_id').where('save_id', 'in', [old, recent]).execute(),
    );
    expect(kept.map((row) => row.save_id)).toEqual([recent]);
  });

  it('refuses to overwrite a mark someone changed since the grid was loaded: 409 naming theirs and yours, nothing saved', async () => {
    const [, brian, carol] = p5 as [Learner, Learner, Learner];
    // Both open the grid with Brian's MOT empty (version 0); the head saves first.
    ok(await save(head, { [mot.id]: { [brian.id]: 30 } }, { [mot.id]: { [brian.id]: 0 } }));
    const late = await save(head, { [mot.id]: { [brian.id]: 35, [carol.id]: 20 } }, { [mot.id]: { [brian.id]: 0, [carol.id]: 0 } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      message: MARK_MESSAGES.conflict,
      conflicts: [{ marktype_id: mot.id, student_id: brian.id, theirs: 30, version: 1, yours: 35, by: 'Head Teacher' }],
    });
    // Carol's mark was not saved either: a grid saves whole or not at all.
    const loaded = ok(await grid(head));
    const carolRow = loaded.students.find((row: { student: { id: string } }) => row.student.id === carol.id);
    expect(carolRow.marktypes[mot.id]).toBeUndefined();
    // Keeping mine: sent again from their version.
    expect(ok(await save(head, { [mot.id]: { [brian.id]: 35 } }, { [mot.id]: { [brian.id]: 1 } })).marks[mot.id][brian.id]).toEqual({
      mark: 35,
      version: 2,
    });
  });

  it('says which cell is wrong and why, and saves nothing', async () => {
    const [amina, brian] = p5 as [Learner, Learner];
    const [daniel] = p6 as [Learner];
    const bad = await save(head, {
      [bot.id]: { [amina.id]: 101, [brian.id]: 67.55 },
      [mot.id]: { [amina.id]: 51, [brian.id]: 'seven', [daniel.id]: 20 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      [`marks.${bot.id}.${amina.id}`]: [MARK_MESSAGES.aboveMaximum],
      [`marks.${bot.id}.${brian.id}`]: [MARK_MESSAGES.oneDecimal],
      [`marks.${mot.id}.${amina.id}`]: [MARK_MESSAGES.aboveMaximum],
      [`marks.${mot.id}.${brian.id}`]: [MARK_MESSAGES.notAMark],
      [`marks.${mot.id}.${daniel.id}`]: [MARK_MESSAGES.learnerNotInClass],
    });
    expect((await save(head, { [bot.id]: { [amina.id]: -1 } })).json().errors).toEqual({
      [`marks.${bot.id}.${amina.id}`]: [MARK_MESSAGES.belowZero],
    });
    expect((await save(head, { [bot.id]: { [amina.id]: { mark: 5 } } })).statusCode).toBe(422);
    expect((await save(head, { [bot.id]: { [amina.id]: true } })).json().errors).toEqual({
      [`marks.${bot.id}.${amina.id}`]: [MARK_MESSAGES.notAMark],
    });
  });

  it('refuses what the grid cannot name: a foreign or unknown mark type or subject, an inactive mark type, a paper too high, a future term', async () => {
    const [amina] = p5 as [Learner];
    const inactive = ok(await head.post(markTypes.path, { label: 'Old test', category: 'test', status: 'inactive' }));
    expect((await save(head, { [inactive.id]: { [amina.id]: 5 } })).json().errors).toEqual({ marktypes: [MARK_MESSAGES.markTypeInactive] });
    const theirs = ok(await other.post(markTypes.path, { label: 'Their BOT', category: 'exam' }));
    expect((await save(head, { [theirs.id]: { [amina.id]: 5 } })).json().errors).toEqual({ marktypes: [MARK_MESSAGES.markTypeUnknown] });
    const theirSubject = ok(await other.post('/api/school/subjects', { name: 'Their maths', category: 'general' }));
    expect((await grid(head, { subject_id: theirSubject.id })).json().errors).toEqual({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
    expect((await grid(head, { paper: 'II' })).json().errors).toEqual({ paper: [MARK_MESSAGES.paperTooHigh] });
    expect((await grid(head, { paper: 'VII' })).statusCode).toBe(422);
    expect((await grid(head, { year: YEAR + 1 })).json().errors).toEqual({ term: [MARK_MESSAGES.futureTerm] });
    expect((await grid(head, { marktypes: [] })).statusCode).toBe(422);
    expect((await grid(head, { form: 'P5\u0000' })).statusCode).toBe(422);
    expect((await grid(head, { stream: 'E'.repeat(10_000) })).statusCode).toBe(422);
    expect((await head.post('/api/school/marks', { ...place(), marks: {} })).json().errors).toHaveProperty('save_id');
  });

  it('refuses a grid of more than 2,000 cells', async () => {
    const many = Object.fromEntries(Array.from({ length: 2001 }, () => [crypto.randomUUID(), 50]));
    const response = await save(head, { [bot.id]: many });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ marks: [MARK_MESSAGES.gridTooLarge] });
  });
});

describe('who may enter what', () => {
  it('a teacher enters marks where assigned (P5 Mathematics), not elsewhere: 403 saying why', async () => {
    const [amina] = p5 as [Learner];
    const [daniel] = p6 as [Learner];
    ok(await grid(teacher, { marktypes: [bot.id] }));
    ok(await save(teacher, { [bot.id]: { [amina.id]: 77 } }, { [bot.id]: { [amina.id]: 2 } }));
    const p6Grid = await grid(teacher, { form: 'P6', marktypes: [bot.id] });
    expect(p6Grid.statusCode).toBe(403);
    expect(p6Grid.json().message).toBe(MARK_MESSAGES.notAssigned);
    expect((await save(teacher, { [bot.id]: { [daniel.id]: 50 } }, {}, { form: 'P6' })).statusCode).toBe(403);
    expect((await grid(teacher, { subject_id: english.id })).statusCode).toBe(403);
    expect((await grid(teacher, { term: 'II' })).statusCode).toBe(403);
  });

  it('published marks: a teacher may no longer change them (403 saying they are published); the head may', async () => {
    const [amina] = p5 as [Learner];
    ok(await head.post(publishMarks.path, { term: 'I', year: YEAR, marktype_id: bot.id }));
    expect(ok(await grid(teacher, { marktypes: [bot.id] })).marktypes[0].published).toBe(true);
    const refused = await save(teacher, { [bot.id]: { [amina.id]: 80 } }, { [bot.id]: { [amina.id]: 3 } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MARK_MESSAGES.published);
    // Unchanged cells of a published mark type are no change: the rest of the grid saves.
    ok(
      await save(
        teacher,
        { [bot.id]: { [amina.id]: 77 }, [mot.id]: { [amina.id]: 41 } },
        { [bot.id]: { [amina.id]: 3 }, [mot.id]: { [amina.id]: 1 } },
      ),
    );
    ok(await save(head, { [bot.id]: { [amina.id]: 80 } }, { [bot.id]: { [amina.id]: 3 } }));
    expect((await historyOf(amina.id, bot.id))[0]).toMatchObject({ old: 77, new: 80, user: 'Head Teacher' });
  });
});

describe('a class opened without a stream (issue 23 item 18)', () => {
  let both: Caller;
  let eastOnly: Caller;
  let p4East: Learner[];
  let p4West: Learner[];
  // MOT: BOT is published by now, and a teacher cannot write it.
  const p4 = (stream = '') => ({ form: 'P4', stream, marktypes: [mot.id] });
  const idsOf = (answer: { students: Array<{ student: { id: string } }> }) => answer.students.map((row) => row.student.id).sort();

  beforeAll(async () => {
    p4East = await learners(school.id, 'P4', 'East', ['Esther', 'Frank']);
    p4West = await learners(school.id, 'P4', 'West', ['Gloria']);
    const assign = async (name: string, streams: string[]) => {
      const user = await makeUser(t.database, { name, memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
      for (const stream of streams)
        ok(await head.post(subjectTeachers.path, { user_id: user.id, subject_id: maths.id, form: 'P4', stream, term: 'I', year: YEAR }));
      return caller(t.app, await login(t.app, user.email), school.tenantcode);
    };
    both = await assign('Henry Both', ['East', 'West']);
    eastOnly = await assign('Irene East', ['East']);
  });

  it('a teacher of both streams opens the class whole: every learner of both streams', async () => {
    const answer = ok(await grid(both, p4()));
    expect(idsOf(answer)).toEqual([...p4East, ...p4West].map((learner) => learner.id).sort());
    const [esther] = p4East as [Learner];
    const [gloria] = p4West as [Learner];
    expect(ok(await save(both, { [mot.id]: { [esther.id]: 41, [gloria.id]: 42 } }, {}, { form: 'P4', stream: '' })).saved).toBe(2);
  });

  it('a teacher of one stream opens the class as his own stream: its learners alone, and a save into another stream is refused by cell', async () => {
    const answer = ok(await grid(eastOnly, p4()));
    expect(idsOf(answer)).toEqual(p4East.map((learner) => learner.id).sort());
    const [, frank] = p4East as [Learner, Learner];
    const [gloria] = p4West as [Learner];
    const refused = await save(
      eastOnly,
      { [mot.id]: { [frank.id]: 50, [gloria.id]: 10 } },
      { [mot.id]: { [gloria.id]: 1 } },
      {
        form: 'P4',
        stream: '',
      },
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ [`marks.${mot.id}.${gloria.id}`]: [MARK_MESSAGES.learnerNotInClass] });
    expect(await historyOf(frank.id, mot.id)).toEqual([]);
    expect(ok(await save(eastOnly, { [mot.id]: { [frank.id]: 50 } }, {}, { form: 'P4', stream: '' })).saved).toBe(1);
    // His stream by name opens; the other stream stays closed.
    ok(await grid(eastOnly, p4('east')));
    expect((await grid(eastOnly, p4('West'))).json().message).toBe(MARK_MESSAGES.notAssigned);
  });

  it('a save of one stream holds that stream’s learners only: a learner of the other stream is refused by cell, nothing saved (item 15)', async () => {
    const [esther] = p4East as [Learner];
    const [gloria] = p4West as [Learner];
    const before = await historyOf(esther.id, mot.id);
    const refused = await save(head, { [mot.id]: { [esther.id]: 30, [gloria.id]: 30 } }, {}, { form: 'P4', stream: 'East' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ [`marks.${mot.id}.${gloria.id}`]: [MARK_MESSAGES.learnerNotInClass] });
    expect(await historyOf(esther.id, mot.id)).toEqual(before);
  });

  it('a teacher of no stream of the class is refused: 403 saying why', async () => {
    const refused = await grid(teacher, p4());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MARK_MESSAGES.notAssigned);
    const [esther] = p4East as [Learner];
    expect((await save(teacher, { [mot.id]: { [esther.id]: 5 } }, {}, { form: 'P4', stream: '' })).statusCode).toBe(403);
  });
});

describe('ids in capitals (issue 23 item 7)', () => {
  // A uuid names the same record in any case; the database agrees, so every check must too.
  const capitals = (id: string) => id.toUpperCase();
  /** The version of a learner's stored mark of a mark type in the P5 East Mathematics grid. */
  const versionOf = async (studentId: string, marktypeId: string) => {
    const loaded = ok(await grid(head, { marktypes: [marktypeId] }));
    return loaded.students.find((entry: { student: { id: string } }) => entry.student.id === studentId)?.marktypes[marktypeId]?.version;
  };

  it('a teacher cannot save into a published mark type by its id in capitals: 403, nothing saved', async () => {
    const [, , carol] = p5 as [Learner, Learner, Learner];
    // Carol has no BOT mark (cleared above); BOT is published.
    expect(await versionOf(carol.id, bot.id)).toBeUndefined();
    const before = await historyOf(carol.id, bot.id);
    const refused = await save(teacher, { [capitals(bot.id)]: { [carol.id]: 12 } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MARK_MESSAGES.published);
    expect(await historyOf(carol.id, bot.id)).toEqual(before);
  });

  it('a mark above the maximum is refused whatever the case of its mark type id: 90 of 50 is 422 naming the cell', async () => {
    const [, , carol] = p5 as [Learner, Learner, Learner];
    const refused = await save(teacher, { [capitals(mot.id)]: { [capitals(carol.id)]: 90 } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ [`marks.${mot.id}.${carol.id}`]: [MARK_MESSAGES.aboveMaximum] });
    expect(await historyOf(carol.id, mot.id)).toEqual([]);
  });

  it('a cell that already has a mark saves over it from ids in capitals, answered by the stored ids', async () => {
    const [, brian] = p5 as [Learner, Learner];
    const version = (await versionOf(brian.id, mot.id)) as number;
    expect(version).toBeGreaterThan(0);
    // The mark type alone in capitals (a 500 before: the stored mark was not found, so it was added again).
    const first = ok(await save(teacher, { [capitals(mot.id)]: { [brian.id]: 42 } }, { [capitals(mot.id)]: { [brian.id]: version } }));
    expect(first).toMatchObject({ saved: 1, unchanged: 0 });
    expect(first.marks).toEqual({ [mot.id]: { [brian.id]: { mark: 42, version: version + 1 } } });
    // Every id in capitals.
    const second = ok(
      await save(
        teacher,
        { [capitals(mot.id)]: { [capitals(brian.id)]: 43 } },
        { [capitals(mot.id)]: { [capitals(brian.id)]: version + 1 } },
        { subject_id: capitals(maths.id) },
      ),
    );
    expect(second.marks).toEqual({ [mot.id]: { [brian.id]: { mark: 43, version: version + 2 } } });
    expect((await historyOf(brian.id, mot.id)).slice(0, 2)).toMatchObject([
      { old: 42, new: 43, user: 'Grace Auma' },
      { new: 42, user: 'Grace Auma' },
    ]);
  });

  it('refuses one cell sent twice under ids that differ only in capitals: 422, nothing saved', async () => {
    const [, , carol] = p5 as [Learner, Learner, Learner];
    const twice = await save(teacher, { [mot.id]: { [carol.id]: 5, [capitals(carol.id)]: 6 } });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors).toEqual({ [`marks.${mot.id}.${capitals(carol.id)}`]: [SETTINGS_MESSAGES.duplicate] });
    expect(await historyOf(carol.id, mot.id)).toEqual([]);
  });
});

describe('the marks list, deletion and another school', () => {
  it('lists a class’s marks of a term with student, subject, user, mark type and mark (ABS as ABS)', async () => {
    const answer = ok(await head.get(`/api/school/marks?form=P5&term=I&year=${YEAR}&subject_id=${maths.id}&marktype_id=${bot.id}`));
    const brian = answer.marks.find((row: { student: { studentid: string } }) => row.student.studentid === 'P5-East-2');
    expect(brian).toMatchObject({
      sub: 'Mathematics',
      marktype: 'BOT',
      mark: 'ABS',
      user: 'Head Teacher',
      paper: 'I',
      form: 'P5',
      term: 'I',
    });
    expect(answer.totalRecords).toBe(answer.marks.length);
    expect(ok(await other.get(`/api/school/marks?form=P5&term=I&year=${YEAR}`)).totalRecords).toBe(0);
  });

  it('downloads the list with excel=1 (read back), and lists the whole school’s term without a class', async () => {
    const response = await head.get(`/api/school/marks?term=I&year=${YEAR}&marktype_id=${bot.id}&subject_id=${maths.id}&excel=1`);
    expect(response.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    const sheet = valuesOf(await workbookOf(response), 11);
    expect(sheet[0]).toEqual(['Student ID', 'Student', 'Class', 'Stream', 'Term', 'Year', 'Paper', 'Subject', 'User', 'Mark type', 'Mark']);
    expect(sheet.find((row) => row[0] === 'P5-East-2')).toEqual([
      'P5-East-2',
      'Brian Okello',
      'P5',
      'East',
      'I',
      YEAR,
      'I',
      'Mathematics',
      'Head Teacher',
      'BOT',
      'ABS',
    ]);
    const all = ok(await head.get(`/api/school/marks?term=I&year=${YEAR}`));
    expect(all.totalRecords).toBeGreaterThan(0);
    expect(ok(await head.get(`/api/school/marks?term=I&year=${YEAR}&per_page=1`)).marks).toHaveLength(1);
    // The download holds every mark the filter names, not one page of them.
    const whole = valuesOf(await workbookOf(await head.get(`/api/school/marks?term=I&year=${YEAR}&per_page=1&excel=1`)), 11);
    expect(whole.length - 1).toBe(all.totalRecords);
  });

  it('another school cannot load, save into or read the history of this school’s grid', async () => {
    const [amina] = p5 as [Learner];
    expect((await grid(other, { marktypes: [bot.id] })).statusCode).toBe(422);
    const into = await other.post('/api/school/marks', {
      ...place(),
      save_id: crypto.randomUUID(),
      marks: { [bot.id]: { [amina.id]: 1 } },
      base: {},
    });
    expect(into.statusCode).toBe(422);
    expect(
      ok(
        await other.get(
          `/api/school/marks/history?student_id=${amina.id}&subject_id=${maths.id}&marktype_id=${bot.id}&term=I&year=${YEAR}`,
        ),
      ).history,
    ).toEqual([]);
  });

  it('deletes the marks the filter names in one go, counting them; the values stay in the history; teachers may not', async () => {
    const [amina] = p5 as [Learner];
    expect((await teacher.post('/api/school/marks/bulkdelete', { form: 'P5', stream: 'East', term: 'I', year: YEAR })).statusCode).toBe(
      403,
    );
    const before = ok(await head.get(`/api/school/marks?form=P5&term=I&year=${YEAR}&marktype_id=${mot.id}`)).totalRecords;
    expect(before).toBeGreaterThan(0);
    const deleted = ok(
      await head.post('/api/school/marks/bulkdelete', { form: 'P5', stream: 'East', term: 'I', year: YEAR, marktype_id: mot.id }),
    );
    expect(deleted).toEqual({ records: before });
    expect(ok(await head.get(`/api/school/marks?form=P5&term=I&year=${YEAR}&marktype_id=${mot.id}`)).totalRecords).toBe(0);
    expect(ok(await head.get(`/api/school/marks?form=P5&term=I&year=${YEAR}&marktype_id=${bot.id}`)).totalRecords).toBeGreaterThan(0);
    expect((await historyOf(amina.id, mot.id))[0]).toMatchObject({ old: 41, new: null, source: 'delete' });
    expect(ok(await other.post('/api/school/marks/bulkdelete', { form: 'P5', stream: '', term: 'I', year: YEAR }))).toEqual({ records: 0 });
  });
});

describe('a learner moved on since the term (issue 25 point 8: the card’s learners)', () => {
  it('the class’s grid of that term still lists them, in the stream their marks were entered under, and a mark can be corrected', async () => {
    const [, kato, lule] = await learners(school.id, 'P3', 'East', ['Joan', 'Kato', 'Lule']);
    const p3 = { form: 'P3', stream: 'East', subject_id: english.id };
    ok(await save(head, { [bot.id]: { [(kato as Learner).id]: 61 } }, {}, p3));
    // Kato and Lule move to P4 West; only Kato had a mark of P3's Term I.
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .updateTable('students')
        .set({ form: 'P4', stream: 'West' })
        .where('id', 'in', [(kato as Learner).id, (lule as Learner).id])
        .execute(),
    );
    const names = (answer: { students: Array<{ student: { fullname: string } }> }) => answer.students.map((row) => row.student.fullname);
    const termOne = ok(await grid(head, p3));
    expect(names(termOne)).toEqual(['Joan Okello', 'Kato Okello']);
    expect(termOne.students[1].marktypes).toEqual({ [bot.id]: { mark: 61, version: 1 } });
    // The card lists Kato in P3 East for Term I: his mark there can still be corrected.
    const corrected = ok(await save(head, { [bot.id]: { [(kato as Learner).id]: 64 } }, { [bot.id]: { [(kato as Learner).id]: 1 } }, p3));
    expect(corrected.marks[bot.id]).toEqual({ [(kato as Learner).id]: { mark: 64, version: 2 } });
    // Lule, moved with no mark of the term, is not listed; nor is Kato in another stream of P3, or in a term he has no marks in.
    expect(names(ok(await grid(head, { ...p3, stream: 'West' })))).toEqual([]);
    expect(names(ok(await grid(head, { ...p3, year: YEAR - 1 })))).toEqual(['Joan Okello']);
  });
});
