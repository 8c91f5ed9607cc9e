import { MARK_MESSAGES, RESULT_MESSAGES, SETTINGS_MESSAGES, STUDENT_MESSAGES, TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { EXCEL_ATTACHMENT, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * Attendance and mark targets (issue 14 points 6 and 7) through the API on the real database:
 * a class's values loaded, saved (JSON and multipart), saved again unchanged, cleared; every
 * bad value named with nothing saved; the spreadsheet round trips read back with exceljs; the
 * targets list; who may; and another school sees none of it.
 */

let t: TestApp;
let head: Caller;
let bursar: Caller;
let teacher: Caller;
let other: Caller;
let headToken: string;
let school: { id: string; tenantcode: string };
let maths: Row;
let foreignSubject: Row;
type Learner = { id: string; studentid: string };
let p5: Learner[];
let p6: Learner[];
let foreign: Learner[];
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
  school = await makeTenant(t.database, { name: 'Records Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const bursarUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['bursar'] }] });
  const teacherUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  headToken = await login(t.app, headUser.email);
  head = caller(t.app, headToken, school.tenantcode);
  bursar = caller(t.app, await login(t.app, bursarUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  maths = await newSubject(head, { name: 'Mathematics' });
  foreignSubject = await newSubject(other, { name: 'Mathematics' });
  p5 = await learners(school.id, 'P5', 'East', ['Amina', 'Brian', 'Carol']);
  p6 = await learners(school.id, 'P6', 'East', ['Daniel']);
  foreign = await learners(elsewhere.id, 'P5', 'East', ['Esther']);
});
afterAll(() => t.close());

const term = (fields: Record<string, unknown> = {}) => ({ form: 'P5', stream: 'East', term: 'I', year: YEAR, ...fields });
const learner = (index: number) => p5[index] as Learner;

/** A form with a file, as the browser's filter sends it. */
async function multipart(path: string, fields: Record<string, unknown>, file?: Buffer) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined) form.set(key, String(value));
  if (file) form.set('file', new Blob([new Uint8Array(file)]), 'filled.xlsx');
  const request = new Request('http://mustard.test/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: {
      authorization: `Bearer ${headToken}`,
      [TENANT_HEADER]: school.tenantcode,
      'content-type': request.headers.get('content-type') as string,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

async function workbookOf(response: LightMyRequestResponse): Promise<ExcelJS.Workbook> {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  return workbook;
}
/** A sheet's cells as values, row by row from row 1. */
function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  for (let r = 1; r <= sheet.rowCount; r++) rows.push([1, 2, 3].map((c) => sheet.getRow(r).getCell(c).value));
  return rows;
}
/** The row of the learner with this student id. */
const rowOf = (sheet: ExcelJS.Worksheet, studentid: string) => {
  for (let r = 1; r <= sheet.rowCount; r++) if (sheet.getRow(r).getCell(1).value === studentid) return sheet.getRow(r);
  throw new Error(`no row for ${studentid}`);
};
const bytesOf = async (workbook: ExcelJS.Workbook) => Buffer.from(await workbook.xlsx.writeBuffer());

describe('attendance', () => {
  const attendance = (by: Caller, fields: Record<string, unknown> = {}) => by.post('/api/school/attendances', term(fields));

  it('lists the class’s active learners with no days and no total before anything is recorded', async () => {
    const rows = ok(await attendance(head));
    expect(rows.totaldays).toBeNull();
    expect(rows.students.map((row: { student: { studentid: string } }) => row.student.studentid)).toEqual(p5.map((l) => l.studentid));
    expect(rows.students.every((row: { daysattended: unknown }) => row.daysattended === null)).toBe(true);
  });

  it('saves days out of the total, says so, saves the same again as unchanged, and clears an emptied learner', async () => {
    const first = ok(
      await attendance(head, { totaldays: 60, daysattended: { [learner(0).id]: 58, [learner(1).id]: '41', [learner(2).id]: '' } }),
    );
    expect(first).toEqual({ message: RESULT_MESSAGES.created, saved: 2, unchanged: 1 });
    let rows = ok(await attendance(head));
    expect(rows.totaldays).toBe(60);
    expect(rows.students.map((row: { daysattended: number | null }) => row.daysattended)).toEqual([58, 41, null]);
    const again = ok(await attendance(head, { totaldays: 60, daysattended: { [learner(0).id]: 58, [learner(1).id]: 41 } }));
    expect(again).toEqual({ message: RESULT_MESSAGES.created, saved: 0, unchanged: 2 });
    const changed = ok(await attendance(head, { totaldays: 62, daysattended: { [learner(0).id]: 60, [learner(1).id]: null } }));
    expect(changed).toEqual({ message: RESULT_MESSAGES.updated, saved: 2, unchanged: 0 });
    rows = ok(await attendance(head));
    expect(rows.totaldays).toBe(62);
    expect(rows.students.map((row: { daysattended: number | null }) => row.daysattended)).toEqual([60, null, null]);
  });

  it('takes the days as a multipart form’s daysattended[<learner id>] fields', async () => {
    const response = await multipart('/api/school/attendances', {
      ...term(),
      totaldays: 62,
      [`daysattended[${learner(2).id}]`]: '50',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(ok(await attendance(head)).students[2].daysattended).toBe(50);
  });

  it('refuses days above the total, a missing total, a learner of another class, and saves none of the request', async () => {
    const before = ok(await attendance(head));
    const tooMany = await attendance(head, { totaldays: 62, daysattended: { [learner(0).id]: 30, [learner(1).id]: 63 } });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors).toEqual({ [`daysattended.${learner(1).id}`]: [MARK_MESSAGES.daysAboveTotal] });
    const noTotal = await attendance(head, { daysattended: { [learner(0).id]: 30 } });
    expect(noTotal.json().errors).toEqual({ totaldays: [MARK_MESSAGES.totalDaysInvalid] });
    const halfDay = await attendance(head, { totaldays: 62, daysattended: { [learner(0).id]: 30.5 } });
    expect(halfDay.json().errors).toEqual({ [`daysattended.${learner(0).id}`]: [MARK_MESSAGES.daysInvalid] });
    const elsewhere = await attendance(head, { totaldays: 62, daysattended: { [p6[0]!.id]: 30, [foreign[0]!.id]: 30 } });
    expect(elsewhere.json().errors).toEqual({
      [`daysattended.${p6[0]!.id}`]: [MARK_MESSAGES.learnerNotInClass],
      [`daysattended.${foreign[0]!.id}`]: [MARK_MESSAGES.learnerNotInClass],
    });
    // A smaller total than days already recorded for a learner the request leaves out.
    const shrunk = await attendance(head, { totaldays: 40, daysattended: { [learner(2).id]: 30 } });
    expect(shrunk.json().errors).toEqual({ [`daysattended.${learner(0).id}`]: [MARK_MESSAGES.daysAboveTotal] });
    expect(ok(await attendance(head))).toEqual(before);
  });

  it('refuses bad bodies with a 4xx naming the field, never a 500', async () => {
    const bad: Array<Record<string, unknown>> = [
      { daysattended: { [learner(0).id]: { days: 3 } }, totaldays: 60 },
      { daysattended: { 'not-an-id': 3 }, totaldays: 60 },
      { daysattended: { [learner(0).id]: 'x'.repeat(10_000) }, totaldays: 60 },
      { daysattended: { [learner(0).id]: '3\u0000' }, totaldays: 60 },
      { totaldays: 'sixty', daysattended: {} },
      { form: '' },
      { term: 'IV' },
      { year: 'last' },
    ];
    for (const body of bad) {
      const response = await attendance(head, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
    }
    // The same save twice at once: both answer, the days are saved once.
    const send = () => attendance(head, { totaldays: 62, daysattended: { [learner(2).id]: 51 } });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().saved + b.json().saved).toBe(1);
  });

  it('is for those who manage remarks; another school sees none of it', async () => {
    expect((await attendance(bursar)).statusCode).toBe(403);
    const theirs = ok(await attendance(other));
    expect(theirs.students.map((row: { student: { id: string } }) => row.student.id)).toEqual([foreign[0]!.id]);
    expect(theirs.students[0].daysattended).toBeNull();
    const into = await attendance(other, { totaldays: 60, daysattended: { [learner(0).id]: 1 } });
    expect(into.json().errors).toEqual({ [`daysattended.${learner(0).id}`]: [MARK_MESSAGES.learnerNotInClass] });
  });

  it('downloads the class as a sheet, and saves it filled: the same file twice changes nothing', async () => {
    const download = await attendance(head, { excel: '1' });
    expect(download.headers['content-disposition']).toContain(`Attendance-P5-East-TermI-${YEAR}.xlsx`);
    const workbook = await workbookOf(download);
    const sheet = workbook.getWorksheet('Attendance') as ExcelJS.Worksheet;
    expect(rowsOf(sheet).slice(0, 7)).toEqual([
      ['Class', 'P5', null],
      ['Stream', 'East', null],
      ['Term', 'I', null],
      ['Year', YEAR, null],
      ['Total days', 62, null],
      [null, null, null],
      ['Student ID', 'Name', 'Days attended'],
    ]);
    expect(rowsOf(sheet).slice(7)).toEqual([
      ['P5-East-1', 'Amina Okello', 60],
      ['P5-East-2', 'Brian Okello', null],
      ['P5-East-3', 'Carol Okello', 51],
    ]);
    sheet.getCell('B5').value = 64;
    rowOf(sheet, 'P5-East-2').getCell(3).value = 64;
    // Blank leaves Carol's 51.
    rowOf(sheet, 'P5-East-3').getCell(3).value = null;
    const file = await bytesOf(workbook);
    const saved = await multipart('/api/school/attendances', term(), file);
    expect(saved.json()).toEqual({ message: RESULT_MESSAGES.created, saved: 1, unchanged: 1 });
    const rows = ok(await attendance(head));
    expect(rows.totaldays).toBe(64);
    expect(rows.students.map((row: { daysattended: number | null }) => row.daysattended)).toEqual([60, 64, 51]);
    expect((await multipart('/api/school/attendances', term(), file)).json()).toMatchObject({ saved: 0, unchanged: 2 });
  });

  it('refuses a sheet with a bad row, naming the row, and saves none of it; a sheet of another class or without a total', async () => {
    const before = ok(await attendance(head));
    const workbook = await workbookOf(await attendance(head, { excel: '1' }));
    const sheet = workbook.getWorksheet('Attendance') as ExcelJS.Worksheet;
    rowOf(sheet, 'P5-East-1').getCell(3).value = 10;
    rowOf(sheet, 'P5-East-2').getCell(3).value = 'most';
    sheet.addRow(['P6-East-1', 'Daniel Okello', 20]);
    sheet.addRow(['NOBODY-1', 'Nobody', 20]);
    const refused = await multipart('/api/school/attendances', term(), await bytesOf(workbook));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(STUDENT_MESSAGES.rowsInvalid);
    expect(refused.json().errors).toEqual({
      '9.Days attended': [MARK_MESSAGES.daysInvalid],
      '11.studentid': [MARK_MESSAGES.learnerNotInClass],
      '12.studentid': [MARK_MESSAGES.learnerUnknown],
    });
    expect(ok(await attendance(head))).toEqual(before);

    const wrongClass = await multipart('/api/school/attendances', term({ form: 'P6' }), await bytesOf(workbook));
    expect(wrongClass.json().errors).toEqual({ file: [MARK_MESSAGES.sheetWrongGrid] });
    const fresh = await workbookOf(await attendance(head, { excel: '1' }));
    (fresh.getWorksheet('Attendance') as ExcelJS.Worksheet).getCell('B5').value = null;
    const noTotal = await multipart('/api/school/attendances', term(), await bytesOf(fresh));
    expect(noTotal.json().errors).toEqual({ file: [MARK_MESSAGES.totalDaysInvalid] });
    const notASheet = await multipart('/api/school/attendances', term(), Buffer.from('not a workbook'));
    expect(notASheet.statusCode).toBe(422);
  });
});

describe('mark targets', () => {
  const targets = (by: Caller, fields: Record<string, unknown> = {}) =>
    by.post('/api/school/marktargets', term({ subject_id: maths.id, ...fields }));

  it('lists the class with no targets, saves them, lists them, and saves the same again as unchanged', async () => {
    const empty = ok(await targets(head));
    expect(empty).toEqual(
      p5.map((l, index) => ({
        student: { id: l.id, studentid: l.studentid, fullname: `${['Amina', 'Brian', 'Carol'][index]} Okello` },
        targets: null,
      })),
    );
    const saved = ok(await targets(head, { target: { [learner(0).id]: 75, [learner(1).id]: '62.5' } }));
    expect(saved).toEqual({ message: RESULT_MESSAGES.created, saved: 2, unchanged: 0 });
    const rows = ok(await targets(head));
    expect(rows.map((row: { targets: { target: number } | null }) => row.targets?.target ?? null)).toEqual([75, 62.5, null]);
    expect(ok(await targets(head, { target: { [learner(0).id]: 75 } }))).toMatchObject({ saved: 0, unchanged: 1 });
    expect(ok(await targets(head, { target: { [learner(1).id]: '' } }))).toMatchObject({ saved: 1 });
    expect(ok(await targets(head))[1].targets).toBeNull();
  });

  it('refuses a target above 100, a learner of another class, another school’s subject; saves none of it', async () => {
    const before = ok(await targets(head));
    const bad = await targets(head, { target: { [learner(0).id]: 50, [learner(2).id]: 101, [p6[0]!.id]: 40 } });
    expect(bad.json().errors).toEqual({
      [`target.${learner(2).id}`]: [MARK_MESSAGES.targetInvalid],
      [`target.${p6[0]!.id}`]: [MARK_MESSAGES.learnerNotInClass],
    });
    const theirSubject = await targets(head, { subject_id: foreignSubject.id, target: { [learner(0).id]: 50 } });
    expect(theirSubject.json().errors).toEqual({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
    expect((await targets(head, { subject_id: '' })).statusCode).toBe(422);
    expect(ok(await targets(head))).toEqual(before);
  });

  it('lists the school’s targets with filters and as a spreadsheet; for those who manage marks only; invisible to another school', async () => {
    const list = ok(await head.get(`/api/school/marktargets?form=P5&term=I&year=${YEAR}&subject_id=${maths.id}`));
    expect(list.totalRecords).toBe(1);
    expect(list.marktargets[0]).toMatchObject({
      student: { studentid: 'P5-East-1', fullname: 'Amina Okello' },
      form: 'P5',
      stream: 'East',
      term: 'I',
      year: YEAR,
      subject: 'Mathematics',
      target: 75,
    });
    expect(ok(await head.get('/api/school/marktargets?form=P6')).totalRecords).toBe(0);
    const excel = await head.get('/api/school/marktargets?excel=1');
    expect(excel.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    const sheet = (await workbookOf(excel)).worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Student ID', 'Student', 'Class', 'Stream', 'Term', 'Year', 'Subject', 'Target']);
    expect(sheet.getRow(2).values).toEqual([undefined, 'P5-East-1', 'Amina Okello', 'P5', 'East', 'I', YEAR, 'Mathematics', 75]);
    expect((await teacher.get('/api/school/marktargets')).statusCode).toBe(403);
    expect((await targets(teacher)).statusCode).toBe(403);
    expect(ok(await other.get('/api/school/marktargets')).totalRecords).toBe(0);
    const into = await other.post('/api/school/marktargets', term({ subject_id: foreignSubject.id, target: { [learner(0).id]: 1 } }));
    expect(into.json().errors).toEqual({ [`target.${learner(0).id}`]: [MARK_MESSAGES.learnerNotInClass] });
  });

  it('downloads Mark_Targets-<timestamp>.xlsx, and saves it filled: the same file twice changes nothing; a bad row saves nothing', async () => {
    const download = await targets(head, { excel: '1' });
    expect(download.headers['content-disposition']).toMatch(/Mark_Targets-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.xlsx/);
    const workbook = await workbookOf(download);
    const sheet = workbook.getWorksheet('Targets') as ExcelJS.Worksheet;
    expect(rowsOf(sheet).slice(0, 8)).toEqual([
      ['Class', 'P5', null],
      ['Stream', 'East', null],
      ['Subject', 'Mathematics', null],
      ['Term', 'I', null],
      ['Year', YEAR, null],
      ['Subject ID', maths.id, null],
      [null, null, null],
      ['Student ID', 'Name', 'Target'],
    ]);
    expect(sheet.getRow(6).hidden).toBe(true);
    rowOf(sheet, 'P5-East-2').getCell(3).value = 80;
    rowOf(sheet, 'P5-East-3').getCell(3).value = '70,5';
    const file = await bytesOf(workbook);
    const saved = await multipart('/api/school/marktargets', term({ subject_id: maths.id }), file);
    expect(saved.json()).toEqual({ message: RESULT_MESSAGES.created, saved: 2, unchanged: 1 });
    expect(ok(await targets(head)).map((row: { targets: { target: number } | null }) => row.targets?.target)).toEqual([75, 80, 70.5]);
    expect((await multipart('/api/school/marktargets', term({ subject_id: maths.id }), file)).json()).toMatchObject({ saved: 0 });

    rowOf(sheet, 'P5-East-1').getCell(3).value = 30;
    rowOf(sheet, 'P5-East-2').getCell(3).value = 120;
    const refused = await multipart('/api/school/marktargets', term({ subject_id: maths.id }), await bytesOf(workbook));
    expect(refused.json().errors).toEqual({ '10.Target': [MARK_MESSAGES.targetInvalid] });
    expect(ok(await targets(head))[0].targets.target).toBe(75);
    const otherSubject = await newSubject(head, { name: 'English' });
    const wrong = await multipart('/api/school/marktargets', term({ subject_id: otherSubject.id }), file);
    expect(wrong.json().errors).toEqual({ file: [MARK_MESSAGES.sheetWrongGrid] });
  });
});

describe('a save holds learners of its class and stream only (issue 23 items 15 and 7)', () => {
  let west: Learner;
  const attendance = (fields: Record<string, unknown>) => head.post('/api/school/attendances', term(fields));
  const targets = (fields: Record<string, unknown>) => head.post('/api/school/marktargets', term({ subject_id: maths.id, ...fields }));

  beforeAll(async () => {
    [west] = (await learners(school.id, 'P5', 'West', ['Wilson'])) as [Learner];
  });

  it('attendance of P5 East refuses a learner of P5 West by name of the cell, saving none of the request', async () => {
    const before = ok(await attendance({}));
    const refused = await attendance({ totaldays: before.totaldays, daysattended: { [learner(0).id]: 20, [west.id]: 20 } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ [`daysattended.${west.id}`]: [MARK_MESSAGES.learnerNotInClass] });
    expect(ok(await attendance({}))).toEqual(before);
    // The whole class (no stream) holds both streams.
    expect(ok(await attendance({ stream: '', totaldays: before.totaldays, daysattended: { [west.id]: 20 } }))).toMatchObject({ saved: 1 });
  });

  it('targets of P5 East refuse a learner of P5 West by name of the cell, saving none of the request', async () => {
    const before = ok(await targets({}));
    const refused = await targets({ target: { [learner(0).id]: 55, [west.id]: 60 } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ [`target.${west.id}`]: [MARK_MESSAGES.learnerNotInClass] });
    expect(ok(await targets({}))).toEqual(before);
  });

  it('a learner id in capitals is the learner: saved as his, and the same learner twice is refused', async () => {
    const saved = ok(await targets({ target: { [learner(2).id.toUpperCase()]: 66 } }));
    expect(saved).toMatchObject({ saved: 1 });
    expect(ok(await targets({}))[2].targets).toEqual({ target: 66 });
    const twice = await targets({ target: { [learner(2).id]: 67, [learner(2).id.toUpperCase()]: 68 } });
    expect(twice.statusCode).toBe(422);
    expect(ok(await targets({}))[2].targets).toEqual({ target: 66 });
  });
});
