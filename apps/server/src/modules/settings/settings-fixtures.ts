import { DEFAULT_GRADE_BANDS, markTypes, remarkTypes, subjects } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { makeTenant, makeUser } from '../../test/factories.js';
import { type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * Helpers shared by the school settings tests (settings, grades, relations, excel). Not a
 * `*.test.ts` file, so Vitest imports it but never runs it; each test file gets its own copy of
 * this module, and with it its own `next()` counter.
 */

export type Body = Record<string, unknown>;
export type Row = Record<string, unknown> & { id: string };
export type Bands = ReadonlyArray<readonly [grade: string, lower: number, upper: number]>;

export const SPREADSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The Content-Disposition of an `excel=1` answer: mustard-<timestamp>.xlsx. */
export const EXCEL_ATTACHMENT = /^attachment; filename="mustard-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.xlsx"$/;

let counter = 0;
/** A number not handed out before, to keep names unique. */
export const next = () => ++counter;

/** The JSON of a 200 answer; any other status fails with the body in the message. */
export function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** A new school with its own head teacher, so list totals are the test's own. */
export async function newSchool(t: TestApp, name: string): Promise<Caller> {
  const school = await makeTenant(t.database, { name });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  return caller(t.app, await login(t.app, user.email), school.tenantcode);
}

export async function newSubject(c: Caller, fields: Body = {}): Promise<Row & { name: string }> {
  return ok(await c.post(subjects.path, { name: `Subject ${next()}`, category: 'general', ...fields }));
}
export async function newMarkType(c: Caller): Promise<Row & { label: string }> {
  return ok(await c.post(markTypes.path, { label: `Mark type ${next()}`, category: 'test' }));
}
/** A remark type; `fields` may name its `parent_id` (a sub category) or its `label`. */
export async function newRemarkType(c: Caller, fields: Body = {}): Promise<Row & { label: string }> {
  return ok(await c.post(remarkTypes.path, { label: `Remark type ${next()}`, category: 'exam', ...fields }));
}

/** A whole grade set as a POST body: the default bands for P7, term I, 2026 unless told. */
export function gradeSet(
  subjectId: string,
  {
    bands = DEFAULT_GRADE_BANDS.default,
    form = 'P7',
    term = 'I',
    year = 2026,
  }: { bands?: Bands; form?: string; term?: string; year?: number } = {},
) {
  return {
    form,
    term,
    year,
    subject_id: subjectId,
    lower: Object.fromEntries(bands.map(([grade, lower]) => [grade, lower])),
    upper: Object.fromEntries(bands.map(([grade, , upper]) => [grade, upper])),
  };
}

/** The one sheet of an `excel=1` answer, once its status and type are checked. */
export async function workbookOf(response: LightMyRequestResponse): Promise<ExcelJS.Worksheet> {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe(SPREADSHEET);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
  expect(workbook.worksheets).toHaveLength(1);
  return workbook.worksheets[0] as ExcelJS.Worksheet;
}

/** The sheet's values, row by row (the header row first). */
export function valuesOf(sheet: ExcelJS.Worksheet, columns: number): unknown[][] {
  const rows: unknown[][] = [];
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    rows.push(Array.from({ length: columns }, (_, c) => row.getCell(c + 1).value));
  }
  return rows;
}
