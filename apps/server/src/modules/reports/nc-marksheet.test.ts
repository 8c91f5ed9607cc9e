import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { markTypes, type NcMarksheetModel, REPORT_MESSAGES, SETTINGS_MESSAGES } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newSubject, ok, type Row, SPREADSHEET } from '../settings/settings-fixtures.js';

/*
 * The new-curriculum mark sheet through the API (issue 27 point 4), on both databases: a
 * secondary school's S2 (a new-curriculum class by default) with competencies, activity-of-
 * integration scores and an end-of-term exam, as the model (the guide's numbers), the workbook
 * read back with exceljs, the preview and the PDF; an old-curriculum class, another school, a
 * teacher and bad input refused.
 *
 * The class, term I (scores out of 3, EOT out of 100):
 *   Grace English: Reading AOIs 3 and 2 (2.5), Writing 2 -> score 2.25 Moderate, /20 15, EOT 75 -> /80 60, /100 75 B
 *   Grace Maths:   Numbers 3 -> 3 Outstanding, /20 20, EOT 80 -> /80 64, /100 84 A
 *   Peter English: Reading 1, Writing ABS -> 1 Basic, /20 6.7, EOT 45 -> /80 36, /100 42.7 E
 *   Peter Maths:   Numbers 2 -> 2 Moderate, /20 13.3, EOT ABS -> no /80, no total, no grade
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let english: Row;
let maths: Row;
let eot: Row;
let grace: string;
let peter: string;
const YEAR = 2026;
const run = promisify(execFile);

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Kololo Secondary', schooltype: 'secondary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Secondary', schooltype: 'secondary' });
  const headUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  english = await newSubject(head, { name: 'English', abbreviation: 'ENG', category: 'english', position: 1 });
  maths = await newSubject(head, { name: 'Mathematics', abbreviation: 'MTC', category: 'mathematics', position: 2 });
  const aoi1 = ok(await head.post(markTypes.path, { label: 'AOI 1', category: 'assesment', position: 1 }));
  const aoi2 = ok(await head.post(markTypes.path, { label: 'AOI 2', category: 'assesment', position: 2 }));
  eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 3, outof: 100 }));
  grace = ok(await head.post('/api/school/students', { firstname: 'Grace', lastname: 'Akello', form: 'S2' })).id;
  peter = ok(await head.post('/api/school/students', { firstname: 'Peter', lastname: 'Okello', form: 'S2' })).id;
  ok(await head.post('/api/school/students', { firstname: 'Sarah', lastname: 'Nambi', form: 'S5' }));

  const topic = (subject: Row, title: string) => ({
    tenant_id: school.id,
    id: newId(),
    subject_id: subject.id,
    form: 'S2',
    term: 'I',
    title,
  });
  const reading = topic(english, 'Reading');
  const writing = topic(english, 'Writing');
  const numbers = topic(maths, 'Numbers');
  await withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
    for (const row of [reading, writing, numbers]) await trx.insertInto('topics').values(row).execute();
  });
  const at = { form: 'S2', term: 'I', year: YEAR };
  const aoi = (subject: Row, topicId: string, marktypeId: string, mark: number | 'ABS') => ({
    ...at,
    subjectId: subject.id,
    marktypeId,
    topicId,
    mark,
  });
  const exam = (subject: Row, mark: number | 'ABS') => ({ ...at, subjectId: subject.id, marktypeId: eot.id, mark });
  await makeMarks(t.database, school.id, grace, [
    aoi(english, reading.id, aoi1.id, 3),
    aoi(english, reading.id, aoi2.id, 2),
    aoi(english, writing.id, aoi1.id, 2),
    aoi(maths, numbers.id, aoi1.id, 3),
    exam(english, 75),
    exam(maths, 80),
  ]);
  await makeMarks(t.database, school.id, peter, [
    aoi(english, reading.id, aoi1.id, 1),
    aoi(english, writing.id, aoi1.id, 'ABS'),
    aoi(maths, numbers.id, aoi1.id, 2),
    exam(english, 45),
    exam(maths, 'ABS'),
  ]);
});
afterAll(() => t?.close());

const sheet = (who: Caller, more: Record<string, string> = {}) =>
  who.get(
    `/api/school/marks/ncmarksheet?${new URLSearchParams({ form: 'S2', term: 'I', year: String(YEAR), marktype_id: eot.id, ...more })}`,
  );

async function workbookOf(response: LightMyRequestResponse): Promise<ExcelJS.Worksheet> {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe(SPREADSHEET);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
  return workbook.getWorksheet('NC Marksheet') as ExcelJS.Worksheet;
}

/** A sheet's rows as plain values (exceljs's rows are 1-based with an empty first cell). */
function rowsOf(worksheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  for (let index = 1; index <= worksheet.rowCount; index++) rows.push((worksheet.getRow(index).values as unknown[]).slice(1));
  return rows;
}

/** The rows under the count table titled `title`, up to the blank row after it (values only). */
function countRows(rows: unknown[][], title: string): unknown[][] {
  const at = rows.findIndex((row) => row.includes(title));
  expect(at, title).toBeGreaterThan(0);
  const found: unknown[][] = [];
  for (const row of rows.slice(at + 1)) {
    const values = row.filter((value) => value !== undefined && value !== null);
    if (values.length === 0) break;
    found.push(values);
  }
  return found;
}

async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ncmarksheet-'));
  try {
    const file = path.join(folder, 'sheet.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'])).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('the new-curriculum mark sheet', () => {
  it('answers the model: each learner by subject with score, identifier, /20, /80, /100 and grade, and the counts', async () => {
    const model: NcMarksheetModel = ok(await sheet(head));
    expect(model.report).toMatchObject({
      form: 'S2',
      stream: null,
      term: 'I',
      year: YEAR,
      marktype: { id: eot.id, label: 'EOT', outof: 100 },
    });
    expect(model.subjects.map((subject) => [subject.name, subject.code])).toEqual([
      ['English', 'ENG'],
      ['Mathematics', 'MTC'],
    ]);
    expect(model.identifiers).toEqual(['Outstanding', 'Moderate', 'Basic']);
    expect(model.grades).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(model.learners.map((learner) => learner.id)).toEqual([grace, peter]);
    const values = (index: number) =>
      model.learners[index]?.subjects.map(({ score, identifier, formative, summative, total, grade }) => [
        score,
        identifier,
        formative,
        summative,
        total,
        grade,
      ]);
    expect(values(0)).toEqual([
      [2.3, 'Moderate', 15, 60, 75, 'B'],
      [3, 'Outstanding', 20, 64, 84, 'A'],
    ]);
    expect(values(1)).toEqual([
      [1, 'Basic', 6.7, 36, 42.7, 'E'],
      [2, 'Moderate', 13.3, null, null, null],
    ]);
    expect(model.counts).toEqual([
      { subject_id: english.id, identifiers: [0, 1, 1], grades: [0, 1, 0, 0, 1] },
      { subject_id: maths.id, identifiers: [1, 1, 0], grades: [1, 0, 0, 0, 0] },
    ]);
  });

  it('downloads the workbook ncmarksheet-S2-all-2026-I.xlsx: headers, a learner’s row, the counts at the foot', async () => {
    const response = await sheet(head, { excel: '1' });
    expect(response.headers['content-disposition']).toContain('ncmarksheet-S2-all-2026-I.xlsx');
    const rows = rowsOf(await workbookOf(response));
    expect(rows[0]).toEqual(['Kololo Secondary']);
    expect(rows[1]).toEqual(['NEW CURRICULUM MARK SHEET']);
    const top = rows.findIndex((row) => row[0] === 'No.');
    expect(rows[top]?.slice(0, 4)).toEqual(['No.', 'Student ID', 'Name', 'ENG']);
    expect(rows[top]?.[9]).toBe('MTC');
    expect(rows[top + 1]?.slice(3, 15)).toEqual([
      'Score',
      'Identifier',
      '/20',
      '/80',
      '/100',
      'Grade',
      'Score',
      'Identifier',
      '/20',
      '/80',
      '/100',
      'Grade',
    ]);
    const peterRow = rows[top + 3] as unknown[];
    expect(peterRow[2]).toBe('Peter Okello');
    expect(peterRow.slice(3)).toEqual([1, 'Basic', 6.7, 36, 42.7, 'E', 2, 'Moderate', 13.3]);
    expect(countRows(rows, 'Learners per identifier')).toEqual([
      ['Subject', 'Outstanding', 'Moderate', 'Basic'],
      ['English', 0, 1, 1],
      ['Mathematics', 1, 1, 0],
    ]);
    expect(countRows(rows, 'Learners per grade')).toEqual([
      ['Subject', 'A', 'B', 'C', 'D', 'E'],
      ['English', 0, 1, 0, 0, 1],
      ['Mathematics', 1, 0, 0, 0, 0],
    ]);
  });

  it('gives the preview and the PDF of the same numbers', async () => {
    const { html } = ok(await sheet(head, { html: '1' }));
    expect(html).toContain('NEW CURRICULUM MARK SHEET');
    expect(html).toContain('Peter Okello');
    expect(html).toContain('42.7');
    const pdf = await sheet(head, { pdf: '1' });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('ncmarksheet-S2-all-2026-I.pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Grace Akello');
    expect(text).toMatch(/Peter Okello\s+1\s+Basic\s+6\.7\s+36\s+42\.7\s+E/);
    expect(text).toContain('Learners per grade: A 0 · B 1 · C 0 · D 0 · E 1');
  });

  it('refuses an old-curriculum class (S5) on form, in every output', async () => {
    for (const more of [{}, { html: '1' }, { excel: '1' }, { pdf: '1' }] as Array<Record<string, string>>) {
      const response = await sheet(head, { form: 'S5', ...more });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().errors).toEqual({ form: [REPORT_MESSAGES.oldCurriculumClass] });
    }
  });

  it('refuses another school’s mark type, a teacher without marks to manage, and bad input, never a 500', async () => {
    const theirs = await sheet(other);
    expect(theirs.statusCode, theirs.body).toBe(422);
    expect(theirs.json().errors).toEqual({ marktype_id: [REPORT_MESSAGES.markTypeUnknown] });
    expect(theirs.body).not.toContain('Grace');
    expect((await sheet(teacher)).statusCode).toBe(403);
    const none = await sheet(head, { marktype_id: '' });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.marktype_id).toEqual([SETTINGS_MESSAGES.markTypeRequired]);
    const two = await sheet(head, { marktype_ids: `${eot.id},${english.id}` });
    expect(two.statusCode).toBe(422);
    expect(two.json().errors.marktype_id).toEqual([REPORT_MESSAGES.oneSummative]);
    for (const more of [{ term: 'IV' }, { year: 'soon' }, { form: '' }, { marktype_id: 'nope' }] as Array<Record<string, string>>)
      expect((await sheet(head, more)).statusCode).toBe(422);
    const empty = await sheet(head, { stream: 'Nobody' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ form: [REPORT_MESSAGES.noLearners] });
  });
});
