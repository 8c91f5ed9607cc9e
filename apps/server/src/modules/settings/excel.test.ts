import { grades, remarkTypes, subjects } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { EXCEL_ATTACHMENT, gradeSet, ok, type Row, SPREADSHEET, valuesOf, workbookOf } from './settings-fixtures.js';

/*
 * `excel=1` (spec §9): the list as an .xlsx file named mustard-<timestamp>.xlsx, every record
 * of the filtered list (no paging), headers from the resource's exportColumns, and text that
 * looks like a formula kept as text (security.md, spreadsheet injection).
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;

const SUBJECT_HEADERS = subjects.exportColumns.map(([, header]) => header);
const FORMULA_LIKE = ['=HYPERLINK("http://evil","x")', '+SUM(1,1)', '-2+3', '@cmd|calc'];

beforeAll(async () => {
  t = await buildTestApp();
  const [school, elsewhere] = [
    await makeTenant(t.database, { name: 'Excel Primary' }),
    await makeTenant(t.database, { name: 'Other Primary' }),
  ];
  const headUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  for (let i = 1; i <= 30; i++) {
    ok(await head.post(subjects.path, { name: `Subject ${String(i).padStart(2, '0')}`, category: 'general', position: i }));
  }
  ok(await other.post(subjects.path, { name: 'Their subject', category: 'general' }));
});
afterAll(() => t.close());

describe('excel=1', () => {
  it('answers an .xlsx attachment named mustard-<timestamp>.xlsx', async () => {
    const response = await head.get(`${subjects.path}?excel=1`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(SPREADSHEET);
    expect(response.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    // An .xlsx is a zip file.
    expect(response.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('holds the definition’s headers and every record, not one page', async () => {
    const sheet = await workbookOf(await head.get(`${subjects.path}?excel=1&page=2&per_page=10`));
    expect(sheet.name).toBe('subjects');
    const values = valuesOf(sheet, SUBJECT_HEADERS.length);
    expect(values[0]).toEqual(SUBJECT_HEADERS);
    const list = ok(await head.get(`${subjects.path}?per_page=1000`));
    expect(values).toHaveLength(1 + list.totalRecords);
    expect(values.slice(1)).toEqual(
      list.subjects.map((row: Row) => subjects.exportColumns.map(([field]) => (row[field] === undefined ? null : row[field]))),
    );
    expect(values.slice(1, 31).map((row) => row[0])).toEqual(
      Array.from({ length: 30 }, (_, i) => `Subject ${String(i + 1).padStart(2, '0')}`),
    );
    expect(values[1]).toEqual(['Subject 01', 'general', 1, null, true, null, null, false, null]);
  });

  it('keeps the search and filters of the list', async () => {
    const searched = valuesOf(await workbookOf(await head.get(`${subjects.path}?excel=1&search=ject%202`)), 1);
    expect(searched.slice(1).map(([name]) => name)).toEqual(Array.from({ length: 10 }, (_, i) => `Subject ${20 + i}`));
    ok(await head.post(subjects.path, { name: 'Retired subject', category: 'general', active: false }));
    const inactive = valuesOf(await workbookOf(await head.get(`${subjects.path}?excel=true&active=false`)), 1);
    expect(inactive).toEqual([['Name'], ['Retired subject']]);
  });

  it('answers JSON for excel=0', async () => {
    expect(ok(await head.get(`${subjects.path}?excel=0`))).toHaveProperty('subjects');
  });

  it('holds only the school’s own records', async () => {
    const values = valuesOf(await workbookOf(await other.get(`${subjects.path}?excel=1`)), 1);
    expect(values).toEqual([['Name'], ['Their subject']]);
  });

  it('is open to every member, as the list is', async () => {
    await workbookOf(await teacher.get(`${subjects.path}?excel=1`));
  });

  it('keeps text that starts like a formula as text, never a formula', async () => {
    for (const name of FORMULA_LIKE) ok(await head.post(subjects.path, { name, category: 'general', abbreviation: name.slice(0, 4) }));
    const sheet = await workbookOf(await head.get(`${subjects.path}?excel=1`));
    const names = new Map<string, ExcelJS.Row>();
    sheet.eachRow((row) => names.set(String(row.getCell(1).value), row));
    for (const name of FORMULA_LIKE) {
      const row = names.get(name);
      expect(row, name).toBeDefined();
      for (const [cell, text] of [
        [row?.getCell(1), name],
        [row?.getCell(4), name.slice(0, 4)],
      ] as const) {
        expect(cell?.value, name).toBe(text);
        expect(cell?.type, name).toBe(ExcelJS.ValueType.String);
        expect(cell?.formula, name).toBeUndefined();
        expect(cell?.numFmt, name).toBe('@');
      }
    }
  });

  it('names the referenced records (a grade’s subject)', async () => {
    const subject = ok(await head.post(subjects.path, { name: 'Graded subject', category: 'general' }));
    ok(
      await head.post(
        grades.path,
        gradeSet(subject.id, {
          bands: [
            ['A', 50, 100],
            ['B', 0, 49],
          ],
        }),
      ),
    );
    const values = valuesOf(await workbookOf(await head.get(`${grades.path}?excel=1&subject_id=${subject.id}`)), 7);
    expect(values).toEqual([
      ['Subject', 'Class', 'Term', 'Year', 'Grade', 'Lower', 'Upper'],
      ['Graded subject', 'P7', 'I', 2026, 'A', 50, 100],
      ['Graded subject', 'P7', 'I', 2026, 'B', 0, 49],
    ]);
  });

  it('lists each remark type’s sub categories after it', async () => {
    const parent = ok(await head.post(remarkTypes.path, { label: 'Conduct', category: 'exam', position: 1 }));
    ok(await head.post(remarkTypes.path, { label: 'Honesty', category: 'exam', parent_id: parent.id }));
    ok(await head.post(remarkTypes.path, { label: 'Attendance', category: 'exam', position: 2 }));
    const values = valuesOf(await workbookOf(await head.get(`${remarkTypes.path}?excel=1`)), 1);
    expect(values).toEqual([['Name'], ['Conduct'], ['Honesty'], ['Attendance']]);
  });
});
