import {
  ABSENT,
  type AoiScore,
  COMMENT_MESSAGES,
  competencyScores,
  displayScore,
  markTypes,
  REMARK_MESSAGES,
  subjectCompetencyScore,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newRemarkType, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * New-curriculum comments through the API (issue 27 point 3), on both databases: a secondary
 * school's S2 (new curriculum by default) with competency scores entered as marks carrying a
 * competency. The remark on competency (`/api/school/nccomments`) round trip with each
 * learner's competency and subject scores as competencies.ts computes them; generic skills
 * showing the same scores; the report remarks (`/api/school/ncremarks`) with the overall score
 * and the automatic report comment matched to it; the old screens refusing S2 and the new ones
 * refusing S5, each naming the screen to use; another school's ids and a teacher without the
 * assignment refused.
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let english: Row;
let maths: Row;
let theirSubject: Row;
let aoi1: Row;
let aoi2: Row;
let family: Row;
let health: Row;
let numbers: Row;
let classType: Row;
let headType: Row;
let s2: Record<string, string>;
let s5: Record<string, string>;
const YEAR = new Date().getFullYear();

async function learners(tenantId: string, form: string, names: Array<[string, 'F' | 'M']>) {
  const rows = names.map(([firstname, gender], index) => ({
    tenant_id: tenantId,
    id: newId(),
    studentid: `${form}-${index + 1}`,
    firstname,
    lastname: 'Namuli',
    gender,
    form,
    stream: 'North',
  }));
  await withTenant(t.database.db, { tenantId }, (trx) => trx.insertInto('students').values(rows).execute());
  return Object.fromEntries(rows.map((row) => [row.firstname, row.id]));
}

/** The AOIs of each learner: [competency, mark type, score] (ABS for an absence). */
const AOIS: Record<string, Array<[() => Row, () => Row, () => Row, number | 'ABS']>> = {
  Amina: [
    [() => english, () => family, () => aoi1, 3],
    [() => english, () => family, () => aoi2, 2],
    [() => english, () => health, () => aoi1, 3],
    [() => maths, () => numbers, () => aoi1, 2],
  ],
  Brian: [
    [() => english, () => family, () => aoi1, 2],
    [() => english, () => family, () => aoi2, 1],
    [() => english, () => health, () => aoi1, 1],
    [() => english, () => health, () => aoi2, 'ABS'],
  ],
  Carol: [
    [() => english, () => family, () => aoi1, 2],
    [() => english, () => health, () => aoi1, 'ABS'],
  ],
};

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Competency Comments High', schooltype: 'secondary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other High', schooltype: 'secondary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { name: 'Sarah Akello', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  english = await newSubject(head, { name: 'English Language', position: 1 });
  maths = await newSubject(head, { name: 'Mathematics', position: 2 });
  theirSubject = await newSubject(other, { name: 'English Language' });
  aoi1 = ok(await head.post(markTypes.path, { label: 'AOI 1', category: 'assesment', position: 1 }));
  aoi2 = ok(await head.post(markTypes.path, { label: 'AOI 2', category: 'assesment', position: 2, outof: 3 }));
  const topic = (subject: Row, title: string) => head.post('/api/school/topics', { form: 'S2', term: 'I', subject_id: subject.id, title });
  family = ok(await topic(english, 'Personal life and family'));
  health = ok(await topic(english, 'Health and well-being'));
  numbers = ok(await topic(maths, 'Number bases'));
  s2 = await learners(school.id, 'S2', [
    ['Amina', 'F'],
    ['Brian', 'M'],
    ['Carol', 'F'],
    ['David', 'M'],
  ]);
  s5 = await learners(school.id, 'S5', [['Esther', 'F']]);
  for (const [name, aois] of Object.entries(AOIS))
    await makeMarks(
      t.database,
      school.id,
      s2[name] as string,
      aois.map(([subject, competency, type, mark]) => ({
        subjectId: subject().id,
        marktypeId: type().id,
        topicId: competency().id,
        form: 'S2',
        term: 'I',
        year: YEAR,
        mark,
      })),
    );
  for (const [score, comment, category] of [
    ['Outstanding', '{name} has mastered the competencies; {he} explains {his} work well.', 'nc general'],
    ['1-1.49', 'Basic: more practice needed.', 'nc general'],
    ['Outstanding', 'Works well with others.', 'nc skill'],
    ['D1', 'Old curriculum: excellent.', 'general'],
  ])
    ok(await head.post('/api/school/automarkcomments', { score, comment, category }));
  headType = await newRemarkType(head, { label: "Head teacher's comment", position: 2 });
  classType = await newRemarkType(head, { label: "Class teacher's comment", position: 1 });
  for (const [from, to, comment] of [
    [2.5, 3, 'Outstanding overall, {name}.'],
    [1.5, 2.49, 'Moderate: {name} is progressing.'],
    [1, 1.49, 'Basic: {name} needs support.'],
  ] as const)
    ok(await head.post('/api/school/autoreportcomments', { form: 'S2', remarktype_id: classType.id, score: from, upper: to, comment }));
  // Sarah teaches S2 Mathematics only, and is no class teacher.
  ok(
    await head.post('/api/school/subjectteachers', {
      user_id: teacherUser.id,
      subject_id: maths.id,
      form: 'S2',
      stream: '',
      term: 'I',
      year: YEAR,
    }),
  );
});
afterAll(() => t?.close());

const params = (fields: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([key, value]): Array<[string, string]> => (value === undefined ? [] : [[key, String(value)]])),
  ).toString();
const target = (fields: Record<string, string | number | undefined> = {}) => ({
  form: 'S2',
  stream: 'North',
  term: 'I',
  year: YEAR,
  subject_id: english.id,
  ...fields,
});
const loadNc = (by: Caller, fields: Record<string, string | number | undefined> = {}) =>
  by.get(`/api/school/nccomments?${params(target(fields))}`);
const saveNc = (by: Caller, comment: Record<string, string>, base: Record<string, number> = {}, fields = {}) =>
  by.post('/api/school/nccomments', { ...target(fields), comment, base });

type Screen = {
  curriculum: string;
  topics: Array<{ id: string; title: string }>;
  autocomments: Array<{ score: string; comment: string }>;
  records: Array<{
    student_id: string;
    competencies: Record<string, { score: number | null; identifier: string | null }>;
    score: number | null;
    identifier: string | null;
    comment: string | null;
    version: number | null;
  }>;
};

/** What competencies.ts makes of a learner's AOIs in a subject: each competency's score and the subject's, as shown. */
function expected(name: string, subject: () => Row) {
  const aois = (AOIS[name] ?? [])
    .filter(([of]) => of() === subject())
    .map(
      ([, competency, type, mark]): AoiScore => ({
        topic_id: competency().id,
        marktype_id: type().id,
        value: mark === 'ABS' ? ABSENT : mark,
      }),
    );
  const topics = competencyScores(aois);
  const whole = subjectCompetencyScore(topics);
  return {
    competencies: Object.fromEntries(
      topics.map((topic) => [topic.topic_id, { score: displayScore(topic.score), identifier: topic.identifier }]),
    ),
    score: displayScore(whole.score),
    identifier: whole.identifier,
    exact: whole.score,
  };
}

describe('the remark on competency (/api/school/nccomments)', () => {
  it('shows each learner’s competency scores and subject score with its identifier, as competencies.ts computes them', async () => {
    const screen: Screen = ok(await loadNc(head));
    expect(screen.curriculum).toBe('new');
    expect(screen.topics.map((topic) => topic.title)).toEqual(['Personal life and family', 'Health and well-being']);
    for (const name of ['Amina', 'Brian', 'Carol', 'David']) {
      const record = screen.records.find((each) => each.student_id === s2[name]);
      const { exact: _, ...wanted } = expected(name, () => english);
      expect(record, name).toMatchObject(wanted);
    }
    const byName = (name: string) => screen.records.find((each) => each.student_id === s2[name]);
    // Amina: (3+2)/2 = 2.5 and 3, subject 2.75 shown 2.8, Outstanding. Brian: 1.5 and 1 (ABS apart), 1.25 shown 1.3, Basic.
    expect(byName('Amina')).toMatchObject({ score: 2.8, identifier: 'Outstanding' });
    expect(byName('Amina')?.competencies[family.id]).toEqual({ score: 2.5, identifier: 'Outstanding' });
    expect(byName('Brian')).toMatchObject({ score: 1.3, identifier: 'Basic' });
    // Carol missed her only Health AOI: no score there, and it does not pull her subject down.
    expect(byName('Carol')).toMatchObject({ score: 2, identifier: 'Moderate' });
    expect(byName('Carol')?.competencies[health.id]).toEqual({ score: null, identifier: null });
    expect(byName('David')).toMatchObject({ score: null, identifier: null, competencies: {} });
    // The automatic comments are those of "nc general", matched by identifier or band on the screen.
    expect(screen.autocomments.map((auto) => auto.score).sort()).toEqual(['1-1.49', 'Outstanding']);
  });

  it('saves the remarks, reads them back with their versions, and answers a stale save with a conflict', async () => {
    const amina = s2.Amina as string;
    const first = ok(await saveNc(head, { [amina]: 'Amina has mastered the competencies.' }));
    expect(first).toMatchObject({ saved: 1, comments: { [amina]: { comment: 'Amina has mastered the competencies.', version: 1 } } });
    const again: Screen = ok(await loadNc(head));
    expect(again.records.find((each) => each.student_id === amina)).toMatchObject({
      comment: 'Amina has mastered the competencies.',
      version: 1,
    });
    ok(await saveNc(head, { [amina]: 'Amina explains her work well.' }, { [amina]: 1 }));
    const stale = await saveNc(head, { [amina]: 'A stale remark.' }, { [amina]: 1 });
    expect(stale.statusCode).toBe(409);
    const now: Screen = ok(await loadNc(head));
    expect(now.records.find((each) => each.student_id === amina)).toMatchObject({ comment: 'Amina explains her work well.', version: 2 });
  });

  it('generic skills of a new-curriculum class show the same scores beside the skills text, starting from "nc skill"', async () => {
    const skills: Screen = ok(await head.get(`/api/school/genericcomments?${params(target())}`));
    const remarks: Screen = ok(await loadNc(head));
    expect(skills.curriculum).toBe('new');
    expect(skills.topics).toEqual(remarks.topics);
    expect(skills.records.map(({ competencies, score, identifier }) => ({ competencies, score, identifier }))).toEqual(
      remarks.records.map(({ competencies, score, identifier }) => ({ competencies, score, identifier })),
    );
    expect(skills.autocomments).toEqual([{ score: 'Outstanding', comment: 'Works well with others.' }]);
    const amina = s2.Amina as string;
    ok(await head.post('/api/school/genericcomments', { ...target(), comment: { [amina]: 'Leads her group.' } }));
    const read: Screen = ok(await head.get(`/api/school/genericcomments?${params(target())}`));
    expect(read.records.find((each) => each.student_id === amina)?.comment).toBe('Leads her group.');
    // The skills text is not the remark on competency.
    expect((ok(await loadNc(head)) as Screen).records.find((each) => each.student_id === amina)?.comment).toBe(
      'Amina explains her work well.',
    );
  });

  it('the subject comments refuse S2 and the new-curriculum comments S5, each naming the screen to use', async () => {
    const old = await head.get(`/api/school/markcomments?${params(target())}`);
    expect(old.statusCode).toBe(422);
    expect(old.json().errors).toEqual({ form: [COMMENT_MESSAGES.newCurriculumClass] });
    const oldSave = await head.post('/api/school/markcomments', { ...target(), comment: { [s2.Amina as string]: 'Old' } });
    expect(oldSave.statusCode).toBe(422);
    const fresh = await loadNc(head, { form: 'S5' });
    expect(fresh.statusCode).toBe(422);
    expect(fresh.json().errors).toEqual({ form: [COMMENT_MESSAGES.oldCurriculumClass] });
    const freshSave = await saveNc(head, { [s5.Esther as string]: 'New' }, {}, { form: 'S5' });
    expect(freshSave.statusCode).toBe(422);
    expect(freshSave.json().errors).toEqual({ form: [COMMENT_MESSAGES.oldCurriculumClass] });
    // A school that keeps S2 on the old curriculum this year writes its subject comments on the old screen.
    ok(await head.put('/api/school/curricula', { year: YEAR, allow_zero: false, classes: [{ form: 'S2', curriculum: 'old' }] }));
    try {
      expect((await loadNc(head)).json().errors).toEqual({ form: [COMMENT_MESSAGES.oldCurriculumClass] });
      expect((await head.get(`/api/school/markcomments?${params(target())}`)).statusCode).toBe(200);
    } finally {
      ok(await head.put('/api/school/curricula', { year: YEAR, allow_zero: false, classes: [{ form: 'S2', curriculum: 'new' }] }));
    }
  });

  it('refuses another school’s subject and learners, a teacher without the assignment, and bad input, never 500', async () => {
    const theirs = await loadNc(head, { subject_id: theirSubject.id });
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json().errors).toEqual({ subject_id: [COMMENT_MESSAGES.subjectUnknown] });
    // Their head names our subject: it is not theirs.
    const fromThere = await loadNc(other);
    expect(fromThere.statusCode).toBe(422);
    const stranger = await saveNc(head, { [newId()]: 'Who?' });
    expect(stranger.statusCode).toBe(422);
    // Sarah teaches Mathematics in S2, not English Language.
    expect((await loadNc(teacher)).statusCode).toBe(403);
    expect((await saveNc(teacher, { [s2.Amina as string]: 'Not mine.' })).statusCode).toBe(403);
    expect((await loadNc(teacher, { subject_id: maths.id })).statusCode).toBe(200);
    for (const bad of [{ term: 'IV' }, { year: 'soon' }, { subject_id: 'nope' }, { form: '' }])
      expect((await loadNc(head, bad)).statusCode, JSON.stringify(bad)).toBe(422);
    const tooLong = await saveNc(head, { [s2.Brian as string]: 'x'.repeat(1001) });
    expect(tooLong.statusCode).toBe(422);
    const screen: Screen = ok(await loadNc(head));
    expect(screen.records.find((each) => each.student_id === s2.Brian)?.comment).toBeNull();
  });
});

describe('the report remarks (/api/school/ncremarks)', () => {
  const query = (fields: Record<string, string | number | undefined> = {}) =>
    params({ form: 'S2', stream: 'North', term: 'I', year: YEAR, category: 'exam', ...fields });
  type Remarks = {
    remarktypes: Array<{ id: string }>;
    remarks: Record<string, Record<string, { comment: string; version: number }>>;
    students: Array<{
      id: string;
      score: number | null;
      identifier: string | null;
      result: number | null;
      division: string | null;
      ncsubjects: Array<{ subject_id: string; score: number | null; identifier: string | null }>;
      suggestions: Record<string, string>;
    }>;
  };

  it('shows each learner’s subject scores and overall score, and the automatic comment matching the overall score', async () => {
    const answer: Remarks = ok(await head.get(`/api/school/ncremarks?${query()}`));
    expect(answer.remarktypes.map((type) => type.id)).toEqual([classType.id, headType.id]);
    const amina = answer.students.find((each) => each.id === s2.Amina);
    const language = expected('Amina', () => english);
    const mathematics = expected('Amina', () => maths);
    expect(amina?.ncsubjects).toEqual([
      { subject_id: english.id, subject: 'English Language', score: language.score, identifier: language.identifier },
      { subject_id: maths.id, subject: 'Mathematics', score: mathematics.score, identifier: mathematics.identifier },
    ]);
    // Overall: the mean of 2.75 and 2 is 2.375, shown 2.4, Moderate; no division.
    const overall = subjectCompetencyScore([{ score: language.exact }, { score: mathematics.exact }]);
    expect(amina).toMatchObject({ score: displayScore(overall.score), identifier: overall.identifier, division: null });
    expect(amina).toMatchObject({ score: 2.4, identifier: 'Moderate' });
    expect(amina?.suggestions[`rt_${classType.id}`]).toBe('Moderate: Amina is progressing.');
    const brian = answer.students.find((each) => each.id === s2.Brian);
    expect(brian).toMatchObject({ score: 1.3, identifier: 'Basic' });
    expect(brian?.suggestions[`rt_${classType.id}`]).toBe('Basic: Brian needs support.');
    const david = answer.students.find((each) => each.id === s2.David);
    expect(david).toMatchObject({ score: null, identifier: null, ncsubjects: [], suggestions: {} });
  });

  it('saves the class teacher’s and head teacher’s remarks and reads them back', async () => {
    const rt = (row: Row) => `rt_${row.id}`;
    const s = (name: string) => `s_${s2[name]}`;
    ok(
      await head.post('/api/school/remarks', {
        form: 'S2',
        stream: 'North',
        term: 'I',
        year: YEAR,
        comment: { [rt(classType)]: { [s('Amina')]: 'Moderate: Amina is progressing.' }, [rt(headType)]: { [s('Amina')]: 'Promoted.' } },
      }),
    );
    const answer: Remarks = ok(await head.get(`/api/school/ncremarks?${query()}`));
    expect(answer.remarks[rt(classType)]?.[s('Amina')]).toEqual({ comment: 'Moderate: Amina is progressing.', version: 1 });
    expect(answer.remarks[rt(headType)]?.[s('Amina')]).toEqual({ comment: 'Promoted.', version: 1 });
    // A teacher who is not S2's class teacher may not write them.
    const refused = await teacher.post('/api/school/remarks', {
      form: 'S2',
      stream: 'North',
      term: 'I',
      year: YEAR,
      comment: { [rt(classType)]: { [s('Brian')]: 'Not mine.' } },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('the report comments refuse S2 and the new-curriculum remarks S5; another school’s ids are refused', async () => {
    const old = await head.get(`/api/school/remarks?${query()}`);
    expect(old.statusCode).toBe(422);
    expect(old.json().errors).toEqual({ form: [REMARK_MESSAGES.newCurriculumClass] });
    const fresh = await head.get(`/api/school/ncremarks?${query({ form: 'S5' })}`);
    expect(fresh.statusCode).toBe(422);
    expect(fresh.json().errors).toEqual({ form: [REMARK_MESSAGES.oldCurriculumClass] });
    const theirs = await other.get(`/api/school/ncremarks?${query({ remarktype_id: classType.id })}`);
    expect(theirs.statusCode).toBe(422);
    expect((await head.get(`/api/school/ncremarks?${query({ term: 'IV' })}`)).statusCode).toBe(422);
  });
});
