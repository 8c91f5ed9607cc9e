import {
  IN_USE_MESSAGES,
  MARK_MESSAGES,
  PROJECT_SCORE_MESSAGES,
  projects,
  STUDENT_MESSAGES,
  subjectTeachers,
  TENANT_HEADER,
} from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { XLSX } from '../../plugins/endpoints.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * Project scores (issue 26 point 5) through the API: the grid's load and save, scores refused
 * per cell (above the maximum, two decimals, below 0, words, ABS), a learner outside the class,
 * the same save_id twice (also at once), conflicts, the sheet both ways (all or nothing), the
 * list, another school's project, a teacher's assignments, and a project with scores kept.
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let stranger: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let elsewhere: { id: string; tenantcode: string };
let maths: Row;
let project: Row;
let foreignProject: Row;
type Learner = { id: string; studentid: string };
let s3: Learner[];
let s4: Learner[];
const YEAR = new Date().getFullYear();

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
  school = await makeTenant(t.database, { name: 'Projects SS', schooltype: 'secondary' });
  elsewhere = await makeTenant(t.database, { name: 'Other SS', schooltype: 'secondary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { name: 'Grace Auma', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const strangerUser = await makeUser(t.database, { name: 'Henry Other', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  stranger = caller(t.app, await login(t.app, strangerUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  maths = await newSubject(head, { name: 'Mathematics' });
  const foreignMaths = await newSubject(other, { name: 'Mathematics' });
  s3 = [...(await learners(school.id, 'S3', 'East', ['Amina', 'Brian'])), ...(await learners(school.id, 'S3', 'West', ['Carol']))];
  s4 = await learners(school.id, 'S4', 'East', ['Daniel']);
  const fields = { form: 'S3', subject_id: maths.id, term: 'I', year: YEAR, title: 'Designing a school garden', max_score: 10 };
  project = ok(await head.post(projects.path, fields));
  foreignProject = ok(await other.post(projects.path, { ...fields, subject_id: foreignMaths.id }));
  // Grace teaches Mathematics in S3 East in Term I; Henry teaches nothing.
  ok(
    await head.post(subjectTeachers.path, {
      user_id: teacherUser.id,
      subject_id: maths.id,
      form: 'S3',
      stream: 'East',
      term: 'I',
      year: YEAR,
    }),
  );
});
afterAll(() => t.close());

const GRID = '/api/school/projectscores/grid';
const SAVE = '/api/school/projectscores';
const grid = (by: Caller, fields: Record<string, unknown> = {}) => by.post(GRID, { project_id: project.id, ...fields });
const save = (by: Caller, scores: Record<string, unknown>, base: Record<string, number> = {}, fields: Record<string, unknown> = {}) =>
  by.post(SAVE, { project_id: project.id, save_id: crypto.randomUUID(), scores, base, ...fields });
/** Each learner's stored score and comment by student id, from the grid. */
async function scoresOf(by: Caller = head, fields: Record<string, unknown> = {}) {
  const answer = ok(await grid(by, fields));
  return Object.fromEntries(
    answer.students.map((row: { student: Learner; scores: unknown }) => [row.student.studentid, row.scores]),
  ) as Record<string, { score: number | null; comment: string | null; version: number } | null>;
}
/** Stored project scores of the school: what a refused save must leave as it was. */
const storedCount = () =>
  withTenant(t.database.db, { tenantId: school.id }, async (trx) =>
    Number(
      (
        await trx
          .selectFrom('project_scores')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );

async function upload(by: Caller, tenantcode: string, file: Buffer, fields: Record<string, unknown> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ project_id: project.id, ...fields }))
    if (value !== null && value !== undefined) form.set(key, String(value));
  form.set('file', new Blob([new Uint8Array(file)]), 'scores.xlsx');
  const request = new Request('http://mustard.test/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: GRID,
    headers: {
      authorization: `Bearer ${by.token}`,
      [TENANT_HEADER]: tenantcode,
      'content-type': request.headers.get('content-type') as string,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}
async function workbookOf(response: LightMyRequestResponse): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  return workbook;
}
const bytesOf = async (workbook: ExcelJS.Workbook) => Buffer.from(await workbook.xlsx.writeBuffer());
function rowOf(sheet: ExcelJS.Worksheet, text: string): number {
  for (let row = 1; row <= sheet.rowCount; row++) if (sheet.getCell(row, 1).value === text) return row;
  throw new Error(`no row ${text}`);
}

describe('the project scores grid', () => {
  it('lists the project’s class by name with the project, and saves scores with comments that a reload shows', async () => {
    const [amina, brian, carol] = s3 as [Learner, Learner, Learner];
    const loaded = ok(await grid(head));
    expect(loaded.project).toEqual({
      id: project.id,
      title: 'Designing a school garden',
      form: 'S3',
      term: 'I',
      year: YEAR,
      subject_id: maths.id,
      subject: { name: 'Mathematics' },
      max_score: 10,
    });
    expect(loaded.students).toEqual([
      { student: { id: amina.id, studentid: 'S3-East-1', fullname: 'Amina Okello' }, scores: null },
      { student: { id: brian.id, studentid: 'S3-East-2', fullname: 'Brian Okello' }, scores: null },
      { student: { id: carol.id, studentid: 'S3-West-1', fullname: 'Carol Okello' }, scores: null },
    ]);

    const first = ok(
      await save(head, {
        [amina.id]: { score: 8.5, comment: 'A neat plan, well measured' },
        [brian.id]: { score: '10', comment: '' },
        [carol.id]: { score: null, comment: 'Did not hand in the model' },
      }),
    );
    expect(first).toEqual({
      saved: 3,
      unchanged: 0,
      message: 'Successfully created',
      scores: {
        [amina.id]: { score: 8.5, comment: 'A neat plan, well measured', version: 1 },
        [brian.id]: { score: 10, comment: null, version: 1 },
        [carol.id]: { score: null, comment: 'Did not hand in the model', version: 1 },
      },
    });
    expect(await scoresOf()).toEqual({
      'S3-East-1': { score: 8.5, comment: 'A neat plan, well measured', version: 1 },
      'S3-East-2': { score: 10, comment: null, version: 1 },
      'S3-West-1': { score: null, comment: 'Did not hand in the model', version: 1 },
    });
    // A stream: its learners only.
    expect(Object.keys(await scoresOf(head, { stream: 'West' }))).toEqual(['S3-West-1']);

    // The list (spec §7): each with its learner, score and comment.
    const list = ok(await head.get(`${SAVE}?project_id=${project.id}`));
    expect(list.projectscores).toEqual([
      {
        id: expect.any(String),
        project_id: project.id,
        student: { id: amina.id, studentid: 'S3-East-1', fullname: 'Amina Okello' },
        score: 8.5,
        comment: 'A neat plan, well measured',
      },
      {
        id: expect.any(String),
        project_id: project.id,
        student: { id: brian.id, studentid: 'S3-East-2', fullname: 'Brian Okello' },
        score: 10,
        comment: null,
      },
      {
        id: expect.any(String),
        project_id: project.id,
        student: { id: carol.id, studentid: 'S3-West-1', fullname: 'Carol Okello' },
        score: null,
        comment: 'Did not hand in the model',
      },
    ]);
    expect(ok(await head.get(`${SAVE}?project_id=${project.id}&stream=West`)).projectscores).toHaveLength(1);

    // Changed, unchanged, and cleared (both empty: the row goes, version 0).
    const second = ok(
      await save(
        head,
        {
          [amina.id]: { score: 9, comment: 'A neat plan, well measured' },
          [brian.id]: { score: 10, comment: null },
          [carol.id]: { score: '', comment: null },
        },
        { [amina.id]: 1, [brian.id]: 1, [carol.id]: 1 },
      ),
    );
    expect(second).toMatchObject({ saved: 2, unchanged: 1, message: 'Successfully updated' });
    expect(second.scores[carol.id]).toEqual({ score: null, comment: null, version: 0 });
    expect((await scoresOf())['S3-West-1']).toBeNull();
    expect((await scoresOf())['S3-East-1']).toEqual({ score: 9, comment: 'A neat plan, well measured', version: 2 });
  });

  it('refuses a score above the maximum, with two decimals, below 0, in words or ABS, and an over-long comment: 422 naming each cell, nothing saved', async () => {
    const [amina, brian, carol] = s3 as [Learner, Learner, Learner];
    const before = await storedCount();
    const cases: Array<[unknown, string]> = [
      [11, PROJECT_SCORE_MESSAGES.aboveMaximum],
      [2.55, PROJECT_SCORE_MESSAGES.oneDecimal],
      [-1, PROJECT_SCORE_MESSAGES.belowZero],
      ['three', PROJECT_SCORE_MESSAGES.notAScore],
      ['ABS', PROJECT_SCORE_MESSAGES.absentNotScore],
      [true, PROJECT_SCORE_MESSAGES.notAScore],
    ];
    for (const [score, message] of cases) {
      const response = await save(head, { [amina.id]: { score, comment: 'fine' }, [brian.id]: { score: 5 } });
      expect(response.statusCode, String(score)).toBe(422);
      expect(response.json().errors).toEqual({ [`scores.${amina.id}.score`]: [message] });
    }
    const long = await save(head, { [carol.id]: { score: 5, comment: 'x'.repeat(1001) } });
    expect(long.json().errors).toEqual({ [`scores.${carol.id}.comment`]: [PROJECT_SCORE_MESSAGES.commentTooLong] });
    expect(await storedCount()).toBe(before);
    // 1,000 characters and a comma decimal are fine.
    ok(await save(head, { [carol.id]: { score: '7,5', comment: 'y'.repeat(1000) } }));
    expect((await scoresOf())['S3-West-1']).toMatchObject({ score: 7.5 });
  });

  it('refuses a learner outside the project’s class, and an unknown or foreign project: 422, nothing saved', async () => {
    const [amina] = s3 as [Learner];
    const [daniel] = s4 as [Learner];
    const before = await storedCount();
    const outside = await save(head, { [amina.id]: { score: 4 }, [daniel.id]: { score: 4 } });
    expect(outside.statusCode).toBe(422);
    expect(outside.json().errors).toEqual({ [`scores.${daniel.id}`]: [MARK_MESSAGES.learnerNotInClass] });
    // A learner of another stream than the one saved.
    const carol = s3[2] as Learner;
    expect((await save(head, { [carol.id]: { score: 4 } }, {}, { stream: 'East' })).json().errors).toEqual({
      [`scores.${carol.id}`]: [MARK_MESSAGES.learnerNotInClass],
    });
    const unknown = { project_id: [PROJECT_SCORE_MESSAGES.projectUnknown] };
    for (const id of [foreignProject.id, crypto.randomUUID()]) {
      const saved = await save(head, { [amina.id]: { score: 4 } }, {}, { project_id: id });
      expect(saved.statusCode).toBe(422);
      expect(saved.json().errors).toEqual(unknown);
      expect((await grid(head, { project_id: id })).json()).toMatchObject({ statusCode: 422, errors: unknown });
      expect((await head.get(`${SAVE}?project_id=${id}`)).statusCode).toBe(422);
    }
    // Bad shapes are 4xx, never 500.
    for (const body of [
      { project_id: 'nope', save_id: crypto.randomUUID(), scores: {} },
      { project_id: project.id, save_id: crypto.randomUUID(), scores: { nope: { score: 1 } } },
      { project_id: project.id, save_id: crypto.randomUUID(), scores: { [amina.id]: { score: 1, extra: 2 } } },
      { project_id: project.id, save_id: crypto.randomUUID(), scores: { [amina.id]: { score: 1, comment: { a: 1 } } } },
      { project_id: project.id, scores: {} },
    ])
      expect((await head.post(SAVE, body)).statusCode, JSON.stringify(body)).toBe(422);
    expect(await storedCount()).toBe(before);
    // The other school sees its own project's grid, not ours.
    expect(ok(await other.post(GRID, { project_id: foreignProject.id })).students).toEqual([]);
  });

  it('answers the same save_id twice (one after the other, and at once) as the first, writing once', async () => {
    const [amina, brian] = s3 as [Learner, Learner];
    const current = await scoresOf();
    const body = {
      project_id: project.id,
      save_id: crypto.randomUUID(),
      scores: { [amina.id]: { score: 3, comment: 'Retried' } },
      base: { [amina.id]: current['S3-East-1']?.version ?? 0 },
    };
    const first = ok(await head.post(SAVE, body));
    const again = ok(await head.post(SAVE, body));
    expect(again).toEqual(first);
    expect((await scoresOf())['S3-East-1']).toEqual({ score: 3, comment: 'Retried', version: (current['S3-East-1']?.version ?? 0) + 1 });

    const version = (await scoresOf())['S3-East-2']?.version ?? 0;
    const once = {
      project_id: project.id,
      save_id: crypto.randomUUID(),
      scores: { [brian.id]: { score: 6.5, comment: 'At once' } },
      base: { [brian.id]: version },
    };
    const answers = await Promise.all([head.post(SAVE, once), head.post(SAVE, once), head.post(SAVE, once)]);
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    expect(answers.map((answer) => answer.json().scores[brian.id])).toEqual(
      Array(3).fill({ score: 6.5, comment: 'At once', version: version + 1 }),
    );
    // Another member cannot replay someone's key.
    expect((await teacher.post(SAVE, { ...once, stream: 'East' })).statusCode).toBe(422);
  });

  it('refuses to overwrite a score someone changed since the grid was loaded: 409 naming the learner, theirs and yours, nothing saved', async () => {
    const [amina, brian] = s3 as [Learner, Learner];
    const loaded = await scoresOf();
    const aminaBase = loaded['S3-East-1']?.version ?? 0;
    const brianBase = loaded['S3-East-2']?.version ?? 0;
    ok(await save(head, { [brian.id]: { score: 2, comment: 'Changed by the head' } }, { [brian.id]: brianBase }));
    const late = await save(
      teacher,
      { [amina.id]: { score: 1, comment: null }, [brian.id]: { score: 4, comment: 'Mine' } },
      { [amina.id]: aminaBase, [brian.id]: brianBase },
      { stream: 'East' },
    );
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      message: PROJECT_SCORE_MESSAGES.conflict,
      conflicts: [
        {
          student_id: brian.id,
          theirs: { score: 2, comment: 'Changed by the head' },
          version: brianBase + 1,
          yours: { score: 4, comment: 'Mine' },
          by: 'Head Teacher',
        },
      ],
    });
    // Nothing of that save: Amina keeps hers.
    expect((await scoresOf())['S3-East-1']).toEqual(loaded['S3-East-1']);
    // Sent again over their version, it saves.
    ok(await save(teacher, { [brian.id]: { score: 4, comment: 'Mine' } }, { [brian.id]: brianBase + 1 }, { stream: 'East' }));
  });

  it('lets a teacher enter scores where assigned (S3 East Mathematics), not elsewhere: 403 saying why', async () => {
    const [amina, , carol] = s3 as [Learner, Learner, Learner];
    expect(Object.keys(await scoresOf(teacher))).toEqual(['S3-East-1', 'S3-East-2']);
    expect((await grid(teacher, { stream: 'West' })).statusCode).toBe(403);
    const west = await save(teacher, { [carol.id]: { score: 5 } }, {}, { stream: 'West' });
    expect(west.statusCode).toBe(403);
    expect(west.json().message).toBe(MARK_MESSAGES.notAssigned);
    // A learner of another stream through her own stream is no learner of the grid.
    expect((await save(teacher, { [carol.id]: { score: 5 } })).statusCode).toBe(422);
    for (const response of [await grid(stranger), await save(stranger, { [amina.id]: { score: 5 } })]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(MARK_MESSAGES.notAssigned);
    }
  });
});

describe('the project scores sheet', () => {
  it('downloads the grid as .xlsx and reads a filled one back: all or nothing, errors by row', async () => {
    const response = await grid(head, { excel: '1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="ProjectScores-S3-All-Mathematics-TermI-${YEAR}.xlsx"`);
    const workbook = await workbookOf(response);
    const sheet = workbook.getWorksheet('Project scores') as ExcelJS.Worksheet;
    const header = rowOf(sheet, 'Student ID');
    expect([1, 2, 3, 4].map((column) => sheet.getCell(header, column).value)).toEqual(['Student ID', 'Name', 'Score', 'Comment']);
    expect(sheet.getCell(rowOf(sheet, 'Project ID'), 2).value).toBe(project.id);
    expect(sheet.getRow(rowOf(sheet, 'Project ID')).hidden).toBe(true);
    const stored = await scoresOf();
    expect(sheet.getCell(header + 1, 1).value).toBe('S3-East-1');
    expect(sheet.getCell(header + 1, 3).value).toBe(stored['S3-East-1']?.score ?? null);

    // A bad row among good ones: nothing saved, each problem by its row.
    const before = await scoresOf();
    sheet.getCell(header + 1, 3).value = 9.5;
    sheet.getCell(header + 1, 4).value = 'Good drawings';
    sheet.getCell(header + 2, 3).value = 12;
    sheet.getCell(header + 3, 3).value = 'seven';
    const refused = await upload(head, school.tenantcode, await bytesOf(workbook));
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: STUDENT_MESSAGES.rowsInvalid,
      errors: {
        [`${header + 2}.Score`]: [PROJECT_SCORE_MESSAGES.aboveMaximum],
        [`${header + 3}.Score`]: [PROJECT_SCORE_MESSAGES.notAScore],
      },
    });
    expect(await scoresOf()).toEqual(before);

    // Fixed: saved; an empty cell keeps what is stored; the same file again changes nothing.
    sheet.getCell(header + 2, 3).value = null;
    sheet.getCell(header + 2, 4).value = null;
    sheet.getCell(header + 3, 3).value = 7;
    const file = await bytesOf(workbook);
    expect(ok(await upload(head, school.tenantcode, file))).toMatchObject({ saved: 2 });
    const after = await scoresOf();
    expect(after['S3-East-1']).toMatchObject({ score: 9.5, comment: 'Good drawings' });
    expect(after['S3-East-2']).toEqual(before['S3-East-2']);
    expect(after['S3-West-1']).toMatchObject({ score: 7 });
    expect(ok(await upload(head, school.tenantcode, file))).toMatchObject({ saved: 0 });

    // A learner of another class, a stream's sheet sent as the class's, another school: refused.
    sheet.getCell(header + 1, 1).value = 'S4-East-1';
    expect((await upload(head, school.tenantcode, await bytesOf(workbook))).json().errors).toEqual({
      [`${header + 1}.studentid`]: [MARK_MESSAGES.learnerNotInClass],
    });
    expect((await upload(head, school.tenantcode, file, { stream: 'East' })).json()).toMatchObject({
      message: MARK_MESSAGES.sheetWrongGrid,
    });
    expect((await upload(other, elsewhere.tenantcode, file)).json()).toMatchObject({
      statusCode: 422,
      errors: { project_id: [PROJECT_SCORE_MESSAGES.projectUnknown] },
    });
    expect((await upload(other, elsewhere.tenantcode, file, { project_id: foreignProject.id })).statusCode).toBe(422);
    expect((await upload(stranger, school.tenantcode, file)).statusCode).toBe(403);
    expect(await scoresOf()).toEqual(after);
  });
});

describe('a project with scores', () => {
  it('is refused deletion with 409 naming why, and kept; without scores it goes', async () => {
    const response = await head.delete(`${projects.path}/${project.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(IN_USE_MESSAGES.projects);
    expect(ok(await head.get(`${projects.path}/${project.id}`)).id).toBe(project.id);
    const empty = ok(await head.post(projects.path, { form: 'S4', subject_id: maths.id, term: 'I', year: YEAR, title: 'Unscored' }));
    ok(await head.delete(`${projects.path}/${empty.id}`));
  });

  it('keeps its maximum at or above its highest score: 422 naming max_score, nothing changed', async () => {
    const stored = Object.values(await scoresOf()).flatMap((cell) => (cell && typeof cell.score === 'number' ? [cell.score] : []));
    const highest = Math.max(...stored);
    expect(highest).toBeGreaterThan(1);
    const { id: _id, subject: _subject, ...fields } = ok(await head.get(`${projects.path}/${project.id}`));
    const lowered = await head.put(`${projects.path}/${project.id}`, { ...fields, max_score: Math.ceil(highest) - 1 });
    expect(lowered.statusCode).toBe(422);
    expect(lowered.json().errors).toEqual({ max_score: [PROJECT_SCORE_MESSAGES.maximumBelowScores] });
    expect(ok(await head.get(`${projects.path}/${project.id}`)).max_score).toBe(fields.max_score);
    // At the highest score itself, or above, it changes.
    expect(ok(await head.put(`${projects.path}/${project.id}`, { ...fields, max_score: Math.ceil(highest) })).max_score).toBe(
      Math.ceil(highest),
    );
    ok(await head.put(`${projects.path}/${project.id}`, fields));
  });
});
