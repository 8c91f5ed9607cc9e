import { type ResourceDefinition, STAFF_RESOURCES } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { EXCEL_ATTACHMENT, newSubject, ok, type Row, valuesOf, workbookOf } from '../settings/settings-fixtures.js';

/*
 * Each of the six staff lists (issue 13 "Tests that must exist"), through the same checks: it
 * pages at 100 sorted ascending, searches, creates, updates (PUT), refuses the same record twice
 * (409), downloads with excel=1 (read back), is invisible to another school, and refuses a
 * teacher's writes. The rules peculiar to a list are in staff.test.ts.
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let people: { grace: string; peter: string };
let subject: string;

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Lists Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Elsewhere Primary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const grace = await makeUser(t.database, { name: 'Grace Auma', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const peter = await makeUser(t.database, { name: 'Peter Okello', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherHead = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, grace.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherHead.email), elsewhere.tenantcode);
  people = { grace: grace.id, peter: peter.id };
  subject = (await newSubject(head, { name: 'Mathematics' })).id;
});
afterAll(() => t.close());

/** Three digits: the 101 records of a list differ in this, and sort by it. */
const n = (index: number) => String(index).padStart(3, '0');

interface ListCase {
  /** The index-th record's body: 0 to 100 all differ in what makes a record unique. */
  body(index: number): Record<string, unknown>;
  /** A change that keeps the record's key (what an Update sends). */
  change(): Record<string, unknown>;
  /** A search that finds the index-th record alone. */
  search(index: number): string;
  /** The first row of the spreadsheet of the record `body(0)`, as the export columns print it. */
  exported: unknown[];
}

const CASES: Record<string, ListCase> = {
  subjectteachers: {
    body: (i) => ({ user_id: people.grace, subject_id: subject, form: 'P5', stream: `S${n(i)}`, term: 'I', year: 2026 }),
    change: () => ({ user_id: people.peter }),
    search: (i) => `S${n(i)}`,
    exported: ['Grace Auma', 'Mathematics', 'P5', 'S000', 'I', 2026],
  },
  classteachers: {
    body: (i) => ({ user_id: people.grace, form: 'P5', stream: `S${n(i)}`, term: 'I', year: 2026, category: 'primary' }),
    change: () => ({ category: 'co-teacher' }),
    search: (i) => `S${n(i)}`,
    exported: ['Grace Auma', 'P5', 'S000', 'I', 2026, 'primary'],
  },
  deputies: {
    body: (i) => ({ user_id: people.grace, form: 'P6', stream: `S${n(i)}` }),
    change: () => ({ user_id: people.peter }),
    search: (i) => `S${n(i)}`,
    exported: ['P6', 'S000', 'Grace Auma'],
  },
  gradefoots: {
    body: (i) => ({ form: 'P7', stream: `S${n(i)}`, details: 'D1 80-100, D2 75-79' }),
    change: () => ({ details: 'A 80-100, B 70-79' }),
    search: (i) => `S${n(i)}`,
    exported: ['P7', 'S000', 'D1 80-100, D2 75-79'],
  },
  reportfooters: {
    body: (i) => ({ title: `Footer ${n(i)}`, form: 'P7', term: 'I', year: 2026, category: 'exam', position: i, remarks: null }),
    change: () => ({ remarks: 'Fees UGX 450,000' }),
    search: (i) => `Footer ${n(i)}`,
    exported: ['Footer 000', 'P7', 'I', 2026, null, 'exam', 0],
  },
  subjectpapers: {
    // A subject, class and term has one record a year: the years 2000 to 2100 make 101.
    body: (i) => ({ form: 'P7', term: 'I', year: 2000 + i, subject_id: subject, papers: 2 }),
    change: () => ({ papers: 3 }),
    search: () => 'P7',
    exported: ['P7', 'I', 2000, 'Mathematics', 2],
  },
};

/** Ascending by each field in turn, numbers as numbers (position 10 after 9). */
function byFields(a: Array<string | number | null>, b: Array<string | number | null>): number {
  for (const [index, left] of a.entries()) {
    const right = b[index] ?? null;
    if (left === right) continue;
    if (left === null) return 1;
    if (right === null) return -1;
    return typeof left === 'number' && typeof right === 'number' ? left - right : String(left).localeCompare(String(right));
  }
  return 0;
}

/** Posts the bodies a few at a time: the same as one after another, in a fraction of the time. */
async function postAll(path: string, bodies: Array<Record<string, unknown>>) {
  for (let start = 0; start < bodies.length; start += 10)
    await Promise.all(bodies.slice(start, start + 10).map(async (body) => ok(await head.post(path, body))));
}

describe.each(STAFF_RESOURCES.map((resource) => [resource.name, resource] as const))('%s', (name, resource: ResourceDefinition) => {
  const list = CASES[name] as ListCase;
  const rows = (answer: Record<string, unknown>) => answer[resource.listKey] as Row[];

  it('pages at 100, sorted ascending, and searches', async () => {
    await postAll(
      resource.path,
      Array.from({ length: 101 }, (_, index) => list.body(index)),
    );
    const first = ok(await head.get(resource.path));
    expect(first.totalRecords).toBe(101);
    expect(rows(first)).toHaveLength(100);
    const keys = rows(first).map((row) => resource.sort.map(([field]) => row[field] as string | number | null));
    expect(keys).toEqual([...keys].sort(byFields));
    expect(rows(ok(await head.get(`${resource.path}?page=2`)))).toHaveLength(1);
    const found = ok(await head.get(`${resource.path}?search=${encodeURIComponent(list.search(42))}`));
    expect(name === 'subjectpapers' ? found.totalRecords : rows(found).length).toBe(name === 'subjectpapers' ? 101 : 1);
  });

  it('creates, updates with PUT, and refuses the same record twice with 409', async () => {
    const body = list.body(99);
    const existing = rows(ok(await head.get(`${resource.path}?per_page=1000`))).find((row) =>
      Object.entries(body).every(([field, value]) => row[field] === value || (field === 'year' && row.year === value)),
    );
    expect(existing, 'record 99 is listed').toBeDefined();
    const again = await head.post(resource.path, body);
    expect(again.statusCode, again.body).toBe(409);
    const updated = ok(await head.put(`${resource.path}/${existing?.id}`, { ...body, ...list.change() }));
    expect(updated).toMatchObject({ id: existing?.id, ...list.change() });
    expect(ok(await head.get(`${resource.path}/${existing?.id}`))).toMatchObject(list.change());
  });

  it('downloads with excel=1: the export columns, read back', async () => {
    const response = await head.get(`${resource.path}?excel=1`);
    expect(response.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    const sheet = valuesOf(await workbookOf(response), resource.exportColumns.length);
    expect(sheet[0]).toEqual(resource.exportColumns.map(([, header]) => header));
    expect(sheet).toHaveLength(102);
    expect(sheet[1]).toEqual(list.exported);
  });

  it('is invisible to another school, and refuses a teacher’s writes', async () => {
    const [record] = rows(ok(await head.get(resource.path)));
    expect((await other.get(resource.path)).json().totalRecords).toBe(0);
    expect((await other.get(`${resource.path}/${record?.id}`)).statusCode).toBe(404);
    expect((await other.put(`${resource.path}/${record?.id}`, list.body(0))).statusCode).toBe(404);
    expect((await other.delete(`${resource.path}/${record?.id}`)).statusCode).toBe(404);
    expect(ok(await teacher.get(resource.path)).totalRecords).toBe(101);
    expect((await teacher.post(resource.path, list.body(150))).statusCode).toBe(403);
    expect((await teacher.put(`${resource.path}/${record?.id}`, list.body(0))).statusCode).toBe(403);
    expect((await teacher.delete(`${resource.path}/${record?.id}`)).statusCode).toBe(403);
    expect(ok(await head.get(resource.path)).totalRecords).toBe(101);
  });
});
