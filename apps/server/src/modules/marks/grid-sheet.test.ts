import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MARK_MESSAGES,
  markTypes,
  publishMarks,
  SETTINGS_MESSAGES,
  STUDENT_MESSAGES,
  subjectTeachers,
  TENANT_HEADER,
} from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { XLSX } from '../../plugins/endpoints.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, caller, login, type TestApp } from '../../test/test-app.js';
import { newSubject, ok, type Row } from '../settings/settings-fixtures.js';
import { gridFileName, readGridSheet, type SheetAbout } from './grid-sheet.js';

/*
 * The grid's spreadsheet round trip (issue 14 point 3) through the API on the real database:
 * the grid downloaded as .xlsx and read back with exceljs, filled and uploaded, the same file
 * twice, every bad row named with nothing saved, a sheet of another grid, a file saved by
 * LibreOffice, assignments, published marks and another school's ids.
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const YEAR = new Date().getFullYear();

let t: TestApp;
interface Member {
  token: string;
  tenantcode: string;
}
let head: Member;
let teacher: Member;
let other: Member;
let school: { id: string; tenantcode: string };
let maths: Row;
let english: Row;
let bot: Row;
let mot: Row;

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
  return rows.map((row) => row.id);
}

async function member(email: string, tenantcode: string): Promise<Member> {
  return { token: await login(t.app, email), tenantcode };
}
const json = (who: Member) => caller(t.app, who.token, who.tenantcode);

const place = (fields: Record<string, unknown> = {}) => ({
  form: 'P5',
  stream: 'East',
  term: 'I',
  year: YEAR,
  subject_id: maths.id,
  paper: 'I',
  marktypes: [bot.id, mot.id],
  ...fields,
});

/** The grid as a spreadsheet (excel=1), as the filter's "download excel" asks for it. */
const download = (who: Member, fields: Record<string, unknown> = {}) =>
  json(who).post('/api/school/marks/grid', { ...place(), excel: '1', ...fields });

/** A filled sheet sent back as the browser's form does: the grid's fields, marktypes[] repeated, and the file. */
async function upload(who: Member, file: Buffer, fields: Record<string, unknown> = {}, name = 'marks.xlsx') {
  const form = new FormData();
  for (const [key, value] of Object.entries(place(fields))) {
    if (Array.isArray(value)) for (const item of value) form.append(`${key}[]`, String(item));
    else if (value !== null && value !== undefined) form.set(key, String(value));
  }
  form.set('file', new Blob([new Uint8Array(file)]), name);
  const request = new Request('http://mustard.test/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: '/api/school/marks/grid',
    headers: {
      authorization: `Bearer ${who.token}`,
      [TENANT_HEADER]: who.tenantcode,
      'content-type': request.headers.get('content-type') as string,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

async function workbookOf(response: LightMyRequestResponse | Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const bytes = Buffer.isBuffer(response) ? response : response.rawPayload;
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}
const marksSheet = (workbook: ExcelJS.Workbook) => workbook.getWorksheet('Marks') as ExcelJS.Worksheet;
const bytesOf = async (workbook: ExcelJS.Workbook) => Buffer.from(await workbook.xlsx.writeBuffer());
/** A row's cells from column A, `width` of them, empty ones as null. */
const valuesOf = (sheet: ExcelJS.Worksheet, row: number, width = 4) =>
  Array.from({ length: width }, (_, index) => sheet.getCell(row, index + 1).value ?? null);
/** The number of the row whose column A says `text`. */
function rowOf(sheet: ExcelJS.Worksheet, text: string): number {
  for (let row = 1; row <= sheet.rowCount; row++) if (sheet.getCell(row, 1).value === text) return row;
  throw new Error(`no row ${text}`);
}

/** The grid as JSON: each learner's marks by mark type id. */
async function marksOf(who: Member, fields: Record<string, unknown> = {}) {
  const grid = ok(await json(who).post('/api/school/marks/grid', place(fields)));
  return Object.fromEntries(
    grid.students.map((row: { student: { studentid: string }; marktypes: Record<string, { mark: unknown }> }) => [
      row.student.studentid,
      Object.fromEntries(Object.entries(row.marktypes).map(([id, cell]) => [id, cell.mark])),
    ]),
  ) as Record<string, Record<string, unknown>>;
}

/** Marks and history rows of a school: what a refused upload must leave as it was. */
async function storedCount(tenantId: string) {
  return withTenant(t.database.db, { tenantId }, async (trx) => {
    const marks = await sql<{ n: number }>`SELECT count(*)::int AS n FROM marks`.execute(trx);
    const history = await sql<{ n: number }>`SELECT count(*)::int AS n FROM mark_history`.execute(trx);
    return { marks: marks.rows[0]?.n, history: history.rows[0]?.n };
  });
}

async function historyOf(studentid: string, marktypeId: string) {
  const [student] = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx.selectFrom('students').select('id').where('studentid', '=', studentid).execute(),
  );
  return ok(
    await json(head).get(
      `/api/school/marks/history?student_id=${student?.id}&subject_id=${maths.id}&marktype_id=${marktypeId}&term=I&year=${YEAR}`,
    ),
  ).history as Array<{ old: unknown; new: unknown; source: string; user: string | null }>;
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Sheet Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { name: 'Grace Auma', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = await member(headUser.email, school.tenantcode);
  teacher = await member(teacherUser.email, school.tenantcode);
  other = await member(otherUser.email, elsewhere.tenantcode);
  const headApi = json(head);
  maths = await newSubject(headApi, { name: 'Mathematics' });
  english = await newSubject(headApi, { name: 'English' });
  bot = ok(await headApi.post(markTypes.path, { label: 'BOT', category: 'exam', position: 1 }));
  mot = ok(await headApi.post(markTypes.path, { label: 'MOT', category: 'exam', position: 2, outof: 50 }));
  await learners(school.id, 'P5', 'East', ['Amina', 'Brian', 'Carol']);
  await learners(school.id, 'P5', 'West', ['Esther']);
  await learners(school.id, 'P6', 'East', ['Daniel']);
  // Grace teaches Mathematics in P5 (every stream) in Term I.
  ok(
    await headApi.post(subjectTeachers.path, {
      user_id: teacherUser.id,
      subject_id: maths.id,
      form: 'P5',
      stream: '',
      term: 'I',
      year: YEAR,
    }),
  );
});
afterAll(() => t.close());

describe('the grid as a spreadsheet', () => {
  it('downloads the class’s learners by mark type, their marks (ABS too), and what the grid is', async () => {
    const [amina, brian] = ok(await json(head).post('/api/school/marks/grid', place())).students.map(
      (row: { student: { id: string } }) => row.student.id,
    );
    ok(
      await json(head).post('/api/school/marks', {
        ...place({ marktypes: undefined }),
        save_id: crypto.randomUUID(),
        marks: { [bot.id]: { [amina]: 56, [brian]: 'ABS' }, [mot.id]: { [amina]: 40.5 } },
      }),
    );

    const response = await download(head);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Marks-P5-East-Mathematics-TermI-${YEAR}.xlsx"`);
    const workbook = await workbookOf(response);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Marks', 'Instructions']);
    const sheet = marksSheet(workbook);
    expect([1, 2, 3, 4, 5, 6].map((row) => valuesOf(sheet, row, 2))).toEqual([
      ['Class', 'P5'],
      ['Stream', 'East'],
      ['Subject', 'Mathematics'],
      ['Paper', 'I'],
      ['Term', 'I'],
      ['Year', YEAR],
    ]);
    // The ids that say which grid and which mark type each column is: hidden from the teacher.
    expect(valuesOf(sheet, 7, 2)).toEqual(['Subject ID', maths.id]);
    expect(sheet.getRow(7).hidden).toBe(true);
    const ids = rowOf(sheet, 'Mark type ID');
    expect(valuesOf(sheet, ids)).toEqual(['Mark type ID', null, bot.id, mot.id]);
    expect(sheet.getRow(ids).hidden).toBe(true);

    const header = rowOf(sheet, 'Student ID');
    expect(valuesOf(sheet, header)).toEqual(['Student ID', 'Name', 'BOT', 'MOT']);
    expect(JSON.stringify(sheet.getCell(header, 4).note)).toContain('Out of 50');
    expect([1, 2, 3].map((offset) => valuesOf(sheet, header + offset))).toEqual([
      ['P5-East-1', 'Amina Okello', 56, 40.5],
      ['P5-East-2', 'Brian Okello', 'ABS', null],
      ['P5-East-3', 'Carol Okello', null, null],
    ]);
    expect(sheet.rowCount).toBe(header + 3);
  });

  it('saves a filled sheet: the grid then shows its marks, each change in the history as from the sheet', async () => {
    const workbook = await workbookOf(await download(head));
    const sheet = marksSheet(workbook);
    const header = rowOf(sheet, 'Student ID');
    sheet.getCell(header + 1, 3).value = 60; // Amina's BOT, 56 before
    sheet.getCell(header + 3, 3).value = 71; // Carol's BOT, new
    sheet.getCell(header + 3, 4).value = 'abs'; // Carol's MOT: an absence, however typed
    const file = await bytesOf(workbook);

    const response = await upload(head, file);
    expect(response.statusCode, response.body).toBe(200);
    // Written: Amina's BOT, Carol's two; the same as stored: Amina's MOT, Brian's ABS.
    expect(response.json()).toEqual({ message: 'Successfully created', saved: 3, unchanged: 2 });
    expect(await marksOf(head)).toEqual({
      'P5-East-1': { [bot.id]: 60, [mot.id]: 40.5 },
      'P5-East-2': { [bot.id]: 'ABS' },
      'P5-East-3': { [bot.id]: 71, [mot.id]: 'ABS' },
    });
    expect((await historyOf('P5-East-1', bot.id)).map((entry) => [entry.old, entry.new, entry.source, entry.user])).toEqual([
      [56, 60, 'sheet', 'Head Teacher'],
      [null, 56, 'grid', 'Head Teacher'],
    ]);
    expect((await historyOf('P5-East-3', mot.id)).map((entry) => [entry.old, entry.new, entry.source])).toEqual([[null, 'ABS', 'sheet']]);

    // The same file again changes nothing, and says so.
    const before = await storedCount(school.id);
    expect(ok(await upload(head, file))).toEqual({ message: 'Successfully created', saved: 0, unchanged: 5 });
    expect(await storedCount(school.id)).toEqual(before);
  });

  it('leaves a mark as it is where the sheet’s cell is empty; a changed mark only is “updated”', async () => {
    const workbook = await workbookOf(await download(head));
    const sheet = marksSheet(workbook);
    const header = rowOf(sheet, 'Student ID');
    sheet.getCell(header + 1, 4).value = null; // Amina's MOT emptied
    sheet.getCell(header + 3, 3).value = 72.5; // Carol's BOT changed
    expect(ok(await upload(head, await bytesOf(workbook)))).toEqual({ message: 'Successfully updated', saved: 1, unchanged: 3 });
    expect((await marksOf(head))['P5-East-1']).toEqual({ [bot.id]: 60, [mot.id]: 40.5 });
  });

  it('refuses a sheet with any wrong row, naming each row and why, and saves nothing', async () => {
    const workbook = await workbookOf(await download(head));
    const sheet = marksSheet(workbook);
    const header = rowOf(sheet, 'Student ID');
    sheet.getCell(header + 1, 3).value = 99; // a good change: not saved either
    sheet.getCell(header + 2, 3).value = 'seven';
    sheet.getCell(header + 2, 4).value = 12.25;
    sheet.getCell(header + 3, 4).value = 51;
    sheet.getCell(header + 3, 3).value = new Date(Date.UTC(2026, 2, 12));
    const added = [
      ['P5-West-1', 'Esther Okello', 50], // another stream of the class
      ['P6-East-1', 'Daniel Okello', 20], // another class
      ['NOPE-1', 'Nobody', 50], // no such learner
      ['P5-East-1', 'Amina again', 10], // a learner on two rows
      [null, 'Total', 30], // marks without a learner
      [null, 'Checked by the director of studies'], // a note: passed by
      [null, null, -1], // below zero, without a learner
    ];
    for (const values of added) sheet.addRow(values);
    const row = (offset: number) => header + 3 + offset;
    const before = await storedCount(school.id);

    const response = await upload(head, await bytesOf(workbook));
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().message).toBe(STUDENT_MESSAGES.rowsInvalid);
    expect(response.json().errors).toEqual({
      [`${header + 2}.BOT`]: [MARK_MESSAGES.notAMark],
      [`${header + 2}.MOT`]: [MARK_MESSAGES.oneDecimal],
      [`${header + 3}.BOT`]: [MARK_MESSAGES.notAMark],
      [`${header + 3}.MOT`]: [MARK_MESSAGES.aboveMaximum],
      [`${row(1)}.studentid`]: [MARK_MESSAGES.learnerNotInClass],
      [`${row(2)}.studentid`]: [MARK_MESSAGES.learnerNotInClass],
      [`${row(3)}.studentid`]: [MARK_MESSAGES.learnerUnknown],
      [`${row(4)}.studentid`]: [STUDENT_MESSAGES.studentidRepeated],
      [`${row(5)}.studentid`]: [MARK_MESSAGES.learnerUnknown],
      [`${row(7)}.BOT`]: [MARK_MESSAGES.belowZero],
    });
    expect(await storedCount(school.id)).toEqual(before);
    expect((await marksOf(head))['P5-East-1']).toEqual({ [bot.id]: 60, [mot.id]: 40.5 });
  });

  it('refuses a sheet of another grid, or one without a student id or mark type column: nothing saved', async () => {
    const wrong = { message: MARK_MESSAGES.sheetWrongGrid, errors: { file: [MARK_MESSAGES.sheetWrongGrid] } };
    const before = await storedCount(school.id);
    // Another class's sheet (the head may download it), sent as P5's.
    const p6 = await download(head, { form: 'P6' });
    expect((await workbookOf(p6)).getWorksheet('Marks')?.getCell(1, 2).value).toBe('P6');
    expect((await upload(head, p6.rawPayload)).json()).toMatchObject({ statusCode: 422, ...wrong });
    // Another subject, paper, stream, term or year.
    const englishSheet = await download(head, { subject_id: english.id });
    expect((await upload(head, englishSheet.rawPayload)).json()).toMatchObject(wrong);
    const mine = (await download(head)).rawPayload;
    for (const fields of [{ stream: 'West' }, { stream: '' }, { term: 'II' }, { year: YEAR - 1 }, { paper: 'II' }])
      expect((await upload(head, mine, fields)).json(), JSON.stringify(fields)).toMatchObject({ statusCode: 422 });
    expect((await upload(head, mine, { year: YEAR - 1 })).json()).toMatchObject(wrong);
    expect((await upload(head, mine, { stream: '' })).json()).toMatchObject(wrong);
    // The sheet edited to say another term is of another grid too.
    const edited = await workbookOf(mine);
    marksSheet(edited).getCell(rowOf(marksSheet(edited), 'Term'), 2).value = 'II';
    expect((await upload(head, await bytesOf(edited))).json()).toMatchObject(wrong);
    // One mark type in two columns could save either of two marks.
    const twice = await workbookOf(mine);
    const twiceSheet = marksSheet(twice);
    twiceSheet.getCell(rowOf(twiceSheet, 'Mark type ID'), 4).value = bot.id;
    expect((await upload(head, await bytesOf(twice))).json()).toMatchObject({
      message: MARK_MESSAGES.sheetRepeatedMarkType,
      errors: { file: [MARK_MESSAGES.sheetRepeatedMarkType] },
    });

    const noMarks = { message: MARK_MESSAGES.sheetNoMarks, errors: { file: [MARK_MESSAGES.sheetNoMarks] } };
    // A class list: learners, but no column the upload knows as a mark type.
    const list = new ExcelJS.Workbook();
    list.addWorksheet('Class list').addRows([
      ['Student ID', 'Name', 'BOT'],
      ['P5-East-1', 'Amina Okello', 50],
    ]);
    expect((await upload(head, await bytesOf(list))).json()).toMatchObject(noMarks);
    // The downloaded sheet without its hidden mark type row, or without its Student ID header.
    const noIds = await workbookOf(mine);
    marksSheet(noIds).spliceRows(rowOf(marksSheet(noIds), 'Mark type ID'), 1);
    expect((await upload(head, await bytesOf(noIds))).json()).toMatchObject(noMarks);
    const noKey = await workbookOf(mine);
    marksSheet(noKey).getCell(rowOf(marksSheet(noKey), 'Student ID'), 1).value = 'Learner';
    expect((await upload(head, await bytesOf(noKey))).json()).toMatchObject(noMarks);
    // Not a workbook at all.
    const text = await upload(head, Buffer.from('Student ID,BOT\nP5-East-1,50\n'), {}, 'marks.csv');
    expect(text.json()).toMatchObject({ statusCode: 422, message: STUDENT_MESSAGES.fileNotSpreadsheet });
    expect(await storedCount(school.id)).toEqual(before);
  });

  it('reads a sheet whose rows were sorted and columns moved, with a column of its own', async () => {
    const workbook = await workbookOf(await download(head));
    const sheet = marksSheet(workbook);
    const header = rowOf(sheet, 'Student ID');
    // Carol first, then Brian, then Amina; MOT before BOT (hidden ids row moved with its columns); a Remarks column.
    const rows = [3, 2, 1].map((offset) => valuesOf(sheet, header + offset));
    const ids = rowOf(sheet, 'Mark type ID');
    sheet.getRow(ids).values = ['Mark type ID', null, mot.id, bot.id];
    sheet.getRow(header).values = ['Student ID', 'Name', 'MOT', 'BOT', 'Remarks'];
    rows.forEach(([id, name, botMark, motMark], index) => {
      sheet.getRow(header + 1 + index).values = [id, name, motMark, botMark, 'Good'];
    });
    sheet.getCell(header + 1, 4).value = 73; // Carol's BOT, now in column D
    expect(ok(await upload(head, await bytesOf(workbook)))).toEqual({ message: 'Successfully updated', saved: 1, unchanged: 4 });
    expect((await marksOf(head))['P5-East-3']).toEqual({ [bot.id]: 73, [mot.id]: 'ABS' });
  });

  it('round-trips a competency’s scores: the topic is written, checked, and must be the school’s', async () => {
    // A secondary school's S2 is a new-curriculum class (a primary school has none): its competency takes scores.
    const secondary = await makeTenant(t.database, { name: 'Sheet Secondary', schooltype: 'secondary' });
    const secondaryUser = await makeUser(t.database, {
      name: 'Deputy Head',
      memberOf: [{ tenantId: secondary.id, roles: ['headteacher'] }],
    });
    const deputy = await member(secondaryUser.email, secondary.tenantcode);
    const mathematics = await newSubject(json(deputy), { name: 'Mathematics' });
    await learners(secondary.id, 'S2', 'East', ['Amina', 'Brian']);
    const exam = ok(await json(deputy).post(markTypes.path, { label: 'BOT', category: 'exam', position: 1 }));
    const s2 = { form: 'S2', subject_id: mathematics.id };
    const topic = newId();
    await withTenant(t.database.db, { tenantId: secondary.id }, (trx) =>
      trx
        .insertInto('topics')
        .values({
          tenant_id: secondary.id,
          id: topic,
          subject_id: mathematics.id as string,
          form: 'S2',
          term: 'I',
          title: 'Fractions',
          remarks: null,
        })
        .execute(),
    );
    // An activity of integration's mark type (an exam is none).
    const aoi = ok(await json(deputy).post(markTypes.path, { label: 'AOI', category: 'assesment', position: 9 }));
    const workbook = await workbookOf(await download(deputy, { ...s2, topic_id: topic, marktypes: [aoi.id] }));
    const sheet = marksSheet(workbook);
    expect(valuesOf(sheet, rowOf(sheet, 'Topic'), 2)).toEqual(['Topic', 'Fractions']);
    expect(valuesOf(sheet, rowOf(sheet, 'Topic ID'), 2)).toEqual(['Topic ID', topic]);
    sheet.getCell(rowOf(sheet, 'S2-East-1'), 3).value = 3;
    const file = await bytesOf(workbook);
    // Without the topic it is another grid (the subject's plain marks).
    expect((await upload(deputy, file, { ...s2, marktypes: [aoi.id] })).json()).toMatchObject({ message: MARK_MESSAGES.sheetWrongGrid });
    expect(ok(await upload(deputy, file, { ...s2, topic_id: topic, marktypes: [aoi.id] }))).toMatchObject({ saved: 1 });
    expect((await marksOf(deputy, { ...s2, topic_id: topic, marktypes: [aoi.id] }))['S2-East-1']).toEqual({ [aoi.id]: 3 });
    // The exam's mark type on the competency: refused, the exam is no activity.
    const refused = await download(deputy, { ...s2, topic_id: topic, marktypes: [exam.id] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ marktypes: [MARK_MESSAGES.examNotActivity] });
    // The competency is of this school alone: the primary school's grid knows no such topic.
    const unknown = await download(head, { topic_id: topic, marktypes: [bot.id] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toMatchObject({ topic_id: [SETTINGS_MESSAGES.referenceMissing] });
    expect((await marksOf(head))['P5-East-1']).toEqual({ [bot.id]: 60, [mot.id]: 40.5 });
  });

  it('keeps the rules of the grid: assignments, inactive mark types, published marks', async () => {
    // Grace teaches P5 Mathematics: her own sheet saves, as hers, from the sheet.
    const hers = await workbookOf(await download(teacher));
    const sheet = marksSheet(hers);
    sheet.getCell(rowOf(sheet, 'P5-East-2'), 4).value = 44; // Brian's MOT
    expect(ok(await upload(teacher, await bytesOf(hers)))).toMatchObject({ saved: 1 });
    expect((await historyOf('P5-East-2', mot.id))[0]).toMatchObject({ new: 44, source: 'sheet', user: 'Grace Auma' });

    // Not P6: the head's P6 sheet, sent by Grace, is refused as the grid would be.
    const p6 = await workbookOf(await download(head, { form: 'P6' }));
    marksSheet(p6).getCell(rowOf(marksSheet(p6), 'P6-East-1'), 3).value = 50;
    const before = await storedCount(school.id);
    const refused = await upload(teacher, await bytesOf(p6), { form: 'P6' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MARK_MESSAGES.notAssigned);
    expect((await download(teacher, { form: 'P6' })).statusCode).toBe(403);

    // An inactive mark type's column is refused.
    const inactive = ok(await json(head).post(markTypes.path, { label: 'Old test', category: 'test', status: 'inactive' }));
    const old = await workbookOf(await download(head));
    marksSheet(old).getCell(rowOf(marksSheet(old), 'Mark type ID'), 4).value = inactive.id;
    const response = await upload(head, await bytesOf(old));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ marktypes: [MARK_MESSAGES.markTypeInactive] });

    // Published BOT: Grace's sheet may leave it as it is, not change it; the head may.
    ok(await json(head).post(publishMarks.path, { term: 'I', year: YEAR, marktype_id: bot.id }));
    const late = await workbookOf(await download(teacher));
    const lateSheet = marksSheet(late);
    lateSheet.getCell(rowOf(lateSheet, 'P5-East-1'), 3).value = 61;
    lateSheet.getCell(rowOf(lateSheet, 'P5-East-1'), 4).value = 41;
    const locked = await upload(teacher, await bytesOf(late));
    expect(locked.statusCode).toBe(403);
    expect(locked.json().message).toBe(MARK_MESSAGES.published);
    expect(await storedCount(school.id)).toEqual(before);
    lateSheet.getCell(rowOf(lateSheet, 'P5-East-1'), 3).value = 60;
    expect(ok(await upload(teacher, await bytesOf(late)))).toMatchObject({ saved: 1 });
    lateSheet.getCell(rowOf(lateSheet, 'P5-East-1'), 3).value = 61;
    expect(ok(await upload(head, await bytesOf(late)))).toMatchObject({ saved: 1, message: 'Successfully updated' });
  });

  it('another school can neither save into this school’s grid nor name its learners or mark types', async () => {
    const before = await storedCount(school.id);
    const ours = (await download(head)).rawPayload;
    const into = await upload(other, ours);
    expect(into.statusCode).toBe(422);
    expect(into.json().errors).toEqual({ subject_id: [SETTINGS_MESSAGES.referenceMissing], marktypes: [MARK_MESSAGES.markTypeUnknown] });

    // Their own grid, naming our learner and then our mark type.
    const theirApi = json(other);
    const subject = await newSubject(theirApi, { name: 'Mathematics' });
    const theirs = ok(await theirApi.post(markTypes.path, { label: 'BOT', category: 'exam' }));
    const fields = { subject_id: subject.id, marktypes: [theirs.id] };
    const workbook = await workbookOf(await download(other, fields));
    const sheet = marksSheet(workbook);
    sheet.addRow(['P5-East-1', 'Amina Okello', 50]);
    const learner = await upload(other, await bytesOf(workbook), fields);
    expect(learner.json().errors).toEqual({ [`${rowOf(sheet, 'P5-East-1')}.studentid`]: [MARK_MESSAGES.learnerUnknown] });
    sheet.getCell(rowOf(sheet, 'Mark type ID'), 3).value = bot.id;
    const marktype = await upload(other, await bytesOf(workbook), fields);
    expect(marktype.json().errors).toEqual({ marktypes: [MARK_MESSAGES.markTypeUnknown] });
    expect(await storedCount(school.id)).toEqual(before);
  });
});

describe('a sheet saved by LibreOffice', () => {
  // fixtures/marks-libreoffice.xlsx: this download's layout for P4 North, Science, Term I 2025,
  // written by exceljs with these ids and marks, then opened and saved by LibreOffice Calc 7.4
  // (soffice --headless --convert-to xlsx). Its ids are fixed, so the school below has them.
  const SUBJECT = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601';
  const BOT = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f602';
  const MOT = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f603';
  const file = readFileSync(path.join(FIXTURES, 'marks-libreoffice.xlsx'));

  it('uploads its marks (numbers, decimals, ABS however typed), and again changes nothing', async () => {
    const lira = await makeTenant(t.database, { name: 'Lira Okwang School' });
    const user = await makeUser(t.database, { memberOf: [{ tenantId: lira.id, roles: ['headteacher'] }] });
    const liraHead = await member(user.email, lira.tenantcode);
    await withTenant(t.database.db, { tenantId: lira.id }, async (trx) => {
      await trx.insertInto('subjects').values({ tenant_id: lira.id, id: SUBJECT, name: 'Science', category: 'general' }).execute();
      await trx
        .insertInto('mark_types')
        .values([
          { tenant_id: lira.id, id: BOT, label: 'BOT', category: 'exam', position: 1, outof: 100 },
          { tenant_id: lira.id, id: MOT, label: 'MOT', category: 'exam', position: 2, outof: 50 },
        ])
        .execute();
      await trx
        .insertInto('students')
        .values(
          ['Sarah Nakato', 'Brian Okello', 'Grace Namubiru', 'Joseph Mugisha'].map((name, index) => ({
            tenant_id: lira.id,
            id: newId(),
            studentid: `LO-${index + 1}`,
            firstname: name.split(' ')[0] as string,
            lastname: name.split(' ')[1] as string,
            form: 'P4',
            stream: 'North',
          })),
        )
        .execute();
    });
    const fields = { form: 'P4', stream: 'North', year: 2025, subject_id: SUBJECT, marktypes: [BOT, MOT] };
    const response = await upload(liraHead, file, fields, 'marks-libreoffice.xlsx');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'Successfully created', saved: 7, unchanged: 0 });
    expect(await marksOf(liraHead, fields)).toEqual({
      'LO-1': { [BOT]: 81, [MOT]: 40.5 },
      'LO-2': { [BOT]: 'ABS', [MOT]: 33 },
      'LO-3': { [BOT]: 0 },
      'LO-4': { [BOT]: 67.5, [MOT]: 'ABS' },
    });
    expect(ok(await upload(liraHead, file, fields))).toEqual({ message: 'Successfully created', saved: 0, unchanged: 7 });
  });
});

describe('the sheet’s name and reading', () => {
  const about: SheetAbout = {
    form: 'S.5',
    stream: null,
    subject: 'English Language',
    subject_id: '6f1c2d4a-5b6e-4f70-8a91-b2c3d4e5f601',
    paper: 'II',
    term: 'III',
    year: 2026,
    topic_id: null,
    topic: null,
  };

  it('names the file after the grid, with nothing a file name should not hold', () => {
    expect(gridFileName(about)).toBe('Marks-S5-All-EnglishLanguage-PaperII-TermIII-2026.xlsx');
    expect(gridFileName({ ...about, form: 'P4', stream: 'East/"West"', subject: 'Luganda ✓', paper: 'I', term: 'I' })).toBe(
      'Marks-P4-EastWest-Luganda-TermI-2026.xlsx',
    );
    expect(gridFileName({ ...about, subject: '✓✓' })).toMatch(/^Marks-S5-All-Subject-PaperII/);
  });

  it('finds the table by its Student ID header and the grid by the rows above, in any case and spacing', () => {
    const marktype = '7a1c2d4a-5b6e-4f70-8a91-b2c3d4e5f601';
    const sheet = {
      header: ['CLASS', 's.5'],
      rows: [
        { number: 2, cells: ['stream', null] },
        { number: 3, cells: ['Subject', 'Anything'] },
        { number: 4, cells: ['paper', 'ii'] },
        { number: 5, cells: ['term', 'III'] },
        { number: 6, cells: ['year', 2026] },
        { number: 7, cells: ['subject_id', about.subject_id.toUpperCase()] },
        { number: 9, cells: ['Mark type ID', null, null, marktype.toUpperCase()] },
        { number: 11, cells: ['Name', 'Remarks', 'student id', 'EOT'] },
        { number: 12, cells: ['Amina', null, 'S5-1', 56] },
        { number: 13, cells: [null, 'note'] },
      ],
    };
    expect(readGridSheet(sheet, { ...about, form: 'S.5', paper: 'II' })).toEqual({
      marktypeIds: [marktype],
      rows: [
        { number: 12, studentid: 'S5-1', marks: [{ marktype_id: marktype, cell: 56 }] },
        { number: 13, studentid: null, marks: [{ marktype_id: marktype, cell: null }] },
      ],
    });
    expect(() => readGridSheet(sheet, { ...about, stream: 'A' })).toThrow(MARK_MESSAGES.sheetWrongGrid);
    expect(() => readGridSheet(sheet, { ...about, topic_id: marktype })).toThrow(MARK_MESSAGES.sheetWrongGrid);
    expect(() => readGridSheet({ header: [], rows: sheet.rows.slice(0, 7) }, about)).toThrow(MARK_MESSAGES.sheetNoMarks);
  });
});
