import { COMMENT_MESSAGES, classTeachers, INPUT_MESSAGES, markTypes, proportions, REMARK_MESSAGES } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newRemarkType, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * Report comments through the API (issue 16 points 2 to 5), on both databases: a P7 class with
 * marks entered through the marks API, its remarks read with each learner's results and the
 * matching automatic comments, saved (versions, conflicts, the same save twice, deletion by an
 * empty text), limited to class teachers, deleted with the texts kept; what another school and
 * bad input get.
 */

let t: TestApp;
let head: Caller;
let tutor: Caller;
let other: Caller;
let schoolId: string;
let otherSchoolId: string;
let tutorId: string;
let bot: Row;
let eot: Row;
let learners: Record<string, string>;
let p6Learner: string;
let otherLearner: string;
let otherType: Row;
/** Remark types: class and head teacher's (exam), a sub category, and ones the screen must leave out. */
let classType: Row;
let headType: Row;
let conduct: Row;
let inactive: Row;
let p6Only: Row;
let assessment: Row;
const YEAR = new Date().getFullYear();
const rt = (row: Row) => `rt_${row.id}`;
const s = (name: string) => `s_${learners[name]}`;

/** Learners by first name, in P7 East (Amina, Brian) and West (Carol, David). */
async function addLearners(tenantId: string) {
  const rows = [
    ['Amina', 'East', 'F'],
    ['Brian', 'East', 'M'],
    ['Carol', 'West', 'F'],
    ['David', 'West', 'M'],
  ].map(([firstname, stream, gender], index) => ({
    tenant_id: tenantId,
    id: newId(),
    studentid: `P7/00${index + 1}`,
    firstname: firstname as string,
    lastname: 'Okello',
    gender: gender as 'F' | 'M',
    form: 'P7',
    stream: stream as string,
  }));
  await withTenant(t.database.db, { tenantId }, (trx) => trx.insertInto('students').values(rows).execute());
  return Object.fromEntries(rows.map((row) => [row.firstname, row.id]));
}

async function addLearner(tenantId: string, form: string, firstname: string) {
  const id = newId();
  await withTenant(t.database.db, { tenantId }, (trx) =>
    trx
      .insertInto('students')
      .values({ tenant_id: tenantId, id, studentid: `${form}/${firstname}`, firstname, lastname: 'Kato', form })
      .execute(),
  );
  return id;
}

/** Saves one subject's BOT and EOT marks of the class through the marks API, per stream. */
async function enter(subject: Row, marks: Record<string, [number | 'ABS', number | 'ABS']>) {
  for (const stream of ['East', 'West']) {
    const inStream = Object.entries(marks).filter(([name]) => (stream === 'East' ? ['Amina', 'Brian'] : ['Carol', 'David']).includes(name));
    const byType = (at: 0 | 1) => Object.fromEntries(inStream.map(([name, values]) => [learners[name] as string, values[at]]));
    ok(
      await head.post('/api/school/marks', {
        form: 'P7',
        stream,
        term: 'I',
        year: YEAR,
        subject_id: subject.id,
        paper: 'I',
        save_id: crypto.randomUUID(),
        marks: { [bot.id]: byType(0), [eot.id]: byType(1) },
        base: {},
      }),
    );
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Kitante Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  schoolId = school.id;
  otherSchoolId = elsewhere.id;
  // A form tutor may write remarks (create, not manage): only as class teacher of a class.
  await withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
    const roleId = newId();
    await trx.insertInto('roles').values({ tenant_id: school.id, id: roleId, name: 'form tutor' }).execute();
    await trx
      .insertInto('role_permissions')
      .values({ tenant_id: school.id, id: newId(), role_id: roleId, subject_class: 'remark', action: 'create' })
      .execute();
  });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const tutorUser = await makeUser(t.database, { name: 'Grace Auma', memberOf: [{ tenantId: school.id, roles: ['form tutor'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  tutorId = tutorUser.id;
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  tutor = caller(t.app, await login(t.app, tutorUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  const subjects = [
    await newSubject(head, { name: 'English', category: 'english', position: 1 }),
    await newSubject(head, { name: 'Mathematics', category: 'mathematics', position: 2 }),
    await newSubject(head, { name: 'Science', category: 'science', position: 3 }),
    await newSubject(head, { name: 'Social Studies', category: 'humanity', position: 4 }),
  ];
  bot = ok(await head.post(markTypes.path, { label: 'BOT', category: 'test', position: 1 }));
  eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 2 }));
  for (const subject of subjects) {
    ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P7', term: 'I', year: YEAR })));
    for (const [markType, percentage] of [
      [bot, 40],
      [eot, 60],
    ] as const) {
      ok(
        await head.post(proportions.path, {
          form: 'P7',
          term: 'I',
          year: YEAR,
          subject_id: subject.id,
          marktype_id: markType.id,
          percentage,
        }),
      );
    }
  }
  learners = await addLearners(school.id);
  p6Learner = await addLearner(school.id, 'P6', 'Esther');
  otherLearner = await addLearner(elsewhere.id, 'P7', 'Faith');
  // Amina: aggregate 4. Brian: 12. Carol: 16. David: absent from the Science EOT.
  const [english, maths, science, sst] = subjects as unknown as [Row, Row, Row, Row];
  await enter(english, { Amina: [80, 85], Brian: [70, 70], Carol: [60, 50], David: [60, 60] });
  await enter(maths, { Amina: [80, 85], Brian: [70, 70], Carol: [70, 70], David: [60, 60] });
  await enter(science, { Amina: [80, 85], Brian: [70, 70], Carol: [70, 70], David: [60, 'ABS'] });
  await enter(sst, { Amina: [80, 85], Brian: [70, 70], Carol: [70, 70], David: [60, 60] });

  headType = await newRemarkType(head, { label: "Head teacher's comment", position: 2 });
  classType = await newRemarkType(head, { label: "Class teacher's comment", position: 1 });
  conduct = await newRemarkType(head, { label: 'Conduct', parent_id: classType.id, position: 1 });
  inactive = await newRemarkType(head, { label: 'Old remark', position: 3, active: false });
  p6Only = await newRemarkType(head, { label: 'P6 remark', position: 4, forms: 'P6' });
  assessment = await newRemarkType(head, { label: 'Assessment remark', category: 'assesment', position: 5 });
  otherType = await newRemarkType(other, { label: 'Their remark' });
  for (const [from, to, comment] of [
    [4, 12, 'Excellent work, {name}. {He} should keep {his} pace.'],
    [13, 23, 'Good; {name} can do better.'],
  ] as const) {
    ok(await head.post('/api/school/autoreportcomments', { form: 'P7', remarktype_id: classType.id, score: from, upper: to, comment }));
  }
  ok(
    await head.post('/api/school/autoreportcomments', {
      form: 'p7',
      remarktype_id: headType.id,
      score: 4,
      upper: 36,
      comment: 'Promoted.',
    }),
  );
  ok(
    await head.post('/api/school/autoreportcomments', {
      form: 'P6',
      remarktype_id: classType.id,
      score: 4,
      upper: 36,
      comment: 'P6 only.',
    }),
  );
  // Grace is the class teacher of P7 East in Term I.
  ok(await head.post(classTeachers.path, { user_id: tutorId, form: 'P7', stream: 'East', term: 'I', year: YEAR, category: 'primary' }));
});
afterAll(() => t?.close());

const query = (fields: Record<string, string | number> = {}) =>
  new URLSearchParams(
    Object.entries({ form: 'P7', term: 'I', year: YEAR, category: 'exam', ...fields }).map(([key, value]): [string, string] => [
      key,
      String(value),
    ]),
  ).toString();
const load = (by: Caller, fields: Record<string, string | number> = {}) => by.get(`/api/school/remarks?${query(fields)}`);
const save = (
  by: Caller,
  comment: Record<string, Record<string, string>>,
  base: Record<string, Record<string, number>> = {},
  fields: Record<string, unknown> = {},
) => by.post('/api/school/remarks', { form: 'P7', stream: '', term: 'I', year: YEAR, category: 'exam', comment, base, ...fields });

/** The school's remarks and history as stored, read in its own transaction. */
const stored = () =>
  withTenant(t.database.db, { tenantId: schoolId }, async (trx) => ({
    remarks: await trx.selectFrom('remarks').select(['student_id', 'remarktype_id', 'comment', 'version', 'stream']).execute(),
    history: await trx
      .selectFrom('comment_history')
      .select(['comment_id', 'student_id', 'old_value', 'new_value', 'action', 'source', sql<string>`changed_at::text`.as('at')])
      .orderBy('changed_at')
      .execute(),
  }));

/** Empties the school's remarks and history between tests that count them. */
const clear = () =>
  withTenant(t.database.db, { tenantId: schoolId }, async (trx) => {
    await trx.deleteFrom('remarks').execute();
    await trx.deleteFrom('comment_history').execute();
  });

describe('reading a class’s remarks', () => {
  it('answers the spec’s shapes: learners with their results, the exam remark types for the class, autos, mark types', async () => {
    await clear();
    const answer = ok(await load(head));
    expect(Object.keys(answer).sort()).toEqual(['autocomments', 'marktypes', 'remarks', 'remarktypes', 'students']);
    expect(answer.remarks).toEqual({});
    // Active exam remark types used for P7, by position, with their sub categories: not the inactive, P6's or assessment's.
    expect(answer.remarktypes).toEqual([
      {
        id: classType.id,
        label: "Class teacher's comment",
        category: 'exam',
        inputtype: 'text',
        displaytype: 'list',
        children: [{ id: conduct.id, label: 'Conduct', category: 'exam', inputtype: 'text', displaytype: 'list' }],
      },
      { id: headType.id, label: "Head teacher's comment", category: 'exam', inputtype: 'text', displaytype: 'list', children: [] },
    ]);
    expect(answer.marktypes).toEqual([
      { id: bot.id, label: 'BOT' },
      { id: eot.id, label: 'EOT' },
    ]);
    // The class's automatic comments only (P7 in any case), not P6's.
    expect(answer.autocomments).toEqual([
      { remarktype_id: classType.id, score: 4, upper: 12, comment: 'Excellent work, {name}. {He} should keep {his} pace.' },
      { remarktype_id: classType.id, score: 13, upper: 23, comment: 'Good; {name} can do better.' },
      { remarktype_id: headType.id, score: 4, upper: 36, comment: 'Promoted.' },
    ]);
    const amina = answer.students[0];
    expect(answer.students.map((student: { fullname: string }) => student.fullname)).toEqual([
      'Amina Okello',
      'Brian Okello',
      'Carol Okello',
      'David Okello',
    ]);
    expect(amina).toMatchObject({
      id: learners.Amina,
      studentid: 'P7/001',
      firstname: 'Amina',
      gender: 'F',
      stream: 'East',
      aggregate: 4,
      division: 'I',
      points: null,
      result: 4,
    });
    expect(amina.total).toBeCloseTo(332, 1);
    expect(amina.average).toBeCloseTo(83, 1);
    expect(amina.marks).toHaveLength(4);
    // Raw marks, as the card prints them by default (issue 24 point 3).
    expect(amina.marks[0]).toMatchObject({ subject: 'English', grade: 'D1', marks: { BOT: 80, EOT: 85 } });
  });

  it('matches each learner’s aggregate to the bands at both edges, personalised with name and pronouns', async () => {
    const answer = ok(await load(head));
    const byName = Object.fromEntries(
      answer.students.map((student: { firstname: string; result: number | null; suggestions: Record<string, string> }) => [
        student.firstname,
        student,
      ]),
    );
    // 4 is the first band's From, 12 its To, 16 inside the second.
    expect(byName.Amina.suggestions).toEqual({
      [rt(classType)]: 'Excellent work, Amina. She should keep her pace.',
      [rt(headType)]: 'Promoted.',
    });
    expect(byName.Brian.result).toBe(12);
    expect(byName.Brian.suggestions[rt(classType)]).toBe('Excellent work, Brian. He should keep his pace.');
    expect(byName.Carol.result).toBe(16);
    expect(byName.Carol.suggestions[rt(classType)]).toBe('Good; Carol can do better.');
    // No band for the sub category: nothing suggested.
    expect(byName.Amina.suggestions[rt(conduct)]).toBeUndefined();
  });

  it('narrows to a stream; mid term answers its own remark types; one remark type opens with its sub categories', async () => {
    const east = ok(await load(head, { stream: 'east' }));
    expect(east.students.map((student: { firstname: string }) => student.firstname)).toEqual(['Amina', 'Brian']);
    const named = ok(await load(head, { remarktype_id: assessment.id }));
    expect(named.remarktypes.map((type: { id: string }) => type.id)).toEqual([assessment.id]);
    const parent = ok(await load(head, { remarktype_id: classType.id }));
    expect(parent.remarktypes).toHaveLength(1);
    expect(parent.remarktypes[0].children.map((child: { id: string }) => child.id)).toEqual([conduct.id]);
    expect((await load(head, { remarktype_id: inactive.id })).json().errors).toEqual({
      remarktype_id: [REMARK_MESSAGES.remarkTypeInactive],
    });
    expect((await load(head, { remarktype_id: p6Only.id })).json().errors).toEqual({
      remarktype_id: [REMARK_MESSAGES.remarkTypeNotForClass],
    });
  });

  it('lists a class without marks yet: its learners, no results', async () => {
    const answer = ok(await load(head, { form: 'P6' }));
    expect(answer.students).toEqual([
      expect.objectContaining({ id: p6Learner, firstname: 'Esther', marks: [], aggregate: null, result: null, suggestions: {} }),
    ]);
    expect(answer.remarktypes.map((type: { id: string }) => type.id)).toEqual([classType.id, headType.id, p6Only.id]);
  });
});

describe('saving remarks', () => {
  it('round trip: saved in the spec’s keys, read back with versions, each change in the history', async () => {
    await clear();
    const first = ok(
      await save(head, {
        [rt(classType)]: { [s('Amina')]: '  Amina is a careful reader.  ', [s('Carol')]: 'Carol leads the choir.' },
        [rt(headType)]: { [s('Amina')]: 'Promoted to S1.' },
      }),
    );
    expect(first).toEqual({
      message: 'Successfully created',
      saved: 3,
      deleted: 0,
      unchanged: 0,
      remarks: {
        [rt(classType)]: {
          [s('Amina')]: { comment: 'Amina is a careful reader.', version: 1 },
          [s('Carol')]: { comment: 'Carol leads the choir.', version: 1 },
        },
        [rt(headType)]: { [s('Amina')]: { comment: 'Promoted to S1.', version: 1 } },
      },
    });
    const loaded = ok(await load(head));
    expect(loaded.remarks).toEqual(first.remarks);
    // Stored with the learner's stream; a history row per comment, all of one transaction.
    const { remarks, history } = await stored();
    expect(remarks.map((row) => row.stream).sort()).toEqual(['East', 'East', 'West']);
    expect(history).toHaveLength(3);
    expect(new Set(history.map((row) => row.at)).size).toBe(1);
    expect(history.every((row) => row.action === 'save' && row.source === 'remark' && row.old_value === null)).toBe(true);

    // Changed over its version: version 2, the history has old and new.
    const second = ok(
      await save(head, { [rt(classType)]: { [s('Amina')]: 'Amina reads widely.' } }, { [rt(classType)]: { [s('Amina')]: 1 } }),
    );
    expect(second).toMatchObject({
      message: 'Successfully updated',
      saved: 1,
      remarks: { [rt(classType)]: { [s('Amina')]: { version: 2 } } },
    });
    const after = await stored();
    expect(after.history.at(-1)).toMatchObject({
      old_value: 'Amina is a careful reader.',
      new_value: 'Amina reads widely.',
      action: 'save',
    });
  });

  it('a comment changed since it was loaded is a 409 naming it, theirs and yours; nothing of the save is written', async () => {
    const before = await stored();
    const response = await save(
      head,
      { [rt(classType)]: { [s('Amina')]: 'My older view.', [s('Brian')]: 'Brian is new here.' } },
      { [rt(classType)]: { [s('Amina')]: 1 } },
    );
    expect(response.statusCode).toBe(409);
    const body = response.json();
    expect(body.message).toBe(`${REMARK_MESSAGES.conflict}: Amina Okello (Class teacher's comment)`);
    expect(body.conflicts).toEqual([
      {
        remarktype_id: classType.id,
        student_id: learners.Amina,
        theirs: 'Amina reads widely.',
        version: 2,
        yours: 'My older view.',
        by: 'Head Teacher',
      },
    ]);
    expect(await stored()).toEqual(before);
    // The same text as stored is no conflict, whatever the base: nothing to do.
    expect(ok(await save(head, { [rt(classType)]: { [s('Amina')]: 'Amina reads widely.' } }))).toMatchObject({ saved: 0, unchanged: 1 });
    // Kept "mine" over their version: saved.
    expect(
      ok(await save(head, { [rt(classType)]: { [s('Amina')]: 'My older view.' } }, { [rt(classType)]: { [s('Amina')]: 2 } })).remarks,
    ).toEqual({ [rt(classType)]: { [s('Amina')]: { comment: 'My older view.', version: 3 } } });
  });

  it('an empty text deletes the remark, its text kept in the history', async () => {
    const answer = ok(await save(head, { [rt(classType)]: { [s('Carol')]: '   ' } }, { [rt(classType)]: { [s('Carol')]: 1 } }));
    expect(answer).toMatchObject({ saved: 0, deleted: 1, remarks: { [rt(classType)]: { [s('Carol')]: { comment: '', version: 0 } } } });
    const { remarks, history } = await stored();
    expect(remarks.some((row) => row.student_id === learners.Carol && row.remarktype_id === classType.id)).toBe(false);
    expect(history.at(-1)).toMatchObject({ old_value: 'Carol leads the choir.', new_value: null, action: 'delete' });
    expect(ok(await load(head)).remarks[rt(classType)][s('Carol')]).toBeUndefined();
  });

  it('the same save sent twice at once: one is written, the other finds it done', async () => {
    await clear();
    const body = { [rt(headType)]: { [s('Brian')]: 'Brian is promoted.', [s('David')]: 'David sits again.' } };
    const answers = (await Promise.all([save(head, body), save(head, body)])).map(ok);
    expect(answers.map((answer) => answer.saved).sort()).toEqual([0, 2]);
    expect(answers.map((answer) => answer.unchanged).sort()).toEqual([0, 2]);
    for (const answer of answers)
      expect(answer.remarks[rt(headType)]).toEqual({
        [s('Brian')]: { comment: 'Brian is promoted.', version: 1 },
        [s('David')]: { comment: 'David sits again.', version: 1 },
      });
    const { remarks, history } = await stored();
    expect(remarks).toHaveLength(2);
    expect(history).toHaveLength(2);
  });
});

describe('who may write', () => {
  it('a class teacher writes for their class and stream in the term, and nowhere else (403)', async () => {
    await clear();
    const east = { [rt(classType)]: { [s('Amina')]: 'From her class teacher.' } };
    expect(ok(await save(tutor, east, {}, { stream: 'East' })).saved).toBe(1);
    const west = await save(tutor, { [rt(classType)]: { [s('Carol')]: 'Not my class.' } }, {}, { stream: 'West' });
    expect(west.statusCode).toBe(403);
    expect(west.json().message).toBe(REMARK_MESSAGES.notClassTeacher);
    // The class without a stream is the tutor's own stream (issue 23 item 18): her learners, not the other stream's.
    expect(ok(await save(tutor, east, { [rt(classType)]: { [s('Amina')]: 1 } }, { stream: '' })).unchanged).toBe(1);
    const wholeClass = await save(tutor, { [rt(classType)]: { [s('Carol')]: 'Not my stream.' } }, {}, { stream: '' });
    expect(wholeClass.statusCode).toBe(422);
    expect(wholeClass.json().errors).toEqual({ [`comment.${rt(classType)}.${s('Carol')}`]: [REMARK_MESSAGES.learnerNotInClass] });
    // Another term is another assignment.
    expect((await save(tutor, east, {}, { stream: 'East', term: 'II' })).statusCode).toBe(403);
    expect((await save(tutor, { [rt(classType)]: { [`s_${p6Learner}`]: 'P6' } }, {}, { form: 'P6', stream: 'East' })).statusCode).toBe(403);
    // A learner of another stream sent under the tutor's stream is refused by name.
    const sneaked = await save(tutor, { [rt(classType)]: { [s('Carol')]: 'Sneaked in.' } }, {}, { stream: 'East' });
    expect(sneaked.statusCode).toBe(422);
    expect(sneaked.json().errors).toEqual({ [`comment.${rt(classType)}.${s('Carol')}`]: [REMARK_MESSAGES.learnerNotInClass] });
    // Reading is for every member; deleting is for those who manage remarks.
    ok(await load(tutor));
    const deleting = await tutor.post('/api/remark/delete', { form: 'P7', stream: '', term: 'I', year: YEAR, remarktype_id: classType.id });
    expect(deleting.statusCode).toBe(403);
    expect((await stored()).remarks).toHaveLength(1);
  });
});

describe('deleting remarks', () => {
  it('deletes a learner’s, then the class’s remarks of a remark type and its sub categories in one transaction; the texts stay in the history', async () => {
    await clear();
    ok(
      await save(head, {
        [rt(classType)]: { [s('Amina')]: 'A1', [s('Brian')]: 'B1', [s('Carol')]: 'C1' },
        [rt(conduct)]: { [s('Amina')]: 'Polite.' },
        [rt(headType)]: { [s('Amina')]: 'Head A' },
      }),
    );
    const one = ok(
      await head.post('/api/remark/delete', {
        form: 'P7',
        stream: '',
        term: 'I',
        year: YEAR,
        remarktype_id: classType.id,
        student_id: learners.Brian,
      }),
    );
    expect(one).toEqual({ message: 'Remarks have been deleted successfully', records: 1 });
    const west = ok(
      await head.post('/api/remark/delete', { form: 'p7', stream: 'west', term: 'I', year: YEAR, remarktype_id: classType.id }),
    );
    expect(west.records).toBe(1);
    const before = (await stored()).history.length;
    const all = ok(await head.post('/api/remark/delete', { form: 'P7', stream: null, term: 'I', year: YEAR, remarktype_id: classType.id }));
    expect(all).toEqual({ message: REMARK_MESSAGES.deleted, records: 2 });
    const { remarks, history } = await stored();
    // The head teacher's remark stays; the class teacher's and its Conduct are gone.
    expect(remarks.map((row) => row.comment)).toEqual(['Head A']);
    const deleted = history.slice(before);
    expect(deleted.map((row) => row.old_value).sort()).toEqual(['A1', 'Polite.']);
    expect(deleted.every((row) => row.action === 'delete' && row.new_value === null)).toBe(true);
    expect(new Set(deleted.map((row) => row.at)).size).toBe(1);
    // Nothing left to delete: the same answer, no records.
    expect(ok(await head.post('/api/remark/delete', { form: 'P7', term: 'I', year: YEAR, remarktype_id: classType.id })).records).toBe(0);
  });
});

describe('another school', () => {
  it('sees none of it, and cannot write to this school’s learners or remark types', async () => {
    await clear();
    ok(await save(head, { [rt(classType)]: { [s('Amina')]: 'Ours.' } }));
    // Their P7 is their own learner only.
    const theirs = ok(await load(other));
    expect(theirs.students.map((student: { id: string }) => student.id)).toEqual([otherLearner]);
    expect(theirs.remarks).toEqual({});
    expect(JSON.stringify(theirs)).not.toContain(learners.Amina);
    expect(JSON.stringify(theirs)).not.toContain(classType.id);
    const write = await save(other, { [rt(classType)]: { [s('Amina')]: 'Theirs.' } });
    expect(write.statusCode).toBe(422);
    expect(write.json().errors).toEqual({
      [`comment.${rt(classType)}`]: [REMARK_MESSAGES.remarkTypeUnknown],
      [`comment.${rt(classType)}.${s('Amina')}`]: [REMARK_MESSAGES.learnerUnknown],
    });
    // Their own remark type on our learner: the learner is no learner of theirs.
    const mixed = await save(other, { [rt(otherType)]: { [s('Amina')]: 'Theirs.' } });
    expect(mixed.json().errors).toEqual({ [`comment.${rt(otherType)}.${s('Amina')}`]: [REMARK_MESSAGES.learnerUnknown] });
    const deleting = await other.post('/api/remark/delete', {
      form: 'P7',
      term: 'I',
      year: YEAR,
      remarktype_id: classType.id,
      student_id: learners.Amina,
    });
    expect(deleting.statusCode).toBe(422);
    expect(Object.keys(deleting.json().errors).sort()).toEqual(['remarktype_id', 'student_id']);
    // Our remark type named in our school with their learner: refused too.
    const foreignLearner = await save(head, { [rt(classType)]: { [`s_${otherLearner}`]: 'Hello.' } });
    expect(foreignLearner.json().errors).toEqual({ [`comment.${rt(classType)}.s_${otherLearner}`]: [REMARK_MESSAGES.learnerUnknown] });
    expect((await stored()).remarks.map((row) => row.comment)).toEqual(['Ours.']);
    await withTenant(t.database.db, { tenantId: otherSchoolId }, async (trx) =>
      expect(await trx.selectFrom('remarks').select('id').execute()).toEqual([]),
    );
  });
});

describe('bad input', () => {
  it('answers 422 naming the comment with a clear message, never 500, and writes nothing', async () => {
    await clear();
    const cell = `comment.${rt(classType)}.${s('Amina')}`;
    const cases: Array<[comment: unknown, field: string, message: string, fields?: Record<string, unknown>]> = [
      [{ [rt(classType)]: { [s('Amina')]: 'x'.repeat(1001) } }, cell, COMMENT_MESSAGES.tooLong],
      [{ [rt(classType)]: { [s('Amina')]: 'Bell\u0007 rings' } }, cell, COMMENT_MESSAGES.controlCharacters],
      [{ [rt(classType)]: { [s('Amina')]: 'Escape \u001b[31m' } }, cell, COMMENT_MESSAGES.controlCharacters],
      [{ [rt(classType)]: { [s('Amina')]: 12 } }, cell, 'Invalid input: expected string, received number'],
      [{ [rt(inactive)]: { [s('Amina')]: 'Old.' } }, `comment.${rt(inactive)}`, REMARK_MESSAGES.remarkTypeInactive],
      [{ [rt(p6Only)]: { [s('Amina')]: 'P6.' } }, `comment.${rt(p6Only)}`, REMARK_MESSAGES.remarkTypeNotForClass],
      [
        { [rt(classType)]: { [`s_${p6Learner}`]: 'P6 learner.' } },
        `comment.${rt(classType)}.s_${p6Learner}`,
        REMARK_MESSAGES.learnerNotInClass,
      ],
      [{ [`rt_${newId()}`]: { [s('Amina')]: 'Unknown type.' } }, 'comment.rt_', REMARK_MESSAGES.remarkTypeUnknown],
      [{ classteacher: { [s('Amina')]: 'Bad key.' } }, 'comment.classteacher', REMARK_MESSAGES.keyInvalid],
      [{ [rt(classType)]: { 'not-a-learner': 'Bad key.' } }, `comment.${rt(classType)}.not-a-learner`, REMARK_MESSAGES.keyInvalid],
      [{ [rt(classType)]: { [s('Amina')]: 'Fine.' } }, 'category', REMARK_MESSAGES.categoryInvalid, { category: 'weekly' }],
      [{ [rt(classType)]: { [s('Amina')]: 'Fine.' } }, 'form', 'Please select a class', { form: '' }],
      ['not a map', 'comment', 'Invalid input: expected record, received string'],
    ];
    for (const [comment, field, message, fields] of cases) {
      const response = await head.post('/api/school/remarks', {
        form: 'P7',
        term: 'I',
        year: YEAR,
        category: 'exam',
        comment,
        base: {},
        ...fields,
      });
      expect(response.statusCode, `${field}: ${response.body}`).toBe(422);
      const errors = response.json().errors as Record<string, string[]>;
      const key = Object.keys(errors).find((name) => name.startsWith(field));
      expect(key, response.body).toBeDefined();
      expect(errors[key as string]).toEqual([message]);
    }
    // A NUL is refused before validation, named.
    const nul = await save(head, { [rt(classType)]: { [s('Amina')]: 'a\u0000b' } });
    expect(nul.statusCode).toBe(422);
    expect(JSON.stringify(nul.json().errors)).toContain(INPUT_MESSAGES.textInvalid);
    // Too many comments at once.
    const many = Object.fromEntries(Array.from({ length: 2001 }, () => [`s_${newId()}`, 'x']));
    expect((await save(head, { [rt(classType)]: many })).json().errors).toEqual({ comment: [REMARK_MESSAGES.tooMany] });
    // The delete's own: no remark type, a learner id that is no id.
    const noType = await head.post('/api/remark/delete', { form: 'P7', term: 'I', year: YEAR });
    expect(noType.statusCode).toBe(422);
    expect(Object.keys(noType.json().errors)).toEqual(['remarktype_id']);
    expect(
      (await head.post('/api/remark/delete', { form: 'P7', term: 'I', year: YEAR, remarktype_id: classType.id, student_id: 'x' }))
        .statusCode,
    ).toBe(422);
    expect((await load(head, { category: 'weekly' })).statusCode).toBe(422);
    expect((await stored()).remarks).toEqual([]);
  });
});
