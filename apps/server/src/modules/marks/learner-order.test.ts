import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newMarkType, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * Every learner grid, sheet and card of a class lists its learners as the class list and a
 * school's register do: surname, then first name (issue 23 item 17). A teacher pastes a column
 * typed from the register, so a grid in first-name order put every mark on someone else. The
 * names are chosen so that first-name order and surname order differ at every place.
 */

let t: TestApp;
let head: Caller;
let maths: Row;
let markType: Row;
const YEAR = new Date().getFullYear();

/** By surname then first name; the first names run nearly backwards, so the two orders differ at almost every place. */
const REGISTER = [
  ['Yusuf', 'Achieng'],
  ['Zaina', 'Achieng'],
  ['Amos', 'Baguma'],
  ['Xavier', 'Kato'],
  ['Brenda', 'Mugisha'],
  ['Winnie', 'Nakato'],
] as const;
/** What the register expects, by student id (given in first-name order, so neither do ids follow the register). */
let expected: string[];

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Register Primary' });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, user.email), school.tenantcode);
  maths = await newSubject(head, { name: 'Mathematics' });
  markType = await newMarkType(head);
  const byFirstName = [...REGISTER].sort(([a], [b]) => a.localeCompare(b));
  const rows = byFirstName.map(([firstname, lastname], index) => ({
    tenant_id: school.id,
    id: newId(),
    studentid: `R-${index + 1}`,
    firstname,
    lastname,
    form: 'P5',
    stream: 'East',
  }));
  await withTenant(t.database.db, { tenantId: school.id }, (trx) => trx.insertInto('students').values(rows).execute());
  const idOf = new Map(rows.map((row) => [`${row.firstname} ${row.lastname}`, row.studentid]));
  expected = REGISTER.map(([firstname, lastname]) => idOf.get(`${firstname} ${lastname}`) as string);
  // A mark each, so the report card and the lists have every learner.
  const gridPlace = { form: 'P5', stream: 'East', term: 'I', year: YEAR, subject_id: maths.id, paper: 'I' };
  const marks = Object.fromEntries(rows.map((row, index) => [row.id, 50 + index]));
  ok(await head.post('/api/school/marks', { ...gridPlace, save_id: newId(), marks: { [markType.id]: marks }, base: {} }));
});
afterAll(() => t.close());

const place = { form: 'P5', stream: 'East', term: 'I', year: YEAR };
const ids = (rows: Array<{ studentid: string }>) => rows.map((row) => row.studentid);

describe('the order of learners', () => {
  it('is surname then first name in the marks grid and its downloaded sheet', async () => {
    const query = { ...place, subject_id: maths.id, paper: 'I', marktypes: [markType.id] };
    const grid = ok(await head.post('/api/school/marks/grid', query));
    expect(ids(grid.students.map((row: { student: { studentid: string } }) => row.student))).toEqual(expected);

    const sheet = await head.post('/api/school/marks/grid', { ...query, excel: '1' });
    expect(sheet.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.rawPayload as unknown as ArrayBuffer);
    const listed: string[] = [];
    workbook.worksheets[0]?.eachRow((row) => {
      const id = String(row.getCell(1).value ?? '');
      if (expected.includes(id)) listed.push(id);
    });
    expect(listed).toEqual(expected);
  });

  it('is surname then first name in attendance, targets and the marks list', async () => {
    const attendance = ok(await head.post('/api/school/attendances', place));
    expect(ids(attendance.students.map((row: { student: { studentid: string } }) => row.student))).toEqual(expected);
    const targets = ok(await head.post('/api/school/marktargets', { ...place, subject_id: maths.id }));
    expect(ids(targets.map((row: { student: { studentid: string } }) => row.student))).toEqual(expected);

    const marks = ok(await head.get(`/api/school/marks?form=P5&stream=East&term=I&year=${YEAR}&marktype_id=${markType.id}`));
    expect(ids(marks.marks.map((row: { student: { studentid: string } }) => row.student))).toEqual(expected);
  });

  it('is surname then first name in subject comments, generic skills, report comments and the report cards', async () => {
    const comments = `/api/school/markcomments?form=P5&stream=East&term=I&year=${YEAR}&subject_id=${maths.id}`;
    expect(ids(ok(await head.get(comments)).students)).toEqual(expected);
    expect(ids(ok(await head.get(comments.replace('markcomments', 'genericcomments'))).students)).toEqual(expected);
    expect(ids(ok(await head.get(`/api/school/remarks?form=P5&stream=East&term=I&year=${YEAR}`)).students)).toEqual(expected);
    const report = ok(await head.get(`/api/school/terminalreport?form=P5&stream=East&term=I&year=${YEAR}&json=1`));
    expect(ids(report.learners)).toEqual(expected);
  });
});
