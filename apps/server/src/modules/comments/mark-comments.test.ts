import { COMMENT_MESSAGES, INPUT_MESSAGES, markTypes, REPORT_MESSAGES, SETTINGS_MESSAGES, subjectTeachers } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * Subject comments and generic skills (issue 16 points 1 and 6) through the API: the round trip
 * in the spec's shapes, totals and grades as the report card has them, S5's per-paper layout,
 * versions and conflicts, the same save twice at once, the limits of a subject teacher's
 * assignments, another school refused, bad input answered 422 and never 500.
 */

let t: TestApp;
let head: Caller;
let marker: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let elsewhere: { id: string; tenantcode: string };
let maths: Row;
let english: Row;
let bot: Row;
let mot: Row;
type Learner = { id: string; studentid: string; firstname: string };
let east: Learner[];
let west: Learner[];
let p6: Learner[];
const YEAR = 2026;

/** Learners of a class and stream with their sex, named so the screen's order is known. */
async function learners(tenantId: string, form: string, stream: string, names: Array<[string, 'F' | 'M']>) {
  const rows = names.map(([firstname, gender], index) => ({
    tenant_id: tenantId,
    id: newId(),
    studentid: `${form}-${stream}-${index + 1}`,
    firstname,
    lastname: 'Okello',
    gender,
    form,
    stream,
  }));
  await withTenant(t.database.db, { tenantId }, (trx) => trx.insertInto('students').values(rows).execute());
  return rows.map((row) => ({ id: row.id, studentid: row.studentid, firstname: row.firstname }));
}

/** A role that may enter marks and nothing more: subject comments only where assigned. */
async function markerRole(tenantId: string) {
  await withTenant(t.database.db, { tenantId }, async (trx) => {
    const id = newId();
    await trx.insertInto('roles').values({ tenant_id: tenantId, id, name: 'marker' }).execute();
    await trx
      .insertInto('role_permissions')
      .values({ tenant_id: tenantId, id: newId(), role_id: id, subject_class: 'mark', action: 'create' })
      .execute();
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Comments Primary' });
  elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  await markerRole(school.id);
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const markerUser = await makeUser(t.database, { name: 'Grace Auma', memberOf: [{ tenantId: school.id, roles: ['marker'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  marker = caller(t.app, await login(t.app, markerUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  maths = await newSubject(head, { name: 'Mathematics' });
  english = await newSubject(head, { name: 'English' });
  bot = ok(await head.post(markTypes.path, { label: 'BOT', category: 'exam', position: 1 }));
  mot = ok(await head.post(markTypes.path, { label: 'MOT', category: 'exam', position: 2, outof: 50 }));
  ok(await head.post('/api/school/grades', gradeSet(maths.id, { form: 'P5', term: 'I', year: YEAR })));
  ok(await head.post('/api/school/grades', gradeSet(english.id, { form: 'P5', term: 'I', year: YEAR })));
  east = await learners(school.id, 'P5', 'East', [
    ['Amina', 'F'],
    ['Brian', 'M'],
    ['Carol', 'F'],
  ]);
  west = await learners(school.id, 'P5', 'West', [['Daniel', 'M']]);
  p6 = await learners(school.id, 'P6', 'East', [['Esther', 'F']]);
  const marks = (learner: Learner, subjectId: string, bots: number, mots: number | 'ABS') =>
    makeMarks(t.database, school.id, learner.id, [
      { subjectId, marktypeId: bot.id, form: 'P5', term: 'I', year: YEAR, mark: bots },
      { subjectId, marktypeId: mot.id, form: 'P5', term: 'I', year: YEAR, mark: mots },
    ]);
  await marks(east[0] as Learner, maths.id, 90, 45);
  await marks(east[1] as Learner, maths.id, 52, 'ABS');
  await marks(east[2] as Learner, maths.id, 30, 10);
  await marks(west[0] as Learner, maths.id, 70, 35);
  await marks(east[0] as Learner, english.id, 60, 30);
  for (const [score, comment, category] of [
    ['D1', '{name} is excellent; {he} should keep it up.', 'general'],
    ['80-100', 'Outstanding.', 'general'],
    ['D1', 'Skilled in {his} work.', 'nc skill'],
    ['D1', 'New curriculum: excellent.', 'nc general'],
  ])
    ok(await head.post('/api/school/automarkcomments', { score, comment, category }));
  // Grace teaches Mathematics in P5 East in Term I.
  ok(
    await head.post(subjectTeachers.path, {
      user_id: markerUser.id,
      subject_id: maths.id,
      form: 'P5',
      stream: 'East',
      term: 'I',
      year: YEAR,
    }),
  );
});
afterAll(() => t.close());

const where = (fields: Record<string, unknown> = {}) => ({
  form: 'P5',
  stream: 'East',
  term: 'I',
  year: YEAR,
  category: 'exam',
  subject_id: maths.id,
  ...fields,
});
const queryOf = (fields: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(fields).map(([key, value]): [string, string] => [key, String(value ?? '')])).toString();
const load = (by: Caller, fields: Record<string, unknown> = {}, path = '/api/school/markcomments') =>
  by.get(`${path}?${queryOf(where(fields))}`);
const save = (
  by: Caller,
  comment: Record<string, unknown>,
  base: Record<string, number> = {},
  fields: Record<string, unknown> = {},
  path = '/api/school/markcomments',
) => by.post(path, { ...where(fields), comment, base });

type Screen = {
  students: Array<{ id: string; studentid: string; fullname: string; firstname: string; gender: string | null }>;
  records: Array<{
    student_id: string;
    marks: Record<string, unknown>;
    papers?: Array<{ paper: string; mark: number | null; grade: string | null }>;
    total: number | null;
    grade: string | null;
    comment: string | null;
    version: number | null;
  }>;
  autocomments: Array<{ score: string; comment: string }>;
  marktypes: Array<{ id: string; label: string }>;
  subjects: Array<{ id: string; name: string }>;
};
const recordOf = (screen: Screen, learner: Learner) => screen.records.find((record) => record.student_id === learner.id);

/** What the comments and their history hold, read in the school's own transaction. */
async function storedOf(tenantId = school.id) {
  return withTenant(t.database.db, { tenantId }, async (trx) => ({
    comments: await trx.selectFrom('mark_comments').selectAll().orderBy('updated_at').execute(),
    history: await trx.selectFrom('comment_history').selectAll().orderBy('changed_at').execute(),
  }));
}

describe('subject comments: the round trip', () => {
  it('loads the class in the spec’s shape: learners, marks by mark type, total and grade as the report card has them', async () => {
    const screen: Screen = ok(await load(head));
    expect(screen.students).toEqual(
      east.map((learner) => ({
        id: learner.id,
        studentid: learner.studentid,
        fullname: `${learner.firstname} Okello`,
        firstname: learner.firstname,
        gender: learner.firstname === 'Brian' ? 'M' : 'F',
      })),
    );
    expect(screen.marktypes).toEqual([
      { id: bot.id, label: 'BOT' },
      { id: mot.id, label: 'MOT' },
    ]);
    expect(screen.subjects.map((subject) => subject.name)).toEqual(['English', 'Mathematics']);
    expect(screen.autocomments).toEqual([
      { score: '80-100', comment: 'Outstanding.' },
      { score: 'D1', comment: '{name} is excellent; {he} should keep it up.' },
    ]);
    // The same numbers as the report card (the grading engine's), learner by learner.
    const card = ok(await head.get(`/api/school/terminalreport?form=P5&stream=East&term=I&year=${YEAR}&category=exam&json=1`));
    for (const learner of card.learners as Array<{ id: string; subjects: Array<Record<string, unknown>> }>) {
      const subject = learner.subjects.find((each) => each.subject_id === maths.id);
      const record = screen.records.find((each) => each.student_id === learner.id);
      expect(record).toMatchObject({ marks: subject?.marks, total: subject?.total, grade: subject?.grade, comment: null, version: null });
      expect(record?.papers).toBeUndefined();
    }
    expect(recordOf(screen, east[0] as Learner)?.grade).toBeTruthy();
    expect(recordOf(screen, east[1] as Learner)?.marks).toMatchObject({ MOT: 'ABS' });
  });

  it('raw marks: each mark as entered', async () => {
    const screen: Screen = ok(await load(head, { rawmark: 1, marktype_id: mot.id }));
    expect(screen.marktypes).toEqual([{ id: mot.id, label: 'MOT' }]);
    expect(recordOf(screen, east[0] as Learner)?.marks).toEqual({ MOT: 45 });
  });

  it('saves, reads back with versions, changes and deletes; each change in the history', async () => {
    const [amina, brian] = east as [Learner, Learner];
    const first = ok(await save(head, { [amina.id]: 'Amina is excellent; she should keep it up.', [brian.id]: 'Brian <b>tries</b>.' }));
    expect(first).toEqual({
      message: 'Successfully created',
      saved: 2,
      deleted: 0,
      unchanged: 0,
      comments: {
        [amina.id]: { comment: 'Amina is excellent; she should keep it up.', version: 1 },
        [brian.id]: { comment: 'Brian <b>tries</b>.', version: 1 },
      },
    });
    let screen: Screen = ok(await load(head));
    expect(recordOf(screen, amina)).toMatchObject({ comment: 'Amina is excellent; she should keep it up.', version: 1 });
    expect(recordOf(screen, brian)).toMatchObject({ comment: 'Brian <b>tries</b>.', version: 1 });

    const second = ok(await save(head, { [amina.id]: 'Amina works hard.', [brian.id]: '   ' }, { [amina.id]: 1, [brian.id]: 1 }));
    expect(second).toMatchObject({ message: 'Successfully updated', saved: 1, deleted: 1, unchanged: 0 });
    expect(second.comments).toEqual({
      [amina.id]: { comment: 'Amina works hard.', version: 2 },
      [brian.id]: { comment: null, version: null },
    });
    screen = ok(await load(head));
    expect(recordOf(screen, amina)).toMatchObject({ comment: 'Amina works hard.', version: 2 });
    expect(recordOf(screen, brian)).toMatchObject({ comment: null, version: null });

    const { comments, history } = await storedOf();
    const aminas = comments.filter((row) => row.student_id === amina.id && row.kind === 'general');
    expect(aminas).toHaveLength(1);
    expect(aminas[0]).toMatchObject({ form: 'P5', stream: 'East', category: 'exam', term: 'I', year: YEAR, version: 2 });
    const brians = history.filter((row) => row.student_id === brian.id).map((row) => [row.action, row.old_value, row.new_value]);
    expect(brians).toEqual([
      ['save', null, 'Brian <b>tries</b>.'],
      ['delete', 'Brian <b>tries</b>.', null],
    ]);
    expect(history.filter((row) => row.student_id === amina.id).map((row) => row.new_value)).toEqual([
      'Amina is excellent; she should keep it up.',
      'Amina works hard.',
    ]);
    expect(history.every((row) => row.source === 'mark_comment')).toBe(true);
  });

  it('keeps tabs and new lines (a form’s \\r\\n as \\n), and 1,000 characters counted as the database counts them', async () => {
    const carol = east[2] as Learner;
    const long = '😀'.repeat(1000);
    ok(await save(head, { [carol.id]: long }));
    ok(await save(head, { [carol.id]: 'Line one\r\nLine two\twith a tab' }, { [carol.id]: 1 }));
    const screen: Screen = ok(await load(head));
    expect(recordOf(screen, carol)).toMatchObject({ comment: 'Line one\nLine two\twith a tab', version: 2 });
    ok(await save(head, { [carol.id]: '' }, { [carol.id]: 2 }));
  });
});

describe('conflicts', () => {
  it('a comment changed by someone since it was loaded: 409 naming the learner, nothing of the save written', async () => {
    const [amina, brian, carol] = east as [Learner, Learner, Learner];
    const loaded: Screen = ok(await load(head));
    const base = Object.fromEntries(loaded.records.flatMap((record) => (record.version ? [[record.student_id, record.version]] : [])));
    // Someone else writes Carol's comment meanwhile.
    ok(await save(marker, { [carol.id]: 'Carol by Grace.' }));
    const before = await storedOf();
    const refused = await save(
      head,
      { [amina.id]: 'Changed by the head.', [brian.id]: 'New for Brian.', [carol.id]: 'Carol by the head.' },
      base,
    );
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(`${COMMENT_MESSAGES.conflict}: Carol Okello`);
    expect(refused.json().conflicts).toEqual([
      {
        student_id: carol.id,
        fullname: 'Carol Okello',
        theirs: 'Carol by Grace.',
        version: 1,
        yours: 'Carol by the head.',
        by: 'Grace Auma',
      },
    ]);
    expect(await storedOf()).toEqual(before);
    // Keeping theirs: the head sends it again with its version, and the rest saves.
    const kept = ok(
      await save(
        head,
        { [amina.id]: 'Changed by the head.', [brian.id]: 'New for Brian.', [carol.id]: 'Carol by the head.' },
        {
          ...base,
          [carol.id]: 1,
        },
      ),
    );
    expect(kept).toMatchObject({ saved: 3, deleted: 0, unchanged: 0 });
  });

  it('a comment sent as it is stored is unchanged, whatever the base (a save sent again after it landed)', async () => {
    const amina = east[0] as Learner;
    const again = ok(await save(head, { [amina.id]: 'Changed by the head.' }));
    expect(again).toMatchObject({ saved: 0, unchanged: 1, comments: { [amina.id]: { comment: 'Changed by the head.' } } });
  });

  it('two identical saves at once write one comment and one history row', async () => {
    const daniel = west[0] as Learner;
    const body = { [daniel.id]: 'Daniel is steady.' };
    const answers = await Promise.all([save(head, body, {}, { stream: 'West' }), save(head, body, {}, { stream: 'West' })]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(answers.map((answer) => answer.json().saved).sort()).toEqual([0, 1]);
    const { comments, history } = await storedOf();
    expect(comments.filter((row) => row.student_id === daniel.id)).toHaveLength(1);
    expect(history.filter((row) => row.student_id === daniel.id)).toHaveLength(1);
  });
});

describe('generic skills', () => {
  it('a skills text per learner apart from the subject comment, with the "nc skill" automatic comments', async () => {
    const amina = east[0] as Learner;
    const screen: Screen = ok(await load(head, {}, '/api/school/genericcomments'));
    expect(screen.autocomments).toEqual([{ score: 'D1', comment: 'Skilled in {his} work.' }]);
    expect(recordOf(screen, amina)).toMatchObject({ comment: null, version: null });
    expect(recordOf(screen, amina)?.total).toBe(recordOf(ok(await load(head)), amina)?.total);
    const saved = ok(await save(head, { [amina.id]: 'Works well with others.' }, {}, {}, '/api/school/genericcomments'));
    expect(saved.comments[amina.id]).toEqual({ comment: 'Works well with others.', version: 1 });
    expect(recordOf(ok(await load(head, {}, '/api/school/genericcomments')), amina)).toMatchObject({
      comment: 'Works well with others.',
      version: 1,
    });
    // The subject comment is another text.
    expect(recordOf(ok(await load(head)), amina)?.comment).toBe('Changed by the head.');
    const kinds = (await storedOf()).comments.filter((row) => row.student_id === amina.id).map((row) => row.kind);
    expect(kinds.sort()).toEqual(['general', 'skill']);
  });

  it('the new curriculum’s subject comments (nc) are refused for an old-curriculum class, naming the screen to use', async () => {
    // A new-curriculum class's comments start from "nc general": nc-comments.test.ts.
    const refused = await load(head, { nc: 1 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ form: [COMMENT_MESSAGES.oldCurriculumClass] });
  });
});

describe('S5 and S6: per paper', () => {
  it('each learner’s papers with their totals and grades, beside the subject’s total and grade', async () => {
    const secondary = await makeTenant(t.database, { name: 'Comments High', schooltype: 'secondary' });
    const user = await makeUser(t.database, { memberOf: [{ tenantId: secondary.id, roles: ['headteacher'] }] });
    const high = caller(t.app, await login(t.app, user.email), secondary.tenantcode);
    const physics = await newSubject(high, { name: 'Physics', category: 'science', multiple_papers: true, multiple_paper_forms: 'S5' });
    const eot = ok(await high.post(markTypes.path, { label: 'EOT', category: 'exam' }));
    ok(await high.post('/api/school/grades', gradeSet(physics.id, { form: 'S5', term: 'I', year: YEAR })));
    const [sarah] = await learners(secondary.id, 'S5', 'A', [['Sarah', 'F']]);
    await makeMarks(t.database, secondary.id, (sarah as Learner).id, [
      { subjectId: physics.id, marktypeId: eot.id, form: 'S5', term: 'I', year: YEAR, mark: 80, paper: 'I' },
      { subjectId: physics.id, marktypeId: eot.id, form: 'S5', term: 'I', year: YEAR, mark: 60, paper: 'II' },
    ]);
    const screen: Screen = ok(await high.get(`/api/school/markcomments?form=S5&stream=A&term=I&year=${YEAR}&subject_id=${physics.id}`));
    const record = screen.records[0];
    const card = ok(await high.get(`/api/school/terminalreport?form=S5&term=I&year=${YEAR}&json=1`));
    const subject = card.learners[0].subjects.find((each: { subject_id: string }) => each.subject_id === physics.id);
    expect(record?.papers).toEqual(subject.papers);
    expect(record?.papers?.map((paper) => paper.paper)).toEqual(['I', 'II']);
    expect(record?.papers?.every((paper) => paper.grade !== null)).toBe(true);
    expect(record).toMatchObject({ total: subject.total, grade: subject.grade });
    ok(
      await high.post('/api/school/markcomments', {
        form: 'S5',
        stream: 'A',
        term: 'I',
        year: YEAR,
        subject_id: physics.id,
        comment: { [(sarah as Learner).id]: 'Strong in paper I.' },
      }),
    );
  });
});

describe('limits by assignment', () => {
  it('a subject teacher reads and writes their subject, class and stream only, and is offered that subject alone', async () => {
    const screen: Screen = ok(await load(marker));
    expect(screen.subjects.map((subject) => subject.name)).toEqual(['Mathematics']);
    const refusals = [
      await load(marker, { subject_id: english.id }),
      await load(marker, { stream: 'West' }),
      await load(marker, { form: 'P6' }),
      await load(marker, { term: 'II' }),
      await save(marker, { [(east[0] as Learner).id]: 'English comment' }, {}, { subject_id: english.id }),
      await save(marker, { [(west[0] as Learner).id]: 'West comment' }, {}, { stream: 'West' }),
      await load(marker, { subject_id: english.id }, '/api/school/genericcomments'),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toBe(COMMENT_MESSAGES.notAssigned);
    }
  });

  it('a class opened without a stream is the streams the teacher teaches: both streams whole, one stream its own learners (issue 23 item 18)', async () => {
    const ids = (screen: Screen) => screen.students.map((student) => student.id).sort();
    // Grace teaches P5 East alone: the class without a stream is her stream.
    expect(ids(ok(await load(marker, { stream: '' })))).toEqual(east.map((learner) => learner.id).sort());
    const [daniel] = west as [Learner];
    const commentOf = async (learner: Learner) =>
      (ok(await load(head, { stream: '' })) as Screen).records.find((record) => record.student_id === learner.id)?.comment;
    const before = await commentOf(daniel);
    const sneaked = await save(marker, { [(east[2] as Learner).id]: 'Her own.', [daniel.id]: 'Not hers.' }, {}, { stream: '' });
    expect(sneaked.statusCode).toBe(422);
    expect(sneaked.json().errors).toEqual({ [`comment.${daniel.id}`]: [COMMENT_MESSAGES.learnerNotInClass] });
    expect(await commentOf(daniel)).toBe(before);
    // A teacher of both streams opens the class whole.
    const both = await makeUser(t.database, { name: 'Henry Both', memberOf: [{ tenantId: school.id, roles: ['marker'] }] });
    for (const stream of ['East', 'West'])
      ok(await head.post(subjectTeachers.path, { user_id: both.id, subject_id: maths.id, form: 'P5', stream, term: 'I', year: YEAR }));
    const henry = caller(t.app, await login(t.app, both.email), school.tenantcode);
    const whole: Screen = ok(await load(henry, { stream: '' }));
    expect(ids(whole)).toEqual([...east, ...west].map((learner) => learner.id).sort());
    const version = whole.records.find((record) => record.student_id === daniel.id)?.version;
    const base = version ? { [daniel.id]: version } : {};
    expect(ok(await save(henry, { [daniel.id]: 'From the class whole.' }, base, { stream: '' })).saved).toBe(1);
  });

  it('a member who may enter neither marks nor remarks writes no comments', async () => {
    const bursar = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['bursar'] }] });
    const refused = await load(caller(t.app, await login(t.app, bursar.email), school.tenantcode));
    expect(refused.statusCode, refused.body).toBe(403);
  });
});

describe('another school', () => {
  it('names none of this school’s subjects or learners, and writes nothing of theirs', async () => {
    const before = await storedOf();
    const theirLoad = await load(other);
    expect(theirLoad.statusCode, theirLoad.body).toBe(422);
    expect(theirLoad.json().errors).toEqual({ subject_id: [COMMENT_MESSAGES.subjectUnknown] });
    const ownSubject = await newSubject(other, { name: 'Their Mathematics' });
    const theirSave = await save(other, { [(east[0] as Learner).id]: 'Written from elsewhere' }, {}, { subject_id: ownSubject.id });
    expect(theirSave.statusCode, theirSave.body).toBe(422);
    expect(Object.keys(theirSave.json().errors)).toEqual([`comment.${(east[0] as Learner).id}`]);
    const theirScreen: Screen = ok(await load(other, { subject_id: ownSubject.id }));
    expect(theirScreen.students).toEqual([]);
    expect(JSON.stringify(theirScreen)).not.toContain('Okello');
    expect(await storedOf()).toEqual(before);
    expect((await storedOf(elsewhere.id)).comments).toEqual([]);
  });
});

describe('bad input: 422 with a clear message, never 500', () => {
  const amina = () => (east[0] as Learner).id;
  type Sent = Promise<{ statusCode: number; json(): any; body: string }>;
  /** Each case, made when it runs: the request, the field named, and the message (when it is the screen's own). */
  const cases: Array<[string, () => [Sent, string, string]]> = [
    ['over 1,000 characters', () => [save(head, { [amina()]: 'x'.repeat(1001) }), `comment.${amina()}`, COMMENT_MESSAGES.tooLong]],
    [
      'a control character',
      () => [save(head, { [amina()]: 'Bell \u0007 here' }), `comment.${amina()}`, COMMENT_MESSAGES.controlCharacters],
    ],
    ['an escape', () => [save(head, { [amina()]: '\u001b[31mred' }), `comment.${amina()}`, COMMENT_MESSAGES.controlCharacters]],
    ['a lone carriage return', () => [save(head, { [amina()]: 'one\rtwo' }), `comment.${amina()}`, COMMENT_MESSAGES.controlCharacters]],
    ['a NUL', () => [save(head, { [amina()]: 'nul \u0000 here' }), `comment.${amina()}`, INPUT_MESSAGES.textInvalid]],
    [
      'a learner of another class',
      () => [save(head, { [(p6[0] as Learner).id]: 'P6' }), `comment.${(p6[0] as Learner).id}`, COMMENT_MESSAGES.learnerNotInClass],
    ],
    [
      'a learner of another stream',
      () => [save(head, { [(west[0] as Learner).id]: 'West' }), `comment.${(west[0] as Learner).id}`, COMMENT_MESSAGES.learnerNotInClass],
    ],
    ['a learner no school has', () => [save(head, { [newId()]: 'Nobody' }), '', COMMENT_MESSAGES.learnerNotInClass]],
    ['a key that is no learner id', () => [save(head, { 'not-an-id': 'Nobody' }), 'comment.not-an-id', COMMENT_MESSAGES.learnerNotInClass]],
    [
      'an unknown subject (save)',
      () => [save(head, { [amina()]: 'Fine' }, {}, { subject_id: newId() }), 'subject_id', COMMENT_MESSAGES.subjectUnknown],
    ],
    ['an unknown subject (load)', () => [load(head, { subject_id: newId() }), 'subject_id', COMMENT_MESSAGES.subjectUnknown]],
    ['no subject', () => [load(head, { subject_id: '' }), 'subject_id', SETTINGS_MESSAGES.subjectRequired]],
    ['an unknown mark type', () => [load(head, { marktype_id: newId() }), 'marktype_id', REPORT_MESSAGES.markTypeUnknown]],
    ['a number for a comment', () => [save(head, { [amina()]: 12 }), `comment.${amina()}`, '']],
    ['a list for a comment', () => [save(head, { [amina()]: ['a'] }), `comment.${amina()}`, '']],
    [
      'a version that is no number',
      () => [save(head, { [amina()]: 'x' }, { [amina()]: 'one' as unknown as number }), `base.${amina()}`, ''],
    ],
    ['a field the save does not take', () => [head.post('/api/school/markcomments', { ...where(), comment: {}, extra: 1 }), 'extra', '']],
    ['a report type it does not have', () => [load(head, { category: 'mid term' }), 'category', '']],
  ];
  it.each(cases)('%s', async (_name, make) => {
    const before = await storedOf();
    const [sent, field, message] = make();
    const response = await sent;
    expect(response.statusCode, response.body).toBe(422);
    const errors = response.json().errors as Record<string, string[]>;
    if (field) expect(Object.keys(errors), response.body).toContain(field);
    if (message) expect(Object.values(errors).flat()).toContain(message);
    expect(await storedOf()).toEqual(before);
  });
});
