import { MARK_MESSAGES, markTypes, SETTINGS_MESSAGES, subjectTeachers, TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * A competency's activity-of-integration scores through the marks grid (issue 26 point 3): the
 * grid opened with `topic_id` reads every cell on the identifier scale (1 to 3, one decimal, 0
 * only where the school allows it, ABS apart), whatever the mark type's maximum; the topic must
 * be the school's, of the grid's subject, class and term, in a class on the new curriculum that
 * year; saves are idempotent and conflicts named as for marks; a teacher enters only what they
 * teach; the list and the deletion narrow to the competency's scores.
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let headToken: string;
let english: Row;
let maths: Row;
let aoi1: Row;
let aoi2: Row;
let foreignType: Row;
type Learner = { id: string; studentid: string };
let s2: Learner[];
let topic: Row;
let s3Topic: Row;
let s5Topic: Row;
let foreignTopic: Row;
const YEAR = new Date().getFullYear();

async function learners(tenantId: string, form: string, names: string[]) {
  const rows = names.map((firstname, index) => ({
    tenant_id: tenantId,
    id: newId(),
    studentid: `${form}-${index + 1}`,
    firstname,
    lastname: 'Namuli',
    form,
    stream: 'North',
  }));
  await withTenant(t.database.db, { tenantId }, (trx) => trx.insertInto('students').values(rows).execute());
  return rows.map((row) => ({ id: row.id, studentid: row.studentid }));
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Competency Secondary', schooltype: 'secondary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Secondary', schooltype: 'secondary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { name: 'Sarah Akello', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  headToken = await login(t.app, headUser.email);
  head = caller(t.app, headToken, school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  english = await newSubject(head, { name: 'English Language' });
  maths = await newSubject(head, { name: 'Mathematics' });
  // Mark types out of 100 and out of 3: a competency's scale is 1 to 3 either way.
  aoi1 = ok(await head.post(markTypes.path, { label: 'AOI 1', category: 'assesment', position: 1 }));
  aoi2 = ok(await head.post(markTypes.path, { label: 'AOI 2', category: 'assesment', position: 2, outof: 3 }));
  const otherSubject = await newSubject(other, { name: 'English Language' });
  foreignType = ok(await other.post(markTypes.path, { label: 'AOI 1', category: 'assesment', position: 1 }));
  s2 = await learners(school.id, 'S2', ['Amos', 'Betty', 'Cissy', 'Denis']);
  await learners(school.id, 'S5', ['Esther']);
  const newTopic = (by: Caller, fields: Record<string, unknown>) =>
    by.post('/api/school/topics', { form: 'S2', term: 'I', subject_id: english.id, title: 'Personal life and family', ...fields });
  topic = ok(await newTopic(head, {}));
  s3Topic = ok(await newTopic(head, { form: 'S3', title: 'Creative writing' }));
  // S5's competency was written while S5 was on the new curriculum; S5 is back on the old one (the grid refuses it).
  ok(await setCurricula({ classes: [{ form: 'S5', curriculum: 'new' }] }));
  s5Topic = ok(await newTopic(head, { form: 'S5', title: 'Literature' }));
  ok(await setCurricula({ classes: [{ form: 'S5', curriculum: 'old' }] }));
  foreignTopic = ok(await newTopic(other, { subject_id: otherSubject.id }));
  // Sarah teaches S2 English Language in Term I.
  ok(
    await head.post(subjectTeachers.path, {
      user_id: teacherUser.id,
      subject_id: english.id,
      form: 'S2',
      stream: '',
      term: 'I',
      year: YEAR,
    }),
  );
});
afterAll(() => t.close());

const place = (fields: Record<string, unknown> = {}) => ({
  form: 'S2',
  stream: 'North',
  term: 'I',
  year: YEAR,
  subject_id: english.id,
  paper: 'I',
  topic_id: topic.id,
  ...fields,
});
const grid = (by: Caller, fields: Record<string, unknown> = {}) =>
  by.post('/api/school/marks/grid', { ...place(), marktypes: [aoi1.id, aoi2.id], ...fields });
const save = (by: Caller, marks: Record<string, Record<string, unknown>>, base: Record<string, Record<string, number>> = {}, fields = {}) =>
  by.post('/api/school/marks', { ...place(), save_id: crypto.randomUUID(), marks, base, ...fields });
const grid0 = (topicId: string) => head.post('/api/school/marks/grid', { ...place(), topic_id: topicId, marktypes: [aoi1.id] });
const setCurricula = (body: Record<string, unknown>) =>
  head.put('/api/school/curricula', { year: YEAR, allow_zero: false, classes: [], ...body });

/** The grid's stored marks by learner and mark type. */
async function scoresOf(by: Caller = head, fields: Record<string, unknown> = {}) {
  const answer = ok(await grid(by, fields));
  return Object.fromEntries(
    answer.students.map((row: { student: { studentid: string }; marktypes: Record<string, { mark: unknown }> }) => [
      row.student.studentid,
      Object.fromEntries(Object.entries(row.marktypes).map(([id, cell]) => [id, cell.mark])),
    ]),
  ) as Record<string, Record<string, unknown>>;
}

describe("a competency's grid", () => {
  it('reads every column on the identifier scale, 1 to 3, whatever the mark type’s maximum', async () => {
    const answer = ok(await grid(head));
    expect(answer.marktypes.map((type: { label: string; outof: number }) => [type.label, type.outof])).toEqual([
      ['AOI 1', 3],
      ['AOI 2', 3],
    ]);
    expect(answer.scale).toEqual({ lowest: 1, highest: 3, competency: true });
    // The subject's plain marks are another grid, on the mark type's own maximum.
    const plain = ok(await grid(head, { topic_id: undefined }));
    expect(plain.scale).toBeUndefined();
    expect(plain.marktypes[0].outof).toBe(100);
  });

  it('refuses 4, 2.55, -1, "three" and 0 each by its cell with its reason, saving nothing', async () => {
    const [amos, betty, cissy, denis] = s2 as [Learner, Learner, Learner, Learner];
    const response = await save(head, {
      [aoi1.id]: { [amos.id]: 4, [betty.id]: 2.55, [cissy.id]: -1, [denis.id]: 'three' },
      [aoi2.id]: { [amos.id]: 0, [betty.id]: 3 },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      [`marks.${aoi1.id}.${amos.id}`]: [MARK_MESSAGES.competencyAboveThree],
      [`marks.${aoi1.id}.${betty.id}`]: [MARK_MESSAGES.oneDecimal],
      [`marks.${aoi1.id}.${cissy.id}`]: [MARK_MESSAGES.competencyBelowOne],
      [`marks.${aoi1.id}.${denis.id}`]: [MARK_MESSAGES.notAMark],
      [`marks.${aoi2.id}.${amos.id}`]: [MARK_MESSAGES.competencyBelowOne],
    });
    expect(await scoresOf()).toEqual({ 'S2-1': {}, 'S2-2': {}, 'S2-3': {}, 'S2-4': {} });
  });

  it('saves scores with one decimal and ABS apart from any score; the same save twice writes once; a stale save is a conflict', async () => {
    const [amos, betty, cissy] = s2 as [Learner, Learner, Learner];
    const body = {
      ...place(),
      save_id: crypto.randomUUID(),
      marks: { [aoi1.id]: { [amos.id]: 2.5, [betty.id]: 'ABS', [cissy.id]: '3' }, [aoi2.id]: { [amos.id]: 1.5 } },
      base: {},
    };
    const [one, two] = await Promise.all([head.post('/api/school/marks', body), head.post('/api/school/marks', body)]);
    expect(ok(one)).toEqual(ok(two));
    expect(ok(one)).toMatchObject({ saved: 4 });
    expect(await scoresOf()).toMatchObject({
      'S2-1': { [aoi1.id]: 2.5, [aoi2.id]: 1.5 },
      'S2-2': { [aoi1.id]: 'ABS' },
      'S2-3': { [aoi1.id]: 3 },
    });
    // The competency's scores are not the subject's plain marks.
    expect(
      ok(await grid(head, { topic_id: undefined })).students.every((row: { marktypes: object }) => Object.keys(row.marktypes).length === 0),
    ).toBe(true);
    // Loaded at version 1, changed by someone else to version 2: the first change back is a 409 naming the cell.
    ok(await save(head, { [aoi1.id]: { [cissy.id]: 2 } }, { [aoi1.id]: { [cissy.id]: 1 } }));
    const stale = await save(head, { [aoi1.id]: { [cissy.id]: 1 } }, { [aoi1.id]: { [cissy.id]: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().conflicts).toEqual([
      { marktype_id: aoi1.id, student_id: cissy.id, theirs: 2, version: 2, yours: 1, by: 'Head Teacher' },
    ]);
    expect((await scoresOf())['S2-3']).toEqual({ [aoi1.id]: 2 });
  });

  it('takes a 0 once the school allows it, still apart from ABS', async () => {
    const [, , , denis] = s2 as [Learner, Learner, Learner, Learner];
    ok(await setCurricula({ allow_zero: true }));
    try {
      expect(ok(await grid(head)).scale).toEqual({ lowest: 0, highest: 3, competency: true });
      ok(await save(head, { [aoi2.id]: { [denis.id]: 0 } }));
      expect((await scoresOf())['S2-4']).toEqual({ [aoi2.id]: 0 });
      expect((await save(head, { [aoi1.id]: { [denis.id]: -0.5 } })).json().errors).toEqual({
        [`marks.${aoi1.id}.${denis.id}`]: [MARK_MESSAGES.belowZero],
      });
    } finally {
      ok(await setCurricula({ allow_zero: false }));
    }
  });
});

describe('what a competency grid names', () => {
  it('refuses a topic of another school, of another class or term, or of an old-curriculum class, by topic_id', async () => {
    const refused = async (fields: Record<string, unknown>) => {
      const response = await grid(head, fields);
      expect(response.statusCode).toBe(422);
      return response.json().errors;
    };
    expect(await refused({ topic_id: foreignTopic.id })).toEqual({ topic_id: [SETTINGS_MESSAGES.referenceMissing] });
    expect(await refused({ topic_id: s3Topic.id })).toEqual({ topic_id: [MARK_MESSAGES.competencyOtherClass] });
    expect(await refused({ term: 'II' })).toMatchObject({ topic_id: [MARK_MESSAGES.competencyOtherClass] });
    expect(await refused({ topic_id: s5Topic.id, form: 'S5' })).toEqual({ topic_id: [MARK_MESSAGES.competencyOldCurriculum] });
    expect(await refused({ subject_id: maths.id })).toEqual({ topic_id: [SETTINGS_MESSAGES.referenceMissing] });
    // S2 switched to the old curriculum for the year: its competency takes no scores that year.
    ok(await setCurricula({ classes: [{ form: 'S2', curriculum: 'old' }] }));
    try {
      expect(await refused({})).toEqual({ topic_id: [MARK_MESSAGES.competencyOldCurriculum] });
    } finally {
      ok(await setCurricula({ classes: [{ form: 'S2', curriculum: 'new' }] }));
    }
    // A mark type of another school is no activity of integration here.
    expect((await grid(head, { marktypes: [foreignType.id] })).statusCode).toBe(422);
    const [amos] = s2 as [Learner];
    const foreign = await save(head, { [foreignType.id]: { [amos.id]: 2 } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors).toEqual({ marktypes: [MARK_MESSAGES.markTypeUnknown] });
  });

  it('keeps a teacher to what they teach, and another school out', async () => {
    const [amos] = s2 as [Learner];
    expect((await grid(teacher)).statusCode).toBe(200);
    ok(await save(teacher, { [aoi2.id]: { [amos.id]: 3 } }, { [aoi2.id]: { [amos.id]: 1 } }));
    // Not Mathematics, which she does not teach (its own S2 competency).
    const mathsTopic = ok(await head.post('/api/school/topics', { form: 'S2', term: 'I', subject_id: maths.id, title: 'Number bases' }));
    const refused = await grid(teacher, { subject_id: maths.id, topic_id: mathsTopic.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MARK_MESSAGES.notAssigned);
    // Another school's head names this school's topic: it is not theirs.
    const theirs = await grid(other, { topic_id: topic.id, subject_id: foreignTopic.subject_id, marktypes: [foreignType.id] });
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json().errors).toEqual({ topic_id: [SETTINGS_MESSAGES.referenceMissing] });
  });
});

describe("a competency's cell history", () => {
  it('is its own: another competency, or the plain mark, under the same mark type and learner is another cell', async () => {
    const [amos] = s2 as [Learner];
    const other = ok(await head.post('/api/school/topics', { form: 'S2', term: 'I', subject_id: english.id, title: 'Culture' }));
    const grid = ok(await grid0(other.id));
    const version = (topicId: string) =>
      grid0(topicId).then(
        (answer) =>
          ok(answer).students.find((row: { student: { id: string } }) => row.student.id === amos.id)?.marktypes[aoi1.id]?.version ?? 0,
      );
    expect(grid.scale.competency).toBe(true);
    ok(await save(head, { [aoi1.id]: { [amos.id]: 1.5 } }, { [aoi1.id]: { [amos.id]: await version(other.id) } }, { topic_id: other.id }));
    ok(await save(head, { [aoi1.id]: { [amos.id]: 3 } }, { [aoi1.id]: { [amos.id]: await version(topic.id) } }));
    const historyOf = async (topicId?: string) =>
      ok(
        await head.get(
          `/api/school/marks/history?student_id=${amos.id}&subject_id=${english.id}&marktype_id=${aoi1.id}&term=I&year=${YEAR}&paper=I${topicId ? `&topic_id=${topicId}` : ''}`,
        ),
      ).history.map((entry: { new: unknown }) => entry.new);
    expect(await historyOf(other.id)).toEqual([1.5]);
    expect((await historyOf(topic.id))[0]).toBe(3);
    expect(await historyOf(topic.id)).not.toContain(1.5);
    // The subject's plain English mark under AOI 1 has a history of its own, without either competency's.
    const plain = await historyOf();
    expect(plain).not.toContain(1.5);
    expect(plain).not.toContain(3);
  });
});

describe("a competency's scores in the marks list, the sheet and the deletion", () => {
  it('lists only the competency’s scores with topic_id', async () => {
    const listed = ok(await head.get(`/api/school/marks?topic_id=${topic.id}&form=S2&term=I&year=${YEAR}`));
    expect(listed.totalRecords).toBeGreaterThan(0);
    expect(listed.marks.every((mark: { topic_id: string }) => mark.topic_id === topic.id)).toBe(true);
  });

  it('round-trips the sheet on the identifier scale: a 4 is refused by its row, a 2.5 saved', async () => {
    const sheetOf = async () => {
      const response = await head.post('/api/school/marks/grid', { ...place(), marktypes: [aoi1.id], excel: '1' });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      return workbook;
    };
    const upload = async (workbook: ExcelJS.Workbook) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(place())) form.set(key, String(value));
      form.append('marktypes[]', aoi1.id as string);
      form.set('file', new Blob([new Uint8Array(await workbook.xlsx.writeBuffer())]), 'scores.xlsx');
      const request = new Request('http://mustard.test/', { method: 'POST', body: form });
      return t.app.inject({
        method: 'POST',
        url: '/api/school/marks/grid',
        headers: {
          authorization: `Bearer ${headToken}`,
          [TENANT_HEADER]: school.tenantcode,
          'content-type': request.headers.get('content-type') as string,
        },
        payload: Buffer.from(await request.arrayBuffer()),
      });
    };
    const workbook = await sheetOf();
    const sheet = workbook.getWorksheet('Marks') as ExcelJS.Worksheet;
    let denisRow = 0;
    sheet.eachRow((row, number) => {
      if (row.getCell(1).value === 'S2-4') denisRow = number;
    });
    sheet.getCell(denisRow, 3).value = 4;
    const refused = await upload(workbook);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ [`${denisRow}.AOI 1`]: [MARK_MESSAGES.competencyAboveThree] });
    sheet.getCell(denisRow, 3).value = 2.5;
    expect(ok(await upload(workbook))).toMatchObject({ saved: 1 });
    expect((await scoresOf())['S2-4']).toMatchObject({ [aoi1.id]: 2.5 });
  });

  it('deletes only the competency’s scores with topic_id, keeping each in the history', async () => {
    const [amos] = s2 as [Learner];
    // A plain English mark of the same class and term stays.
    ok(await save(head, { [aoi1.id]: { [amos.id]: 64 } }, {}, { topic_id: null }));
    const deleted = ok(
      await head.post('/api/school/marks/bulkdelete', { form: 'S2', stream: '', term: 'I', year: YEAR, topic_id: topic.id }),
    );
    expect(deleted.records).toBeGreaterThan(0);
    expect(await scoresOf()).toEqual({ 'S2-1': {}, 'S2-2': {}, 'S2-3': {}, 'S2-4': {} });
    expect((await scoresOf(head, { topic_id: undefined }))['S2-1']).toEqual({ [aoi1.id]: 64 });
    const history = ok(
      await head.get(
        `/api/school/marks/history?student_id=${amos.id}&subject_id=${english.id}&marktype_id=${aoi1.id}&term=I&year=${YEAR}&paper=I&topic_id=${topic.id}`,
      ),
    );
    expect(history.history.some((entry: { source: string }) => entry.source === 'delete')).toBe(true);
  });
});

describe('a competency created with a filled scores sheet', () => {
  /** The class's plain marks sheet (no competency), as Create Marks downloads it. */
  async function plainSheet() {
    const response = await head.post('/api/school/marks/grid', { ...place(), topic_id: undefined, marktypes: [aoi2.id], excel: '1' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Marks') as ExcelJS.Worksheet;
    const rowOf = (studentid: string) => {
      let found = 0;
      sheet.eachRow((row, number) => {
        if (row.getCell(1).value === studentid) found = number;
      });
      return found;
    };
    return { workbook, sheet, rowOf };
  }
  async function createWith(by: { token: string }, workbook: ExcelJS.Workbook, fields: Record<string, string>) {
    const form = new FormData();
    for (const [key, value] of Object.entries({ form: 'S2', term: 'I', subject_id: english.id as string, ...fields })) form.set(key, value);
    form.set('file', new Blob([new Uint8Array(await workbook.xlsx.writeBuffer())]), 'scores.xlsx');
    const request = new Request('http://mustard.test/', { method: 'POST', body: form });
    return t.app.inject({
      method: 'POST',
      url: '/api/school/topics/sheet',
      headers: {
        authorization: `Bearer ${by.token}`,
        [TENANT_HEADER]: school.tenantcode,
        'content-type': request.headers.get('content-type') as string,
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }
  const titled = async (title: string) =>
    ok(await head.get(`/api/school/topics?form=S2&term=I&search=${encodeURIComponent(title)}`)).topics as Array<{ id: string }>;

  it('adds the competency and saves the sheet as its scores, in one action', async () => {
    const { workbook, sheet, rowOf } = await plainSheet();
    sheet.getCell(rowOf('S2-1'), 3).value = 2;
    sheet.getCell(rowOf('S2-2'), 3).value = 'ABS';
    sheet.getCell(rowOf('S2-3'), 3).value = 2.5;
    const answer = ok(await createWith({ token: headToken }, workbook, { title: 'Finding information', remarks: 'Library visit' }));
    expect(answer).toMatchObject({ created: { title: 'Finding information', form: 'S2', term: 'I', remarks: 'Library visit' }, saved: 3 });
    const scores = await scoresOf(head, { topic_id: answer.created.id, marktypes: [aoi2.id] });
    expect(scores).toMatchObject({ 'S2-1': { [aoi2.id]: 2 }, 'S2-2': { [aoi2.id]: 'ABS' }, 'S2-3': { [aoi2.id]: 2.5 } });
    expect(await titled('Finding information')).toHaveLength(1);
  });

  it('keeps nothing, the competency neither, when a row is refused or the sheet is of another class', async () => {
    const { workbook, sheet, rowOf } = await plainSheet();
    sheet.getCell(rowOf('S2-1'), 3).value = 4;
    const refused = await createWith({ token: headToken }, workbook, { title: 'Refused scores' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ [`${rowOf('S2-1')}.AOI 2`]: [MARK_MESSAGES.competencyAboveThree] });
    expect(await titled('Refused scores')).toEqual([]);

    sheet.getCell(rowOf('S2-1'), 3).value = 3;
    const elsewhere = await createWith({ token: headToken }, workbook, { title: 'Another class', form: 'S3' });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().message).toBe(MARK_MESSAGES.sheetWrongGrid);
    expect(await titled('Another class')).toEqual([]);

    // A teacher does not add competencies.
    expect((await createWith(teacher, workbook, { title: 'By a teacher' })).statusCode).toBe(403);
    expect(await titled('By a teacher')).toEqual([]);
  });
});
