import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_GRADING_RULES, DEFAULT_REPORT_LAYOUT, ERROR_MESSAGES, routeTenantKind, TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.js';
import { withTenant } from '../db/tenant.js';
import { setCodeTenantFilterForTests } from '../db/tenant-filter.js';
import { gradeSet, ok } from '../modules/settings/settings-fixtures.js';
import { type AppRoute, appRoutes } from '../test/app-routes.js';
import { makeMarks, makeStudents, makeTenant, makeUser, roleNamesIn } from '../test/factories.js';
import { buildTestApp, type Caller, caller, login } from '../test/test-app.js';

/**
 * Tenant isolation from the route table (issue 11 point 8; security.md items 5 and 6). Every
 * route the app registers is either exempt here with a reason (not a tenant route) or checked,
 * twice: with the code's tenant filter on, and off so PostgreSQL's row-level security alone keeps
 * the tenants apart. The caller is a superadmin of school A; school B has a record of every kind.
 *
 * - A route with a path parameter answers 404 to B's record, for every method, while A's own
 *   record answers 200 to the same request (so the 404 is about the tenant, not the request),
 *   and B's record is as it was afterwards.
 * - A list (GET without a parameter) answers A's records and nothing of B's: no id, name, code.
 * - A write without a parameter lands in A only; one naming B's records is refused by name.
 *
 * The routes come from the live route table; a route that appears without an entry in the
 * fixture maps below (RECORDS, LISTS, WRITES) or in EXEMPT fails this file: add it.
 * Business routes (issue 31) answer any school 404 (security/tenant-kinds.test.ts), so they are
 * checked the same way between two businesses, Charlie asking and Delta holding the records
 * (BUSINESS_RECORDS, BUSINESS_LISTS, BUSINESS_WRITES).
 */

const SPREADSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const NOT_FOUND = { statusCode: 404, message: ERROR_MESSAGES[404] };

/** Routes that are not tenant routes, with the reason. Nothing under /api may be here. */
const EXEMPT: Record<string, string> = {
  'GET /healthz': 'liveness probe: public, answers no tenant data',
  'GET /readyz': 'readiness probe: public, answers no tenant data',
  'POST /auth/type': 'sign-in step before a tenant is chosen (public)',
  'POST /auth/login': 'sign-in: before a tenant is chosen; lists only the person’s own memberships',
  'POST /auth/redeemcode': 'sign-in with a one-time code: before a tenant is chosen (public)',
  'GET /auth/external/callback': 'the OpenID provider’s return: before a tenant is chosen (public); external-signin.test.ts',
  'POST /auth/notify': 'the public launch-notification form: a global table',
  'POST /auth/logout': 'ends the caller’s own session: no tenant record',
  'POST /auth/password': 'changes the caller’s own password: no tenant record',
  'POST /auth/password/reset': 'public: mails a reset link to an account, a global table; password-reset.test.ts',
  'POST /auth/password/reset/confirm': 'public: the link’s token sets its own account’s password; password-reset.test.ts',
  'POST /auth/register': 'public: keeps a registration waiting for its e-mail to be verified, a global table; registration.test.ts',
  'POST /auth/register/verify':
    'public: the link’s token makes its own new tenant and account, no existing tenant’s rows; registration.test.ts',
  'POST /auth/register/resend': 'public: mails a waiting registration’s link again, a global table; registration.test.ts',
  'GET /auth/join': 'public: one invitation found by its code (its own RLS policy); users.test.ts',
  'POST /auth/join': 'public: joins with an invitation’s code (its own RLS policy); users.test.ts',
  'GET /auth/invitations': 'signed in, no tenant: the person’s own invitations (app.user_id policy)',
  'POST /auth/invitations/:id/accept': 'signed in, no tenant: needs the invitation’s code; users.test.ts tries others’',
  'POST /auth/invitations/:id/decline': 'signed in, no tenant: needs the invitation’s code; users.test.ts tries others’',
  'GET /*': 'the web app’s own files: no data',
  'POST /efris-fake/ws/taapp/getInformation': 'the local fake of URA’s EFRIS API (EFRIS_FAKE): URA’s side, no tenant; efris.test.ts',
};

// ---------------------------------------------------------------------------------------------
// The app, its live route table, and the two schools.

const webDist = mkdtempSync(path.join(tmpdir(), 'mustard-web-'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Mustard</title>');
const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-isolation-'));
const t = await buildTestApp({ webDist, dataDir, efrisFake: true });

const ROUTES = await appRoutes(t.config, t.database);

type SideName = 'A' | 'B';
interface Ids {
  /** A learner of P2 with a mark saved through the grid (and so a history). */
  marked: string;
  studentcategory: string;
  subject: string;
  location: string;
  marktype: string;
  grade: string;
  proportion: string;
  publishmark: string;
  alevelscore: string;
  remarktype: string;
  remarksub: string;
  automarkcomment: string;
  autoreportcomment: string;
  student: string;
  user: string;
  invitation: string;
  subjectteacher: string;
  classteacher: string;
  deputy: string;
  gradefoot: string;
  reportfooter: string;
  subjectpaper: string;
  /** The marked learner's target in the side's subject. */
  target: string;
  /** A competency and a project of the side's subject (issue 26). */
  topic: string;
  project: string;
}
interface Side {
  name: SideName;
  /** In every name of the side's records, so a list can be searched for the other side's. */
  mark: string;
  tenantName: string;
  tenant: { id: string; tenantcode: string };
  token: string;
  /** The side's head (superadmin), who asks every route of the matrix. */
  adminId: string;
  c: Caller;
  ids: Ids;
  studentid: string;
  userEmail: string;
  /** The side's statement lines (fee journal), ids. */
  lines: string[];
  /** Every learner of the side, ids. */
  learners: string[];
}

const A = { name: 'A', mark: 'Alpha', tenantName: 'Alpha Primary School' } as Side;
const B = { name: 'B', mark: 'Bravo', tenantName: 'Bravo Primary School' } as Side;

/** Who asks or answers a route of the matrix: a school (Side) or a business (Shop). */
type Party = Pick<Side, 'token' | 'tenant'>;
/**
 * A business (issue 31): the business routes answer a school's member 404 whatever the record
 * (the tenant-kind wall, security/tenant-kinds.test.ts), so they are held apart here between two
 * businesses, Charlie's caller against Delta's records, as the school routes are between A and B.
 */
interface Shop extends Party {
  mark: string;
  tenantName: string;
  adminId: string;
  c: Caller;
  /** The shop's records of each kind, by the name its fixtures give them (seedShop). */
  ids: Record<string, string>;
}
const C = { mark: 'Charlie', tenantName: 'Charlie Traders' } as Shop;
const D = { mark: 'Delta', tenantName: 'Delta Traders' } as Shop;
/** B's term dates of 2027 (nothing like the defaults). */
/** B's own grading rules and report layout (A keeps the defaults). */
const B_RULES = {
  ...DEFAULT_GRADING_RULES,
  primary: {
    ...DEFAULT_GRADING_RULES.primary,
    divisions: [{ division: 'BETA I', aggregateAtMost: 13 }, ...DEFAULT_GRADING_RULES.primary.divisions.slice(1)],
  },
};
const B_LAYOUT = { ...DEFAULT_REPORT_LAYOUT, headerLines: ['Beta motto'], showPositions: false };

const B_TERMS_2027 = [
  { term: 'I', starts: '2027-01-04', ends: '2027-03-19' },
  { term: 'II', starts: '2027-04-05', ends: '2027-07-16' },
  { term: 'III', starts: '2027-08-02', ends: '2027-11-12' },
];

let serial = 0;
const next = () => ++serial;
/** A-level score rows are unique by paper count and total (at most 60): their own count. */
let totals = 0;
const nextTotal = () => totals++;
/** Staff assignments vary by year (2000 to 2025, which no other record uses): their own count. */
let staffYears = 2000;
const nextStaffYear = () => staffYears++;
/**
 * Grade sets, proportions and publish rows of A's are unique by year: years of their own (2030
 * on, at most 70 of them), not the serial, which every other fixture draws from too.
 */
let recordYears = 2030;
const nextRecordYear = () => {
  if (recordYears > 2100) throw new Error('The isolation test ran out of record years: give the fixtures another way to differ');
  return recordYears++;
};

/** The bodies of each kind of record, for a side: what it is created with, and A's PUT body. */
const BODY = {
  subjectteachers: (s: Side) => ({
    user_id: s.ids.user,
    subject_id: s.ids.subject,
    form: 'P7',
    stream: `${s.mark} stream`,
    term: 'I',
    year: 2026,
  }),
  classteachers: (s: Side) => ({ user_id: s.ids.user, form: 'P7', stream: `${s.mark} stream`, term: 'I', year: 2026, category: 'primary' }),
  deputies: (s: Side) => ({ user_id: s.ids.user, form: 'P7', stream: `${s.mark} stream` }),
  gradefoots: (s: Side) => ({ form: 'P7', stream: `${s.mark} stream`, details: `${s.mark}: D1 80-100` }),
  reportfooters: (s: Side) => ({
    title: `${s.mark} next term`,
    form: 'P7',
    term: 'I',
    year: 2026,
    category: 'exam',
    remarks: `${s.mark} remarks`,
  }),
  subjectpapers: (s: Side) => ({ form: 'P7', term: 'I', year: 2026, subject_id: s.ids.subject, papers: 2 }),
  topics: (s: Side) => ({
    form: 'P4',
    term: 'I',
    subject_id: s.ids.subject,
    title: `${s.mark} number bases`,
    remarks: `${s.mark} remarks`,
  }),
  projects: (s: Side) => ({ form: 'P4', term: 'I', year: 2026, subject_id: s.ids.subject, title: `${s.mark} garden`, max_score: 10 }),
  studentcategories: (s: Side) => ({ name: `${s.mark} boarders` }),
  subjects: (s: Side) => ({ name: `${s.mark} Mathematics`, category: 'mathematics' }),
  locations: (s: Side) => ({ name: `${s.mark} store` }),
  marktypes: (s: Side) => ({ label: `${s.mark} end of term`, category: 'exam' }),
  grades: (s: Side) => ({ form: 'P7', term: 'I', year: 2026, subject_id: s.ids.subject, grade: 'D1', lower: 80, upper: 100 }),
  proportions: (s: Side) => ({
    form: 'P7',
    term: 'I',
    year: 2026,
    subject_id: s.ids.subject,
    marktype_id: s.ids.marktype,
    percentage: 50,
  }),
  publishmarks: (s: Side) => ({ term: 'I', year: 2026, marktype_id: s.ids.marktype }),
  alevelscores: (_s: Side) => ({ total: 12, score: 5, papercount: 3 }),
  remarktypes: (s: Side) => ({ label: `${s.mark} conduct`, category: 'exam' }),
  automarkcomments: (s: Side) => ({ score: 'D1', comment: `${s.mark}: excellent work` }),
  autoreportcomments: (s: Side) => ({
    form: 'P7',
    remarktype_id: s.ids.remarktype,
    score: 0,
    upper: 100,
    comment: `${s.mark}, keep it up`,
  }),
  students: (s: Side) => ({
    studentid: s.studentid,
    firstname: s.mark,
    lastname: 'Learner',
    gender: 'F',
    form: 'P7',
    studentcategory_id: s.ids.studentcategory,
  }),
  users: (_s: Side) => ({ roles: ['bursar'] }),
  tenants: (s: Side) => ({ name: s.tenantName, tenantcode: s.tenant.tenantcode, category: 'School' }),
};

function send(side: Party, method: string, url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${side.token}`, [TENANT_HEADER]: side.tenant.tenantcode },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** A multipart form (text fields and a file), as the browser sends the learner form and uploads. */
async function sendForm(
  side: Party,
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string | number>,
  file?: { field: string; bytes: Buffer; name: string; type?: string },
): Promise<LightMyRequestResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, String(value));
  if (file) form.set(file.field, new Blob([new Uint8Array(file.bytes)], file.type ? { type: file.type } : {}), file.name);
  const request = new Request('http://mustard.test/', { method: 'POST', body: form });
  return t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${side.token}`,
      [TENANT_HEADER]: side.tenant.tenantcode,
      'content-type': request.headers.get('content-type') as string,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

/** A fee journal sheet: student id, name, date, particulars, the invoice at column 7. */
async function journal(rows: Array<{ studentid: string; amount: number }>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Journal');
  sheet.getRow(1).values = ['Student id', 'Name', '', '', 'Date', 'Particulars', 'Invoice'];
  rows.forEach((row, index) => {
    const cells = sheet.getRow(index + 2);
    cells.getCell(1).value = row.studentid;
    cells.getCell(2).value = 'A Learner';
    cells.getCell(5).value = new Date(Date.UTC(2026, 1, 10));
    cells.getCell(6).value = 'Tuition';
    cells.getCell(7).value = row.amount;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A learners sheet of the upload: the header row, then one row per learner. */
async function learnersSheet(rows: Array<Record<string, string>>): Promise<Buffer> {
  const header = ['studentid', 'firstname', 'lastname', 'gender', 'form', 'category'];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Students');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(header.map((name) => row[name] ?? null));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A school's badge of one colour, uploaded by the side. */
const sendBadge = async (side: Side, background: string) =>
  sendForm(
    side,
    'PUT',
    '/api/school/logo',
    {},
    {
      field: 'logo',
      bytes: await sharp({ create: { width: 64, height: 64, channels: 3, background } })
        .png()
        .toBuffer(),
      name: 'badge.png',
      type: 'image/png',
    },
  );

const uploadJournal = (side: Side, rows: Array<{ studentid: string; amount: number }>) =>
  journal(rows).then((bytes) =>
    sendForm(side, 'POST', '/api/uploads/studentjournals', { term: 'I', year: 2026 }, { field: 'file', bytes, name: 'journal.xlsx' }),
  );

const uploadLearners = (side: Side, rows: Array<Record<string, string>>) =>
  learnersSheet(rows).then((bytes) =>
    sendForm(side, 'POST', '/api/school/students/upload', {}, { field: 'file', bytes, name: 'class.xlsx' }),
  );

/** One record of a side, read in that side's transaction (undefined when gone). */
function rowOf(table: string, side: Party, id: string) {
  return withTenant(t.database.db, { tenantId: side.tenant.id }, (trx) =>
    (trx as unknown as Kysely<any>).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst(),
  );
}

/** Every row of a side in some tables, read in that side's transaction, in a stable order. */
function rowsOf(side: Party, tables: ReadonlyArray<string>) {
  return withTenant(t.database.db, { tenantId: side.tenant.id }, async (trx) => {
    const all: Record<string, string[]> = {};
    for (const table of tables) {
      const rows = await (trx as unknown as Kysely<any>).selectFrom(table).selectAll().execute();
      all[table] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return all;
  });
}

const tenantRow = (id: string) => t.database.db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();

/** What of B must never show in A's answers: every id, B's name mark, codes and e-mail. */
function secretsOfB(): string[] {
  return [...Object.values(B.ids), ...B.lines, ...B.learners, B.tenant.id, B.tenant.tenantcode, B.userEmail, B.mark, B.studentid];
}

/** An answer as text: JSON as sent, a spreadsheet as the text of every cell of every sheet. */
async function answerText(response: LightMyRequestResponse): Promise<string> {
  if (!String(response.headers['content-type'] ?? '').startsWith(SPREADSHEET)) return response.body;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const lines: string[] = [];
  for (const sheet of workbook.worksheets) sheet.eachRow((row) => lines.push(JSON.stringify(row.values)));
  return lines.join('\n');
}

function expectNothingOfB(text: string, where: string) {
  const lower = text.toLowerCase();
  for (const secret of secretsOfB()) expect(lower.includes(secret.toLowerCase()), `${where} shows B's ${secret}`).toBe(false);
}

/** Switches the code's tenant filter; cached sign-in state computed under the other setting is dropped. */
function codeFilter(enabled: boolean) {
  setCodeTenantFilterForTests(enabled);
  t.database.changes.bump();
}

async function seed(side: Side) {
  side.tenant = await makeTenant(t.database, { name: side.tenantName });
  const admin = await makeUser(t.database, { name: `${side.mark} Admin`, memberOf: [{ tenantId: side.tenant.id, roles: ['superadmin'] }] });
  side.token = await login(t.app, admin.email);
  side.adminId = admin.id;
  side.c = caller(t.app, side.token, side.tenant.tenantcode);
  side.studentid = `${side.mark.toUpperCase()}/0001`;
  side.ids = {} as Ids;
  const ids = side.ids;
  const post = async (url: string, body: unknown) => ok(await side.c.post(url, body)).id as string;

  ids.studentcategory = await post('/api/school/studentcategories', BODY.studentcategories(side));
  ids.subject = await post('/api/school/subjects', BODY.subjects(side));
  ids.location = await post('/api/locations', BODY.locations(side));
  ids.marktype = await post('/api/school/marktypes', BODY.marktypes(side));
  const set = ok(await side.c.post('/api/school/grades', gradeSet(ids.subject, { form: 'P7', term: 'I', year: 2026 })));
  ids.grade = set.grades.find((grade: { grade: string }) => grade.grade === 'D1').id;
  ids.proportion = await post('/api/school/proportions', BODY.proportions(side));
  ids.publishmark = await post('/api/school/publishmarks', BODY.publishmarks(side));
  ids.alevelscore = await post('/api/school/alevelscores', BODY.alevelscores(side));
  ids.remarktype = await post('/api/school/remarktypes', BODY.remarktypes(side));
  ids.remarksub = await post('/api/school/remarktypes', { label: `${side.mark} punctuality`, category: 'exam', parent_id: ids.remarktype });
  ids.automarkcomment = await post('/api/school/automarkcomments', BODY.automarkcomments(side));
  ids.autoreportcomment = await post('/api/school/autoreportcomments', BODY.autoreportcomments(side));

  // A learner with a photo, marks and a fee line; more learners for the dashboard and promotion.
  const photo = await sharp({ create: { width: 60, height: 80, channels: 3, background: '#c90' } })
    .jpeg()
    .toBuffer();
  const student = await sendForm(side, 'POST', '/api/school/students', BODY.students(side), {
    field: 'photo',
    bytes: photo,
    name: 'photo.jpg',
    type: 'image/jpeg',
  });
  ids.student = ok(student).id;
  // Each school's badge, of its own colour.
  ok(await sendBadge(side, side.name === 'A' ? '#a00' : '#0a0'));
  await makeMarks(t.database, side.tenant.id, ids.student, [
    { subjectId: ids.subject, marktypeId: ids.marktype, form: 'P7', term: 'I', year: 2026, mark: 74.5 },
  ]);
  ok(await uploadJournal(side, [{ studentid: side.studentid, amount: 150_000 }]));
  side.lines = (
    await withTenant(t.database.db, { tenantId: side.tenant.id }, (trx) => trx.selectFrom('statement_lines').select('id').execute())
  ).map((row) => row.id);
  await makeStudents(t.database, side.tenant.id, side.name === 'A' ? 'P3' : 'P5', side.name === 'A' ? 2 : 4);
  // A's P3 is on the new curriculum in 2026: the new-curriculum comments have a class to answer (issue 27 point 3).
  if (side.name === 'A') await onCurriculum(side, 2026, 'P3', 'new');
  // Each side's P4 is on the new curriculum in 2026 and this year: the class of its competency and project.
  for (const year of new Set([2026, new Date().getFullYear()])) await onCurriculum(side, year, 'P4', 'new');
  side.learners = (
    await withTenant(t.database.db, { tenantId: side.tenant.id }, (trx) => trx.selectFrom('students').select('id').execute())
  ).map((row) => row.id);

  // A member of the side only, and an invitation the side sent.
  const member = await makeUser(t.database, { name: `${side.mark} Teacher`, memberOf: [{ tenantId: side.tenant.id, roles: ['teacher'] }] });
  ids.user = member.id;
  side.userEmail = member.email;
  ids.invitation = ok(
    await side.c.post('/api/users', {
      name: `${side.mark} Invitee`,
      email: `${side.mark.toLowerCase()}-invitee@school.test`,
      roles: ['teacher'],
    }),
  ).id;

  // Staff assignments naming the side's teacher and subject.
  ids.subjectteacher = await post('/api/school/subjectteachers', BODY.subjectteachers(side));
  ids.classteacher = await post('/api/school/classteachers', BODY.classteachers(side));
  ids.deputy = await post('/api/school/deputies', BODY.deputies(side));
  ids.gradefoot = await post('/api/school/gradefoots', BODY.gradefoots(side));
  ids.reportfooter = await post('/api/school/reportfooters', BODY.reportfooters(side));
  ids.subjectpaper = await post('/api/school/subjectpapers', BODY.subjectpapers(side));
  ids.topic = await post('/api/school/topics', BODY.topics(side));
  ids.project = await post('/api/school/projects', BODY.projects(side));

  // A mark saved through the grid, so the learner's mark has a history.
  ids.marked = await gridLearner(side);
  ok(await side.c.post('/api/school/marks', markSave(side)));
  // The marked learner's attendance and target.
  ok(await side.c.post('/api/school/attendances', { ...classTerm(), totaldays: 60, daysattended: { [ids.marked]: 55 } }));
  ok(await side.c.post('/api/school/marktargets', { ...classTerm(), subject_id: ids.subject, target: { [ids.marked]: 70 } }));
  ids.target = ok(await side.c.get('/api/school/marktargets?form=P2&term=I&year=2026')).marktargets[0].id;
}

beforeAll(async () => {
  await seed(A);
  await seed(B);
  ok(await B.c.put('/api/school/termdates', { year: 2027, terms: B_TERMS_2027 }));
  ok(await B.c.put('/api/school/gradingrules', { rules: B_RULES, version: 0 }));
  ok(await B.c.put('/api/school/reportlayout', { layout: B_LAYOUT, version: 1 }));
});

afterAll(async () => {
  codeFilter(true);
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

interface Mode {
  name: string;
  filter: boolean;
}
const MODES: Mode[] = [
  { name: 'code filter and RLS', filter: true },
  { name: 'RLS alone (code tenant filter off)', filter: false },
];

// ---------------------------------------------------------------------------------------------
// Routes with a path parameter: B's record answers 404, A's answers 200, B's stays as it was.

interface RecordFixture<S extends Party = Side> {
  /** The record of a side that the path's :id names. */
  id(side: S): string;
  /** PUT (or POST): a body the route accepts for A's own record. */
  body?(side: S): unknown;
  /** B's record as stored (and what hangs on it), to compare before and after each call. */
  stored(): Promise<unknown>;
  /** DELETE: a new record of A's, for the control (A's own record is deleted with 200). */
  spare?(): Promise<string>;
}

const resource = (
  key: keyof Ids,
  table: string,
  body?: (side: Side) => unknown,
  spare?: (n: number) => [url: string, body: unknown],
): RecordFixture => ({
  id: (side) => side.ids[key],
  body,
  stored: () => rowOf(table, B, B.ids[key]),
  ...(spare ? { spare: async () => ok(await A.c.post(...spare(next()))).id } : {}),
});

/** A staff assignment's record routes; its spare differs by year or stream (nextStaffYear). */
const staffRecord = (key: keyof Ids, table: string, name: keyof typeof BODY, spare: () => unknown): RecordFixture => ({
  ...resource(key, table, BODY[name]),
  spare: async () => ok(await A.c.post(`/api/school/${name}`, spare())).id,
});

const RECORDS: Record<string, RecordFixture> = {
  '/api/school/subjectteachers/:id': staffRecord('subjectteacher', 'subject_teachers', 'subjectteachers', () => ({
    ...BODY.subjectteachers(A),
    year: nextStaffYear(),
  })),
  '/api/school/classteachers/:id': staffRecord('classteacher', 'class_teachers', 'classteachers', () => ({
    ...BODY.classteachers(A),
    year: nextStaffYear(),
  })),
  '/api/school/deputies/:id': staffRecord('deputy', 'deputies', 'deputies', () => ({
    ...BODY.deputies(A),
    stream: `Spare ${nextStaffYear()}`,
  })),
  '/api/school/gradefoots/:id': staffRecord('gradefoot', 'grade_footers', 'gradefoots', () => ({
    ...BODY.gradefoots(A),
    stream: `Spare ${nextStaffYear()}`,
  })),
  '/api/school/reportfooters/:id': staffRecord('reportfooter', 'report_footers', 'reportfooters', () => ({
    ...BODY.reportfooters(A),
    year: nextStaffYear(),
  })),
  '/api/school/subjectpapers/:id': staffRecord('subjectpaper', 'subject_papers', 'subjectpapers', () => ({
    ...BODY.subjectpapers(A),
    year: nextStaffYear(),
  })),
  '/api/school/topics/:id': resource('topic', 'topics', BODY.topics, (n) => [
    '/api/school/topics',
    { ...BODY.topics(A), title: `Alpha spare ${n}` },
  ]),
  '/api/school/projects/:id': resource('project', 'projects', BODY.projects, (n) => [
    '/api/school/projects',
    { ...BODY.projects(A), title: `Alpha spare ${n}` },
  ]),
  '/api/locations/:id': resource('location', 'locations', BODY.locations, (n) => ['/api/locations', { name: `Alpha spare ${n}` }]),
  '/api/school/alevelscores/:id': resource('alevelscore', 'alevel_scores', BODY.alevelscores, (_n) => [
    '/api/school/alevelscores',
    { total: nextTotal(), score: 1, papercount: 5 },
  ]),
  '/api/school/automarkcomments/:id': resource('automarkcomment', 'auto_mark_comments', BODY.automarkcomments, (n) => [
    '/api/school/automarkcomments',
    { score: `X${n}`, comment: 'Alpha spare' },
  ]),
  '/api/school/autoreportcomments/:id': resource('autoreportcomment', 'auto_report_comments', BODY.autoreportcomments, (n) => [
    '/api/school/autoreportcomments',
    { form: 'P5', remarktype_id: A.ids.remarktype, score: n, upper: 100, comment: 'Alpha spare' },
  ]),
  '/api/school/grades/:id': {
    ...resource('grade', 'grades', BODY.grades),
    spare: async () => ok(await A.c.post('/api/school/grades', gradeSet(A.ids.subject, { year: nextRecordYear() }))).grades[0].id,
  },
  '/api/school/marktypes/:id': resource('marktype', 'mark_types', BODY.marktypes, (n) => [
    '/api/school/marktypes',
    { label: `Alpha spare ${n}`, category: 'test' },
  ]),
  '/api/school/proportions/:id': resource('proportion', 'proportions', BODY.proportions, () => [
    '/api/school/proportions',
    { ...BODY.proportions(A), term: 'III', year: nextRecordYear() },
  ]),
  '/api/school/publishmarks/:id': resource('publishmark', 'publish_marks', BODY.publishmarks, () => [
    '/api/school/publishmarks',
    { term: 'III', year: nextRecordYear(), marktype_id: A.ids.marktype },
  ]),
  '/api/school/remarktypes/:id': resource('remarktype', 'remark_types', BODY.remarktypes, (n) => [
    '/api/school/remarktypes',
    { label: `Alpha spare ${n}`, category: 'test' },
  ]),
  '/api/school/studentcategories/:id': resource('studentcategory', 'student_categories', BODY.studentcategories, (n) => [
    '/api/school/studentcategories',
    { name: `Alpha spare ${n}` },
  ]),
  '/api/school/subjects/:id': resource('subject', 'subjects', BODY.subjects, (n) => [
    '/api/school/subjects',
    { name: `Alpha spare ${n}`, category: 'general' },
  ]),
  '/api/school/students/:id': resource('student', 'students', BODY.students, (n) => [
    '/api/school/students',
    { studentid: `ALPHA/S${n}`, firstname: 'Alpha', lastname: 'Spare', gender: 'M', form: 'P6' },
  ]),
  '/api/school/students/:id/photo': resource('student', 'students'),
  '/api/school/students/:id/results': resource('student', 'students'),
  '/api/tenants/:id': { id: (side) => side.tenant.id, body: BODY.tenants, stored: () => tenantRow(B.tenant.id) },
  '/api/users/:id': {
    id: (side) => side.ids.user,
    body: BODY.users,
    stored: async () => ({
      membership: await withTenant(t.database.db, { tenantId: B.tenant.id }, (trx) =>
        trx.selectFrom('memberships').selectAll().where('user_id', '=', B.ids.user).executeTakeFirst(),
      ),
      roles: await roleNamesIn(t.database, B.tenant.id, B.ids.user),
    }),
    spare: async () => (await makeUser(t.database, { memberOf: [{ tenantId: A.tenant.id, roles: ['teacher'] }] })).id,
  },
  '/api/users/invitations/:id': {
    id: (side) => side.ids.invitation,
    stored: () => rowOf('invitations', B, B.ids.invitation),
    spare: async () =>
      ok(await A.c.post('/api/users', { name: 'Alpha Spare', email: `spare-${next()}@school.test`, roles: ['teacher'] })).id,
  },
};

async function checkRecordRoute(route: AppRoute) {
  const fixture = RECORDS[route.url];
  if (!fixture) throw new Error(`${route.key}: not in the matrix. Add its path to RECORDS (or EXEMPT with a reason).`);
  await checkRecord(route, fixture, A, B);
}

/** A record route asked by `asker` (A): `other`'s record (B's) 404, the asker's own answered 200 (the control), `other`'s as it was. */
async function checkRecord<S extends Party>(route: AppRoute, fixture: RecordFixture<S>, asker: S, other: S) {
  if (/:(?!id\b)/.test(route.url)) throw new Error(`${route.key}: a parameter other than :id; teach the matrix how to fill it.`);
  const writes = route.method === 'PUT' || route.method === 'POST' || route.method === 'PATCH';
  const payload = writes ? fixture.body?.(asker) : undefined;
  if (writes && payload === undefined) throw new Error(`${route.key}: add a body to its RECORDS entry.`);
  const own = route.url.replace(':id', fixture.id(asker));
  const theirs = route.url.replace(':id', fixture.id(other));

  // The control: the same request on A's own record is answered (a DELETE, on a spare one).
  if (route.method === 'DELETE' && !fixture.spare) throw new Error(`${route.key}: add a spare record of A's to its RECORDS entry.`);
  const control = route.method === 'DELETE' ? route.url.replace(':id', await (fixture.spare as () => Promise<string>)()) : own;
  const answer = await send(asker, route.method, control, payload);
  expect(answer.statusCode, `${route.method} ${control} (A's own record): ${answer.body}`).toBe(200);
  const before = await fixture.stored();
  expect(before, `B's record behind ${theirs}`).toBeTruthy();
  const response = await send(asker, route.method, theirs, payload);
  expect(response.statusCode, `${route.method} ${theirs} (B's record): ${response.body.slice(0, 300)}`).toBe(404);
  if (route.method !== 'HEAD') expect(response.json()).toEqual(NOT_FOUND);
  expect(await fixture.stored()).toEqual(before);
}

// ---------------------------------------------------------------------------------------------
// Lists (GET without a parameter): A's records, never B's.

interface ListFixture {
  /** The URLs to read (default: the path). A's own records must show in the first. */
  urls?(): string[] | Promise<string[]>;
  /** Ids of A's records the first URL's answer must carry (proves it is a real list). */
  own?(): string[];
  /** Filters naming B's records: the answer is 200 with no records. */
  foreignFilters?(): string[];
  /** Checks of their own (an answer that is not a list, a query naming a record). */
  check?(mode: Mode): Promise<void>;
  /** The platform's, not a school's: A's caller, a school's administrator, is refused (403). */
  platformOnly?: true;
}

const resourceList = (path: string, key: keyof Ids, filters: Array<[field: string, key: keyof Ids]> = []): ListFixture => ({
  urls: () => [`${path}?per_page=100`, `${path}?excel=1`],
  own: () => [A.ids[key]],
  foreignFilters: () => filters.map(([field, ref]) => `${path}?${field}=${B.ids[ref]}`),
});

/** Active learners of A per class, and A's stock locations, as the dashboard counts them. */
async function dashboardOfA() {
  return withTenant(t.database.db, { tenantId: A.tenant.id }, async (trx) => {
    const rows = await trx
      .selectFrom('students')
      .select(['form', sql<number>`count(*)::int`.as('count')])
      .where('status', '=', 'active')
      .groupBy('form')
      .execute();
    const locations = await trx.selectFrom('locations').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
    return { students: Object.fromEntries(rows.map((row) => [row.form, row.count])), locations: locations.count };
  });
}

/** The learner of the progressive report's row of the matrix (its urls make a new one). */
let progressLearner = '';
const activeLearnersOfA = async () => Object.values((await dashboardOfA()).students).reduce((sum, count) => sum + count, 0);

/**
 * Subject comments or generic skills of A's marked P2 learner in A's subject: nothing of B's,
 * though B has a comment of its own marked learner; B's subject named by A is refused, unnamed.
 */
const commentsList = (path: string): ListFixture => ({
  urls: () =>
    ['', '&stream=&rawmark=1&category=assesment'].map((extra) => `${path}?form=P2&term=I&year=2026&subject_id=${A.ids.subject}${extra}`),
  own: () => [A.ids.marked, A.ids.subject],
  check: async () => {
    const bravo = { form: 'P2', stream: '', term: 'I', year: 2026, category: 'exam', subject_id: B.ids.subject };
    ok(await send(B, 'POST', path, { ...bravo, comment: { [B.ids.marked]: `${B.mark} comment` }, base: {} }));
    const mine = await send(A, 'GET', `${path}?form=P2&term=I&year=2026&subject_id=${A.ids.subject}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expectNothingOfB(mine.body, `GET ${path}`);
    const theirs = await send(A, 'GET', `${path}?form=P2&term=I&year=2026&subject_id=${B.ids.subject}`);
    expect(theirs.statusCode, theirs.body).toBe(422);
    expectNothingOfB(theirs.body, `GET ${path}?subject_id=<B>`);
  },
});

/**
 * A side's class on the new curriculum for a year, or back on the old (no row: a primary school's
 * default). The matrix's schools are primary schools, which the API keeps wholly on the old
 * curriculum (PUT /api/school/curricula refuses a 'new' class there); the new-curriculum routes
 * are held apart on their classes all the same, the choice written here as a school's data from
 * before that rule may hold it.
 */
async function onCurriculum(side: Side, year: number, form: string, curriculum: 'new' | 'old'): Promise<void> {
  await withTenant(t.database.db, { tenantId: side.tenant.id }, async (trx) => {
    if (curriculum === 'old') await trx.deleteFrom('class_curricula').where('year', '=', year).where('form', '=', form).execute();
    else
      await trx
        .insertInto('class_curricula')
        .values({ tenant_id: side.tenant.id, year, form, curriculum })
        .onConflict((conflict) => conflict.columns(['tenant_id', 'year', 'form']).doUpdateSet({ curriculum }))
        .execute();
  });
}

/** Both sides' P2 on the new curriculum for 2026 while `run` runs (the new-curriculum comments refuse an old class), then back. */
async function asNewCurriculum(run: () => Promise<void>): Promise<void> {
  for (const side of [A, B]) await onCurriculum(side, 2026, 'P2', 'new');
  try {
    await run();
  } finally {
    for (const side of [A, B]) await onCurriculum(side, 2026, 'P2', 'old');
  }
}

/** The new-curriculum comments (issue 27 point 3): the subject comments' checks with P2 on the new curriculum. */
const ncCommentsList = (path: string): ListFixture => ({
  urls: () => [`${path}?form=P3&term=I&year=2026&subject_id=${A.ids.subject}`],
  check: (mode) =>
    asNewCurriculum(async () => {
      await commentsList(path).check?.(mode);
      const mine = await send(A, 'GET', `${path}?form=P2&term=I&year=2026&subject_id=${A.ids.subject}`);
      expect(mine.body).toContain(A.ids.marked);
    }),
});

/**
 * The platform's external sign-in domains (issue 29 point 6) belong to no school: a school's own
 * administrator (A's caller) is refused them, and nothing is written (external-signin.test.ts has
 * the platform administrator's side).
 */
async function platformDomainsRefused(method: string, url: string, payload?: unknown) {
  const before = await t.database.db.selectFrom('external_signin_providers').selectAll().execute();
  const response = await send(A, method, url, payload);
  expect(response.statusCode, response.body).toBe(403);
  expect(await t.database.db.selectFrom('external_signin_providers').selectAll().execute()).toEqual(before);
}

/** A document of A's under a token, and one of B's under the same token: A reads its own alone, and a token of none is 404. */
function progressOfBoth(): ListFixture {
  const url = (token: string) => `/api/school/terminalreport/progress?token=${token}`;
  let token = '';
  return {
    urls: async () => {
      token = `isolation-${crypto.randomUUID()}`;
      for (const [side, total] of [
        [A, 3],
        [B, 7],
      ] as const) {
        await (await t.app.documents.progress.start({ tenantId: side.tenant.id, userId: side.adminId, token }, total)).finish();
      }
      return [url(token)];
    },
    check: async () => {
      expect(ok(await send(A, 'GET', url(token)))).toEqual({ done: 0, total: 3 });
      expect((await send(A, 'GET', url('isolation-none'))).statusCode).toBe(404);
    },
  };
}

const LISTS: Record<string, ListFixture> = {
  '/api/admin/signin-domains': { platformOnly: true },
  // The platform's mail outbox (issue 29 point 1): every school's messages, a platform administrator's alone (outbox.test.ts).
  '/api/admin/outbox': { platformOnly: true },
  '/api/school/subjectteachers': resourceList('/api/school/subjectteachers', 'subjectteacher', [['subject_id', 'subject']]),
  '/api/school/classteachers': resourceList('/api/school/classteachers', 'classteacher'),
  '/api/school/deputies': resourceList('/api/school/deputies', 'deputy', [['user_id', 'user']]),
  '/api/school/gradefoots': resourceList('/api/school/gradefoots', 'gradefoot'),
  '/api/school/reportfooters': resourceList('/api/school/reportfooters', 'reportfooter'),
  '/api/school/subjectpapers': resourceList('/api/school/subjectpapers', 'subjectpaper', [['subject_id', 'subject']]),
  '/api/school/topics': resourceList('/api/school/topics', 'topic', [['subject_id', 'subject']]),
  '/api/school/projects': resourceList('/api/school/projects', 'project', [['subject_id', 'subject']]),
  '/api/school/projectscores': {
    urls: () => [`/api/school/projectscores?project_id=${A.ids.project}`],
    check: async () => {
      // B has scores of its own project; A sees none of them, and B's project named by A is refused, unnamed.
      ok(await send(B, 'POST', '/api/school/projectscores', scoreSave(B, await projectLearner(B))));
      const mine = await send(A, 'GET', `/api/school/projectscores?project_id=${A.ids.project}`);
      expect(mine.statusCode, mine.body).toBe(200);
      expectNothingOfB(mine.body, 'GET /api/school/projectscores');
      const theirs = await send(A, 'GET', `/api/school/projectscores?project_id=${B.ids.project}`);
      expect(theirs.statusCode, theirs.body).toBe(422);
      expectNothingOfB(theirs.body, 'GET /api/school/projectscores?project_id=<B>');
    },
  },
  '/api/requisitions/defaults': { own: () => [A.ids.user] },
  '/api/school/assignments/mine': {
    urls: () => ['/api/school/assignments/mine?term=I&year=2026'],
    check: async () => {
      // A's administrator holds no assignment; A's teacher's are A's alone.
      const mine = ok(await send(A, 'GET', '/api/school/assignments/mine?term=I&year=2026'));
      expect(mine).toMatchObject({ subjects: [], classes: [] });
    },
  },
  '/api/home/mustard': {
    check: async () => expect(ok(await send(A, 'GET', '/api/home/mustard'))).toEqual(await dashboardOfA()),
  },
  // A has a record of every kind, so its checklist is all done; home.test.ts shows an empty school's beside a full one.
  '/api/home/setup': {
    check: async () =>
      expect(ok(await send(A, 'GET', '/api/home/setup'))).toEqual({
        subjects: true,
        mark_types: true,
        grade_sets: true,
        learners: true,
        teachers: true,
      }),
  },
  '/api/locations': resourceList('/api/locations', 'location'),
  // The countries (issue 31): one list for every tenant, no tenant's rows; A reads it as any tenant does.
  '/api/countries': { own: () => ['Uganda'] },
  '/api/school/alevelscores': resourceList('/api/school/alevelscores', 'alevelscore'),
  '/api/school/automarkcomments': resourceList('/api/school/automarkcomments', 'automarkcomment'),
  '/api/school/autoreportcomments': resourceList('/api/school/autoreportcomments', 'autoreportcomment', [['remarktype_id', 'remarktype']]),
  '/api/school/grades': resourceList('/api/school/grades', 'grade', [['subject_id', 'subject']]),
  '/api/school/marktypes': resourceList('/api/school/marktypes', 'marktype'),
  '/api/school/proportions': resourceList('/api/school/proportions', 'proportion', [['subject_id', 'subject']]),
  '/api/school/publishmarks': resourceList('/api/school/publishmarks', 'publishmark'),
  '/api/school/remarktypes': {
    ...resourceList('/api/school/remarktypes', 'remarktype'),
    // The tree: A's sub category under A's parent, B's nowhere.
    own: () => [A.ids.remarktype, A.ids.remarksub],
  },
  '/api/school/studentcategories': resourceList('/api/school/studentcategories', 'studentcategory'),
  '/api/school/subjects': resourceList('/api/school/subjects', 'subject'),
  '/api/school/students': {
    urls: () => ['/api/school/students?per_page=1000', '/api/school/students?excel=1', '/api/school/students?status=active'],
    own: () => [A.ids.student],
    foreignFilters: () => [
      `/api/school/students?studentcategory_id=${B.ids.studentcategory}`,
      `/api/school/students?studentid=${B.studentid}`,
    ],
  },
  '/api/school/students/template': {},
  '/api/school/classstreams': {
    check: async () => {
      // Each side has a learner in a stream named after it: A's streams are A's alone.
      for (const side of [A, B])
        await withTenant(t.database.db, { tenantId: side.tenant.id }, (trx) =>
          trx
            .insertInto('students')
            .values({
              tenant_id: side.tenant.id,
              id: newId(),
              studentid: `${side.mark}/S${next()}`,
              firstname: side.mark,
              lastname: 'Streams',
              form: 'P6',
              stream: `${side.mark} stream`,
            })
            .execute(),
        );
      const mine = JSON.stringify(ok(await send(A, 'GET', '/api/school/classstreams')));
      expect(mine).toContain(`${A.mark} stream`);
      expectNothingOfB(mine, 'GET /api/school/classstreams');
    },
  },
  '/api/uploads/studentjournals/template': {},
  '/api/school/gradingrules': {
    check: async () => {
      // B saved its own rules; A has not: A reads the defaults.
      expect(ok(await send(A, 'GET', '/api/school/gradingrules')).rules).toEqual(DEFAULT_GRADING_RULES);
      expect(ok(await send(B, 'GET', '/api/school/gradingrules')).rules).toEqual(B_RULES);
    },
  },
  '/api/school/reportlayout': {
    check: async () => {
      expect(ok(await send(A, 'GET', '/api/school/reportlayout')).layout).toEqual(DEFAULT_REPORT_LAYOUT);
      expect(ok(await send(B, 'GET', '/api/school/reportlayout')).layout).toEqual(B_LAYOUT);
    },
  },
  '/api/school/analysis': {
    // A's marked P2 class's result analysis as the model, the preview and the PDF: nothing of B's; B's mark type refused, and not named.
    urls: () => ['json=1', 'html=1', 'pdf=1'].map((extra) => `/api/school/analysis?form=P2&term=I&year=2026&${extra}`),
    check: async () => {
      const theirs = await send(A, 'GET', `/api/school/analysis?form=P2&term=I&year=2026&json=1&marktype_id=${B.ids.marktype}`);
      expect(theirs.statusCode, theirs.body).toBe(422);
      expectNothingOfB(theirs.body, 'GET /api/school/analysis?marktype_id=<B>');
    },
  },
  '/api/school/otherstatistics': {
    // A's marked P2 class's mark statistics (each learner's average) as the model, the preview, the workbook and the PDF:
    // nothing of B's; B's mark type named in A's request refused, and not named.
    urls: () =>
      ['json=1', 'html=1', 'excel=1', 'pdf=1'].map(
        (extra) => `/api/school/otherstatistics?form=P2&term=I&year=2026&category=average&${extra}`,
      ),
    own: () => [A.ids.marked],
    check: async () => {
      const theirs = await send(
        A,
        'GET',
        `/api/school/otherstatistics?form=P2&term=I&year=2026&category=average&json=1&marktype_id=${B.ids.marktype}`,
      );
      expect(theirs.statusCode, theirs.body).toBe(422);
      expectNothingOfB(theirs.body, 'GET /api/school/otherstatistics?marktype_id=<B>');
    },
  },
  '/api/school/cummulativereport': {
    // A's marked P2 class's cumulative cards of A's mark type as the model, the preview and the PDF: nothing of B's;
    // B's learner and B's mark type named in A's request refused, and not named.
    urls: () =>
      ['json=1', 'html=1', 'pdf=1'].map(
        (extra) => `/api/school/cummulativereport?form=P2&term=I&year=2026&marktype_ids=${A.ids.marktype}&label=FINAL&${extra}`,
      ),
    own: () => [A.ids.marked],
    check: async () => {
      const url = (extra: string) => `/api/school/cummulativereport?form=P2&term=I&year=2026&json=1&${extra}`;
      const theirLearner = await send(A, 'GET', url(`marktype_ids=${A.ids.marktype}&student_id=${B.ids.marked}`));
      expect(theirLearner.statusCode, theirLearner.body).toBe(422);
      expectNothingOfB(theirLearner.body, 'GET /api/school/cummulativereport?student_id=<B>');
      const theirType = await send(A, 'GET', url(`marktype_ids=${B.ids.marktype}`));
      expect(theirType.statusCode, theirType.body).toBe(422);
      expectNothingOfB(theirType.body, 'GET /api/school/cummulativereport?marktype_ids=<B>');
    },
  },
  '/api/school/marks/marksheet': {
    // A's marked P2 class as the preview, the workbook and the PDF: nothing of B's learners or subjects.
    urls: () => ['html=1', 'excel=1', 'pdf=1'].map((extra) => `/api/school/marks/marksheet?form=P2&term=I&year=2026&${extra}`),
    own: () => [A.ids.marked],
  },
  '/api/school/marks/avgmarksheet': {
    // A's marked P2 class's year as the model, the preview, the workbook and the PDF: nothing of B's learners or subjects.
    urls: () => ['json=1', 'html=1', 'excel=1', 'pdf=1'].map((extra) => `/api/school/marks/avgmarksheet?form=P2&year=2026&${extra}`),
    own: () => [A.ids.marked],
  },
  '/api/school/progressreport': {
    // A's marked P2 learner's terms as the model, the preview and the PDF: nothing of B's; B's learner named in A's
    // request refused (422 on student_id), and not named.
    // A marked P2 learner of A's own, new each time: the promotion checked in this matrix moves the
    // seeded ones on to P3, a class on the new curriculum in A (whose progressive report is refused).
    urls: async () => {
      progressLearner = await gridLearner(A);
      ok(await send(A, 'POST', '/api/school/marks', markSave(A, { student: progressLearner })));
      return ['json=1', 'html=1', 'pdf=1'].map((extra) => `/api/school/progressreport?form=P2&student_id=${progressLearner}&${extra}`);
    },
    own: () => [progressLearner],
    check: async () => {
      const theirs = await send(A, 'GET', `/api/school/progressreport?form=P2&student_id=${B.ids.marked}&json=1`);
      expect(theirs.statusCode, theirs.body).toBe(422);
      expect(Object.keys(theirs.json().errors)).toEqual(['student_id']);
      expectNothingOfB(theirs.body, 'GET /api/school/progressreport?student_id=<B>');
    },
  },
  '/api/school/marks/ncmarksheet': {
    // A's P3 (the new curriculum in 2026) as the model and the preview; then, with A's P2 on the new curriculum (then back),
    // its marked learner's sheet in every output, nothing of B's; B's mark type named in A's request refused, and not named.
    urls: () =>
      ['', 'html=1'].map((extra) => `/api/school/marks/ncmarksheet?form=P3&term=I&year=2026&marktype_id=${A.ids.marktype}&${extra}`),
    check: async () => {
      const url = (extra: string, marktype = A.ids.marktype) =>
        `/api/school/marks/ncmarksheet?form=P2&term=I&year=2026&marktype_id=${marktype}&${extra}`;
      await onCurriculum(A, 2026, 'P2', 'new');
      try {
        const model = await send(A, 'GET', url(''));
        expect(model.statusCode, model.body).toBe(200);
        expect(model.body).toContain(A.ids.marked);
        for (const extra of ['', 'html=1', 'excel=1', 'pdf=1']) {
          const answer = await send(A, 'GET', url(extra));
          expect(answer.statusCode, answer.body).toBe(200);
          expectNothingOfB(answer.body, `GET /api/school/marks/ncmarksheet?${extra}`);
        }
        const theirs = await send(A, 'GET', url('', B.ids.marktype));
        expect(theirs.statusCode, theirs.body).toBe(422);
        expectNothingOfB(theirs.body, 'GET /api/school/marks/ncmarksheet?marktype_id=<B>');
      } finally {
        await onCurriculum(A, 2026, 'P2', 'old');
      }
    },
  },
  '/api/school/ncterminalreport': {
    // A's P3 (the new curriculum in 2026) as the model, the preview and the PDF; then, with A's P2 on the new curriculum
    // (then back), its marked learner's card in every output, nothing of B's; B's learner and mark type refused, and not named.
    urls: () =>
      ['json=1', 'html=1', 'pdf=1'].map(
        (extra) => `/api/school/ncterminalreport?form=P3&term=I&year=2026&marktype_id=${A.ids.marktype}&topics=1&${extra}`,
      ),
    check: async () => {
      const url = (extra: string, marktype = A.ids.marktype) =>
        `/api/school/ncterminalreport?form=P2&term=I&year=2026&marktype_id=${marktype}&topics=1&summary=1&comments=1&${extra}`;
      await onCurriculum(A, 2026, 'P2', 'new');
      try {
        const model = await send(A, 'GET', url('json=1'));
        expect(model.statusCode, model.body).toBe(200);
        expect(model.body).toContain(A.ids.marked);
        for (const extra of ['json=1', 'html=1', 'pdf=1']) {
          const answer = await send(A, 'GET', url(extra));
          expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
          expectNothingOfB(await answerText(answer), `GET /api/school/ncterminalreport?${extra}`);
        }
        const theirLearner = await send(A, 'GET', url(`json=1&student_id=${B.ids.marked}`));
        expect(theirLearner.statusCode, theirLearner.body).toBe(422);
        expectNothingOfB(theirLearner.body, 'GET /api/school/ncterminalreport?student_id=<B>');
        const theirType = await send(A, 'GET', url('json=1', B.ids.marktype));
        expect(theirType.statusCode, theirType.body).toBe(422);
        expectNothingOfB(theirType.body, 'GET /api/school/ncterminalreport?marktype_id=<B>');
      } finally {
        await onCurriculum(A, 2026, 'P2', 'old');
      }
    },
  },
  '/api/school/terminalreport': {
    // A's marked P2 learner's card: as the model, the preview and the PDF; nothing of B's learners.
    urls: () => ['json=1', 'html=1', 'stream='].map((extra) => `/api/school/terminalreport?form=P2&term=I&year=2026&${extra}`),
    own: () => [A.ids.marked],
    check: async () => {
      // B's learner named in A's request is no learner of A's: refused, and not named.
      const theirs = await send(A, 'GET', `/api/school/terminalreport?form=P2&term=I&year=2026&json=1&student_id=${B.ids.marked}`);
      expect(theirs.statusCode, theirs.body).toBe(422);
      expectNothingOfB(theirs.body, 'GET /api/school/terminalreport?student_id=<B>');
    },
  },
  // The layout screen's sample card: one of A's learners, nothing of B's.
  '/api/school/terminalreport/sample': {},
  // The school's badge: B's is never A's (A reads its own, or none).
  '/api/school/logo': {
    check: async () => {
      ok(await sendBadge(B, '#0a0'));
      const theirs = await send(B, 'GET', '/api/school/logo');
      expect(theirs.statusCode).toBe(200);
      const mine = await send(A, 'GET', '/api/school/logo');
      expect([200, 404]).toContain(mine.statusCode);
      expect(mine.rawPayload.equals(theirs.rawPayload)).toBe(false);
    },
  },
  '/api/school/markcomments': commentsList('/api/school/markcomments'),
  '/api/school/genericcomments': commentsList('/api/school/genericcomments'),
  '/api/school/nccomments': ncCommentsList('/api/school/nccomments'),
  '/api/school/ncremarks': {
    // With P2 on the new curriculum: A's marked learner and remark type, nothing of B's; B's remark type refused, unnamed.
    urls: () => ['/api/school/ncremarks?form=P3&term=I&year=2026&category=exam'],
    check: () =>
      asNewCurriculum(async () => {
        const mine = await send(A, 'GET', '/api/school/ncremarks?form=P2&term=I&year=2026&category=exam');
        expect(mine.statusCode, mine.body).toBe(200);
        expectNothingOfB(mine.body, 'GET /api/school/ncremarks');
        for (const id of [A.ids.marked, A.ids.remarktype]) expect(mine.body).toContain(id);
        const theirs = await send(A, 'GET', `/api/school/ncremarks?form=P2&term=I&year=2026&remarktype_id=${B.ids.remarktype}`);
        expect(theirs.statusCode, theirs.body).toBe(422);
        expectNothingOfB(theirs.body, 'GET /api/school/ncremarks?remarktype_id=<B>');
      }),
  },
  '/api/school/remarks': {
    // A's marked P2 learner with A's remark type (and its results): nothing of B's learners or remark types.
    urls: () => ['', '&stream=&rawmark=1'].map((extra) => `/api/school/remarks?form=P2&term=I&year=2026&category=exam${extra}`),
    own: () => [A.ids.marked, A.ids.remarktype],
    check: async () => {
      // B's remark type named in A's request is no remark type of A's: refused, and not named.
      const theirs = await send(A, 'GET', `/api/school/remarks?form=P2&term=I&year=2026&remarktype_id=${B.ids.remarktype}`);
      expect(theirs.statusCode, theirs.body).toBe(422);
      expectNothingOfB(theirs.body, 'GET /api/school/remarks?remarktype_id=<B>');
    },
  },
  '/api/school/terminalreport/progress': progressOfBoth(),
  '/api/school/termdates': {
    urls: () => ['/api/school/termdates?year=2027'],
    check: async () => {
      // B set its 2027 terms; A has not: A reads the defaults.
      const answer = ok(await send(A, 'GET', '/api/school/termdates?year=2027'));
      expect(answer.custom).toBe(false);
      expect(JSON.stringify(answer.terms)).not.toContain(B_TERMS_2027[0]?.starts);
      expect(ok(await send(B, 'GET', '/api/school/termdates?year=2027'))).toMatchObject({ custom: true, terms: B_TERMS_2027 });
    },
  },
  '/api/school/curricula': {
    urls: () => ['/api/school/curricula?year=2029'],
    check: async () => {
      // B allows a 0 and its P2 is a new-curriculum class for 2029 (a year no side's class is on the new curriculum
      // for; 2027 may be this year, when the side's P4 is); A chose nothing: A reads its defaults.
      ok(await send(B, 'PUT', '/api/school/curricula', { year: 2029, allow_zero: true, classes: [{ form: 'P2', curriculum: 'old' }] }));
      await onCurriculum(B, 2029, 'P2', 'new');
      const answer = ok(await send(A, 'GET', '/api/school/curricula?year=2029'));
      expect(answer.allow_zero).toBe(false);
      expect(answer.classes.filter((row: { curriculum: string }) => row.curriculum !== 'old')).toEqual([]);
      const theirs = ok(await send(B, 'GET', '/api/school/curricula?year=2029'));
      expect(theirs.classes.find((row: { form: string }) => row.form === 'P2')?.curriculum).toBe('new');
    },
  },
  '/api/student/statement': {
    urls: () => [`/api/student/statement?id=${A.ids.student}`],
    check: async () => {
      // The learner is named in the query: A's is answered with A's lines, B's is not found.
      const mine = ok(await send(A, 'GET', `/api/student/statement?id=${A.ids.student}`));
      const lines = await withTenant(t.database.db, { tenantId: A.tenant.id }, (trx) =>
        trx.selectFrom('statement_lines').select('id').where('student_id', '=', A.ids.student).execute(),
      );
      expect(lines.length).toBeGreaterThan(0);
      expect(mine.statement.map((line: { id: string }) => line.id).sort()).toEqual(lines.map((line) => line.id).sort());
      const theirs = await send(A, 'GET', `/api/student/statement?id=${B.ids.student}`);
      expect(theirs.statusCode, theirs.body).toBe(404);
      expect(theirs.json()).toEqual(NOT_FOUND);
    },
  },
  '/api/student/promote': {
    check: async (mode) => {
      const dry = ok(await send(A, 'GET', '/api/student/promote'));
      expect(dry.promoted + dry.completed).toBe(await activeLearnersOfA());
      if (mode.filter) return;
      // Once, with RLS alone: A's learners move up, B's stay where they are.
      const before = await rowsOf(B, ['students', 'student_class_history']);
      const done = ok(await send(A, 'GET', '/api/student/promote?promote=1'));
      expect(done.promoted + done.completed).toBe(dry.promoted + dry.completed);
      expect(await rowsOf(B, ['students', 'student_class_history'])).toEqual(before);
    },
  },
  '/api/school/marks': {
    urls: () => [
      '/api/school/marks?form=P2&term=I&year=2026&per_page=1000',
      '/api/school/marks?term=I&year=2026',
      '/api/school/marks?excel=1',
    ],
    own: () => [A.ids.marked],
    foreignFilters: () => [
      `/api/school/marks?form=P2&term=I&year=2026&subject_id=${B.ids.subject}`,
      `/api/school/marks?form=P2&term=I&year=2026&marktype_id=${B.ids.marktype}`,
    ],
  },
  '/api/school/marktargets': {
    urls: () => [
      '/api/school/marktargets?per_page=1000',
      '/api/school/marktargets?form=P2&term=I&year=2026',
      '/api/school/marktargets?excel=1',
    ],
    own: () => [A.ids.target],
    foreignFilters: () => [`/api/school/marktargets?subject_id=${B.ids.subject}`],
  },
  '/api/school/marks/history': {
    urls: () => [markHistoryUrl(A)],
    check: async () => {
      // B's learner's history named from A: nothing, though B's mark has one.
      expect(ok(await send(A, 'GET', markHistoryUrl(B))).history).toEqual([]);
      expect(ok(await send(B, 'GET', markHistoryUrl(B))).history.length).toBeGreaterThan(0);
    },
  },
  '/api/tenants': {
    urls: () => ['/api/tenants?per_page=1000', '/api/tenants?excel=1'],
    own: () => [A.tenant.id],
  },
  '/api/users': {
    urls: () => ['/api/users?per_page=1000', '/api/users?excel=1'],
    own: () => [A.ids.user],
  },
  '/api/users/roles': {
    check: async () => {
      // Exactly A's roles: B's (the same default names) are other rows, never offered in A.
      const offered = ok(await send(A, 'GET', '/api/users/roles')).roles.map((role: { id: string }) => role.id);
      const own = await withTenant(t.database.db, { tenantId: A.tenant.id }, (trx) => trx.selectFrom('roles').select('id').execute());
      expect(offered.sort()).toEqual(own.map((role) => role.id).sort());
    },
  },
  '/api/users/invitations': {
    urls: () => ['/api/users/invitations?per_page=1000'],
    own: () => [A.ids.invitation],
  },
  '/api/users/profile': {
    own: () => [A.tenant.id],
    check: async () => {
      // Switching to B's tenant by its id is refused: A's superadmin is no member of B.
      const response = await send(A, 'GET', `/api/users/profile?tenant_id=${B.tenant.id}`);
      expect(response.statusCode, response.body).toBe(403);
      expectNothingOfB(response.body, 'GET /api/users/profile?tenant_id=<B>');
    },
  },
};

async function checkListRoute(route: AppRoute, mode: Mode) {
  const fixture = LISTS[route.url];
  if (!fixture) throw new Error(`${route.key}: not in the matrix. Add its path to LISTS (or EXEMPT with a reason).`);
  if (fixture.platformOnly) return platformDomainsRefused(route.method, route.url);
  await checkList(route, mode, fixture, A, expectNothingOfB);
}

/** A list asked by `asker` (A): its own records, nothing `nothingOfOther` finds of the other side's (B's). */
async function checkList(
  route: AppRoute,
  mode: Mode,
  fixture: ListFixture,
  asker: Party,
  nothingOfOther: (text: string, where: string) => void,
) {
  const urls = (await fixture.urls?.()) ?? [route.url];
  if (route.method === 'HEAD') {
    // The GET's handler without the body (the GET checks the answer itself).
    const head = await send(asker, 'HEAD', urls[0] as string);
    expect(head.statusCode, `HEAD ${urls[0]}`).toBe(200);
    expect(head.body).toBe('');
    return;
  }
  for (const [index, url] of urls.entries()) {
    const response = await send(asker, 'GET', url);
    expect(response.statusCode, `GET ${url}: ${response.body.slice(0, 300)}`).toBe(200);
    const text = await answerText(response);
    nothingOfOther(text, `GET ${url}`);
    if (index === 0) for (const id of fixture.own?.() ?? []) expect(text, `GET ${url} lists the asker's ${id}`).toContain(id);
  }
  for (const url of fixture.foreignFilters?.() ?? []) {
    const response = await send(asker, 'GET', url);
    expect(response.statusCode, `GET ${url}: ${response.body.slice(0, 300)}`).toBe(200);
    expect(response.json().totalRecords, `GET ${url}`).toBe(0);
    nothingOfOther(response.body, `GET ${url}`);
  }
  await fixture.check?.(mode);
}

// ---------------------------------------------------------------------------------------------
// Writes without a parameter: a valid one lands in A only; one naming B's records is refused.

/** Tables a write may touch, whose rows in B must stay as they were. */
const SETTINGS_TABLES = ['subjects', 'mark_types', 'grades', 'proportions', 'publish_marks', 'remark_types', 'auto_report_comments'];

/** A valid write as A: answered 200, and B's rows of `tables` are as they were. */
async function landsInA(method: string, url: string, payload: unknown, tables: ReadonlyArray<string>) {
  const before = await rowsOf(B, tables);
  const response = await send(A, method, url, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBe(200);
  expect(await rowsOf(B, tables)).toEqual(before);
  return response;
}

/** A write as A naming one of B's records: 422 on that field, nothing written in A or in B. */
async function refusesForeign(
  method: string,
  url: string,
  payload: unknown,
  field: string,
  tables: ReadonlyArray<string>,
  request = () => send(A, method, url, payload),
) {
  const [beforeA, beforeB] = [await rowsOf(A, tables), await rowsOf(B, tables)];
  const response = await request();
  expect(response.statusCode, `${method} ${url} naming B's record: ${response.body.slice(0, 300)}`).toBe(422);
  expect(
    Object.keys(response.json().errors ?? {}).some((key) => key === field || key.endsWith(`.${field}`)),
    response.body,
  ).toBe(true);
  expect(await rowsOf(A, tables)).toEqual(beforeA);
  expect(await rowsOf(B, tables)).toEqual(beforeB);
}

/** A created record of A: its id, read back in A's transaction with A's tenant. */
async function createdInA(response: LightMyRequestResponse, table: string) {
  const row = await rowOf(table, A, response.json().id);
  expect(row?.tenant_id).toBe(A.tenant.id);
}

/** Staff assignments: a write naming B's teacher or subject is refused, a valid one lands in A. */
const STAFF_TABLES = ['subject_teachers', 'class_teachers', 'deputies', 'grade_footers', 'report_footers', 'subject_papers'];
const staffWrite =
  (path: string, table: string, body: () => Record<string, unknown>, foreign: Array<[field: string, key: keyof Ids]>) => async () => {
    for (const [field, key] of foreign) await refusesForeign('POST', path, { ...body(), [field]: B.ids[key] }, field, STAFF_TABLES);
    await createdInA(await landsInA('POST', path, body(), STAFF_TABLES), table);
  };

/** Competencies and projects (issue 26): a write naming B's subject is refused, a valid one lands in A. */
const CURRICULUM_TABLES = ['topics', 'projects'];
const curriculumWrite = (path: string, table: string, body: () => Record<string, unknown>) => async () => {
  await refusesForeign('POST', path, { ...body(), subject_id: B.ids.subject }, 'subject_id', CURRICULUM_TABLES);
  await createdInA(await landsInA('POST', path, body(), CURRICULUM_TABLES), table);
};

/**
 * A learner of the side's own for the marks grid, new each time: promotion (checked in this
 * matrix too) moves the seeded learners on, and the grid lists active learners of a class.
 */
async function gridLearner(side: Side): Promise<string> {
  const id = newId();
  await withTenant(t.database.db, { tenantId: side.tenant.id }, (trx) =>
    trx
      .insertInto('students')
      .values({ tenant_id: side.tenant.id, id, studentid: `${side.mark}/G${next()}`, firstname: side.mark, lastname: 'Marks', form: 'P2' })
      .execute(),
  );
  return id;
}
/** The grid of a side's P2 learners: its subject and mark type, Term I 2026. */
const markGrid = (side: Side, term = 'I') => ({
  form: 'P2',
  stream: '',
  term,
  year: 2026,
  subject_id: side.ids.subject,
  paper: 'I',
  marktypes: [side.ids.marktype],
});
const markHistoryUrl = (side: Side) =>
  `/api/school/marks/history?student_id=${side.ids.marked}&subject_id=${side.ids.subject}&marktype_id=${side.ids.marktype}&term=I&year=2026`;
/** A save of one mark of a learner of the side's P2 (a new one unless named), as a fresh grid sends it. */
function markSave(side: Side, { term = 'I', student = side.ids.marked, mark = (50 + (next() % 40)) as unknown } = {}) {
  const { marktypes: _types, ...where } = markGrid(side, term);
  return { ...where, save_id: crypto.randomUUID(), marks: { [side.ids.marktype]: { [student]: mark } }, base: {} };
}
const MARK_TABLES = ['marks', 'mark_history', 'mark_saves'];
/** The class of a side's P2 learners, Term I 2026, as the attendance and targets pages name it. */
const classTerm = () => ({ form: 'P2', stream: '', term: 'I', year: 2026 });
const CLASS_RECORD_TABLES = ['attendances', 'mark_targets'];
/** A save of one report comment of a learner of the side's P2, Term I 2026 (the side's remark type unless named). */
const remarkSave = (side: Side, student: string, remarktype = side.ids.remarktype, text = `${side.mark} remark ${next()}`) => ({
  ...classTerm(),
  category: 'exam',
  comment: { [`rt_${remarktype}`]: { [`s_${student}`]: text } },
  base: {},
});
const REMARK_TABLES = ['remarks', 'comment_history'];
/** A save of one subject comment (or skills text) of a learner of the side's P2 in the side's subject, Term I 2026. */
const commentSave = (side: Side, student: string, text = `${side.mark} comment ${next()}`) => ({
  ...classTerm(),
  category: 'exam',
  subject_id: side.ids.subject,
  comment: { [student]: text },
  base: {},
});
const COMMENT_TABLES = ['mark_comments', 'comment_history'];
/** Subject comments and generic skills: A's comment lands in A; B's subject or learner named by A is refused. */
const commentWrite = (path: string) => async () => {
  await landsInA('POST', path, commentSave(A, await gridLearner(A)), COMMENT_TABLES);
  const save = commentSave(A, await gridLearner(A));
  await refusesForeign('POST', path, { ...save, subject_id: B.ids.subject }, 'subject_id', COMMENT_TABLES);
  await refusesForeign('POST', path, commentSave(A, B.ids.marked), B.ids.marked, COMMENT_TABLES);
  expectNothingOfB(JSON.stringify(ok(await send(A, 'POST', path, save))), `POST ${path}`);
};

/** A learner of the side's P4 (the class of its project, Term I 2026), new each time: promotion moves the seeded ones on. */
async function projectLearner(side: Side): Promise<string> {
  const id = newId();
  await withTenant(t.database.db, { tenantId: side.tenant.id }, (trx) =>
    trx
      .insertInto('students')
      .values({
        tenant_id: side.tenant.id,
        id,
        studentid: `${side.mark}/P${next()}`,
        firstname: side.mark,
        lastname: 'Project',
        form: 'P4',
      })
      .execute(),
  );
  return id;
}
/** A save of one learner's score and comment on the side's project (issue 26 point 5), as a fresh grid sends it. */
const scoreSave = (side: Side, student: string) => ({
  project_id: side.ids.project,
  save_id: crypto.randomUUID(),
  scores: { [student]: { score: 7, comment: `${side.mark} comment ${next()}` } },
  base: {},
});
const PROJECT_SCORE_TABLES = ['project_scores', 'mark_saves'];

const WRITES: Record<string, (mode: Mode) => Promise<void>> = {
  'PUT /api/admin/signin-domains': () =>
    platformDomainsRefused('PUT', '/api/admin/signin-domains', {
      domain: 'alpha.ug',
      issuer: 'https://login.alpha.ug',
      client_id: 'a',
      client_secret: 's',
    }),
  'DELETE /api/admin/signin-domains': () => platformDomainsRefused('DELETE', '/api/admin/signin-domains?domain=alpha.ug'),
  'POST /api/school/markcomments': commentWrite('/api/school/markcomments'),
  'POST /api/school/genericcomments': commentWrite('/api/school/genericcomments'),
  'POST /api/school/nccomments': () => asNewCurriculum(commentWrite('/api/school/nccomments')),
  'POST /api/school/marks/grid': async () => {
    const learner = await gridLearner(A);
    const grid = ok(await send(A, 'POST', '/api/school/marks/grid', markGrid(A)));
    expect(grid.students.map((row: { student: { id: string } }) => row.student.id)).toContain(learner);
    expectNothingOfB(JSON.stringify(grid), 'POST /api/school/marks/grid');
    await refusesForeign('POST', '/api/school/marks/grid', { ...markGrid(A), subject_id: B.ids.subject }, 'subject_id', MARK_TABLES);
    await refusesForeign('POST', '/api/school/marks/grid', { ...markGrid(A), marktypes: [B.ids.marktype] }, 'marktypes', MARK_TABLES);
  },
  'POST /api/school/marks': async () => {
    await landsInA('POST', '/api/school/marks', markSave(A, { student: await gridLearner(A) }), MARK_TABLES);
    const save = markSave(A, { student: await gridLearner(A) });
    await refusesForeign('POST', '/api/school/marks', { ...save, subject_id: B.ids.subject }, 'subject_id', MARK_TABLES);
    await refusesForeign(
      'POST',
      '/api/school/marks',
      { ...save, marks: { [B.ids.marktype]: { [A.ids.student]: 50 } } },
      'marktypes',
      MARK_TABLES,
    );
    await refusesForeign(
      'POST',
      '/api/school/marks',
      { ...save, marks: { [A.ids.marktype]: { [B.ids.student]: 50 } } },
      B.ids.student,
      MARK_TABLES,
    );
    // B's learner's mark stays what B saved.
    expect(ok(await send(B, 'GET', markHistoryUrl(B))).history[0].new).not.toBe(50);
  },
  'POST /api/school/remarks': async () => {
    await landsInA('POST', '/api/school/remarks', remarkSave(A, await gridLearner(A)), REMARK_TABLES);
    const save = remarkSave(A, await gridLearner(A));
    await refusesForeign(
      'POST',
      '/api/school/remarks',
      remarkSave(A, await gridLearner(A), B.ids.remarktype),
      `rt_${B.ids.remarktype}`,
      REMARK_TABLES,
    );
    await refusesForeign('POST', '/api/school/remarks', remarkSave(A, B.ids.marked), `s_${B.ids.marked}`, REMARK_TABLES);
    expectNothingOfB(JSON.stringify(ok(await send(A, 'POST', '/api/school/remarks', save))), 'POST /api/school/remarks');
  },
  'POST /api/remark/delete': async () => {
    // B keeps its remark of its marked learner whatever A deletes.
    await send(B, 'POST', '/api/school/remarks', remarkSave(B, B.ids.marked, B.ids.remarktype, 'Bravo stays'));
    const learner = await gridLearner(A);
    ok(await send(A, 'POST', '/api/school/remarks', remarkSave(A, learner)));
    const filter = { ...classTerm(), remarktype_id: A.ids.remarktype };
    const deleted = ok(await landsInA('POST', '/api/remark/delete', { ...filter, student_id: learner }, REMARK_TABLES));
    expect(deleted.records).toBe(1);
    await refusesForeign('POST', '/api/remark/delete', { ...filter, remarktype_id: B.ids.remarktype }, 'remarktype_id', REMARK_TABLES);
    await refusesForeign('POST', '/api/remark/delete', { ...filter, student_id: B.ids.marked }, 'student_id', REMARK_TABLES);
  },
  'POST /api/school/attendances': async () => {
    const learner = await gridLearner(A);
    const rows = ok(await send(A, 'POST', '/api/school/attendances', classTerm()));
    expect(rows.students.map((row: { student: { id: string } }) => row.student.id)).toContain(learner);
    expectNothingOfB(JSON.stringify(rows), 'POST /api/school/attendances');
    await landsInA(
      'POST',
      '/api/school/attendances',
      { ...classTerm(), totaldays: 60, daysattended: { [learner]: 40 } },
      CLASS_RECORD_TABLES,
    );
    const intoB = { ...classTerm(), totaldays: 60, daysattended: { [B.ids.marked]: 1 } };
    await refusesForeign('POST', '/api/school/attendances', intoB, B.ids.marked, CLASS_RECORD_TABLES);
  },
  'POST /api/school/marktargets': async () => {
    const learner = await gridLearner(A);
    const rows = ok(await send(A, 'POST', '/api/school/marktargets', { ...classTerm(), subject_id: A.ids.subject }));
    expect(rows.map((row: { student: { id: string } }) => row.student.id)).toContain(learner);
    expectNothingOfB(JSON.stringify(rows), 'POST /api/school/marktargets');
    const save = { ...classTerm(), subject_id: A.ids.subject, target: { [learner]: 65 } };
    await landsInA('POST', '/api/school/marktargets', save, CLASS_RECORD_TABLES);
    await refusesForeign('POST', '/api/school/marktargets', { ...save, subject_id: B.ids.subject }, 'subject_id', CLASS_RECORD_TABLES);
    await refusesForeign('POST', '/api/school/marktargets', { ...save, target: { [B.ids.marked]: 1 } }, B.ids.marked, CLASS_RECORD_TABLES);
  },
  'POST /api/school/marks/bulkdelete': async () => {
    ok(await send(A, 'POST', '/api/school/marks', markSave(A, { term: 'II', student: await gridLearner(A) })));
    const filter = { form: 'P2', stream: '', term: 'II', year: 2026 };
    expect(ok(await send(A, 'POST', '/api/school/marks/bulkdelete', { ...filter, subject_id: B.ids.subject }))).toEqual({ records: 0 });
    const deleted = await landsInA('POST', '/api/school/marks/bulkdelete', filter, MARK_TABLES);
    expect(deleted.json()).toEqual({ records: 1 });
  },
  'POST /api/school/subjectteachers': staffWrite(
    '/api/school/subjectteachers',
    'subject_teachers',
    () => ({ ...BODY.subjectteachers(A), year: nextStaffYear() }),
    [
      ['user_id', 'user'],
      ['subject_id', 'subject'],
    ],
  ),
  'POST /api/school/classteachers': staffWrite(
    '/api/school/classteachers',
    'class_teachers',
    () => ({ ...BODY.classteachers(A), year: nextStaffYear() }),
    [['user_id', 'user']],
  ),
  'POST /api/school/deputies': staffWrite(
    '/api/school/deputies',
    'deputies',
    () => ({ ...BODY.deputies(A), stream: `Write ${nextStaffYear()}` }),
    [['user_id', 'user']],
  ),
  'POST /api/school/topics': curriculumWrite('/api/school/topics', 'topics', () => ({ ...BODY.topics(A), title: `Alpha write ${next()}` })),
  'POST /api/school/topics/sheet': async () => {
    // A competency's scores need a class on the new curriculum: A's P2 is put on it for 2026, then back.
    await onCurriculum(A, 2026, 'P2', 'new');
    try {
      const learner = await gridLearner(A);
      // A's plain P2 sheet of an activity's mark type (an exam is none), a score filled for the new
      // learner, as Create Marks downloads it.
      const aoi = ok(await send(A, 'POST', '/api/school/marktypes', { label: `${A.mark} AOI ${next()}`, category: 'assesment' })).id;
      const download = await send(A, 'POST', '/api/school/marks/grid', { ...markGrid(A), marktypes: [aoi], excel: '1' });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Marks') as ExcelJS.Worksheet;
      const studentid = (await rowOf('students', A, learner))?.studentid;
      // Its learners' other marks are no scores: only the new learner's cell is filled.
      let table = false;
      sheet.eachRow((row) => {
        if (table) row.getCell(3).value = row.getCell(1).value === studentid ? 2.5 : null;
        table ||= row.getCell(1).value === 'Student ID';
      });
      const fileOf = async () => ({ field: 'file', bytes: Buffer.from(await workbook.xlsx.writeBuffer()), name: 'scores.xlsx' });
      const fields = (side: Side) => ({ form: 'P2', term: 'I', subject_id: side.ids.subject, title: `Alpha sheet ${next()}` });
      const tables = ['topics', ...MARK_TABLES];
      const before = await rowsOf(B, tables);
      const landed = await sendForm(A, 'POST', '/api/school/topics/sheet', fields(A), await fileOf());
      expect(landed.statusCode, landed.body).toBe(200);
      expect(landed.json()).toMatchObject({ saved: 1 });
      expect(await rowsOf(B, tables)).toEqual(before);
      // B's subject named, the sheet saying it too: refused by subject_id, nothing kept in A or B.
      sheet.eachRow((row) => {
        if (row.getCell(1).value === 'Subject ID') row.getCell(2).value = B.ids.subject;
      });
      const file = await fileOf();
      await refusesForeign('POST', '/api/school/topics/sheet', null, 'subject_id', tables, () =>
        sendForm(A, 'POST', '/api/school/topics/sheet', fields(B), file),
      );
    } finally {
      await onCurriculum(A, 2026, 'P2', 'old');
    }
  },
  'POST /api/school/projects': curriculumWrite('/api/school/projects', 'projects', () => ({
    ...BODY.projects(A),
    title: `Alpha write ${next()}`,
  })),
  'POST /api/school/projectscores/grid': async () => {
    const learner = await projectLearner(A);
    const grid = ok(await send(A, 'POST', '/api/school/projectscores/grid', { project_id: A.ids.project }));
    expect(grid.students.map((row: { student: { id: string } }) => row.student.id)).toContain(learner);
    expectNothingOfB(JSON.stringify(grid), 'POST /api/school/projectscores/grid');
    await refusesForeign('POST', '/api/school/projectscores/grid', { project_id: B.ids.project }, 'project_id', PROJECT_SCORE_TABLES);
  },
  'POST /api/school/projectscores': async () => {
    await landsInA('POST', '/api/school/projectscores', scoreSave(A, await projectLearner(A)), PROJECT_SCORE_TABLES);
    const save = { ...scoreSave(A, await projectLearner(A)), project_id: B.ids.project };
    await refusesForeign('POST', '/api/school/projectscores', save, 'project_id', PROJECT_SCORE_TABLES);
    // B's learner named in A's project: not of its class.
    const theirs = await projectLearner(B);
    await refusesForeign('POST', '/api/school/projectscores', scoreSave(A, theirs), theirs, PROJECT_SCORE_TABLES);
  },
  'POST /api/school/gradefoots': staffWrite(
    '/api/school/gradefoots',
    'grade_footers',
    () => ({ ...BODY.gradefoots(A), stream: `Write ${nextStaffYear()}` }),
    [],
  ),
  'POST /api/school/reportfooters': staffWrite(
    '/api/school/reportfooters',
    'report_footers',
    () => ({ ...BODY.reportfooters(A), year: nextStaffYear() }),
    [],
  ),
  'POST /api/school/subjectpapers': staffWrite(
    '/api/school/subjectpapers',
    'subject_papers',
    () => ({ ...BODY.subjectpapers(A), year: nextStaffYear() }),
    [['subject_id', 'subject']],
  ),
  'POST /api/locations': async () =>
    await createdInA(await landsInA('POST', '/api/locations', { name: `Alpha shelf ${next()}` }, ['locations']), 'locations'),
  'POST /api/school/studentcategories': async () =>
    createdInA(
      await landsInA('POST', '/api/school/studentcategories', { name: `Alpha day ${next()}` }, ['student_categories']),
      'student_categories',
    ),
  'POST /api/school/subjects': async () =>
    createdInA(
      await landsInA('POST', '/api/school/subjects', { name: `Alpha Art ${next()}`, category: 'general' }, ['subjects']),
      'subjects',
    ),
  'POST /api/school/marktypes': async () =>
    createdInA(
      await landsInA('POST', '/api/school/marktypes', { label: `Alpha test ${next()}`, category: 'test' }, ['mark_types']),
      'mark_types',
    ),
  'POST /api/school/alevelscores': async () =>
    createdInA(
      await landsInA('POST', '/api/school/alevelscores', { total: nextTotal(), score: 2, papercount: 6 }, ['alevel_scores']),
      'alevel_scores',
    ),
  'POST /api/school/automarkcomments': async () =>
    createdInA(
      await landsInA('POST', '/api/school/automarkcomments', { score: `S${next()}`, comment: 'Alpha: good' }, ['auto_mark_comments']),
      'auto_mark_comments',
    ),
  'POST /api/school/proportions': async () => {
    const body = { form: 'P7', term: 'II', year: nextRecordYear(), subject_id: A.ids.subject, marktype_id: A.ids.marktype, percentage: 10 };
    await refusesForeign('POST', '/api/school/proportions', { ...body, subject_id: B.ids.subject }, 'subject_id', SETTINGS_TABLES);
    await refusesForeign('POST', '/api/school/proportions', { ...body, marktype_id: B.ids.marktype }, 'marktype_id', SETTINGS_TABLES);
    await createdInA(await landsInA('POST', '/api/school/proportions', body, SETTINGS_TABLES), 'proportions');
  },
  'POST /api/school/publishmarks': async () => {
    const body = { term: 'II', year: nextRecordYear(), marktype_id: A.ids.marktype };
    await refusesForeign('POST', '/api/school/publishmarks', { ...body, marktype_id: B.ids.marktype }, 'marktype_id', SETTINGS_TABLES);
    await createdInA(await landsInA('POST', '/api/school/publishmarks', body, SETTINGS_TABLES), 'publish_marks');
  },
  'POST /api/school/remarktypes': async () => {
    const body = { label: `Alpha neatness ${next()}`, category: 'exam', parent_id: A.ids.remarktype };
    await refusesForeign('POST', '/api/school/remarktypes', { ...body, parent_id: B.ids.remarktype }, 'parent_id', SETTINGS_TABLES);
    await createdInA(await landsInA('POST', '/api/school/remarktypes', body, SETTINGS_TABLES), 'remark_types');
  },
  'POST /api/school/autoreportcomments': async () => {
    // A band of its own each time (the counter runs past 100 over the matrix): From below the highest To.
    const body = { form: 'P6', remarktype_id: A.ids.remarktype, score: next(), upper: 1000, comment: 'Alpha: steady' };
    await refusesForeign(
      'POST',
      '/api/school/autoreportcomments',
      { ...body, remarktype_id: B.ids.remarktype },
      'remarktype_id',
      SETTINGS_TABLES,
    );
    await createdInA(await landsInA('POST', '/api/school/autoreportcomments', body, SETTINGS_TABLES), 'auto_report_comments');
  },
  'POST /api/school/grades': async () => {
    const year = nextRecordYear();
    await refusesForeign('POST', '/api/school/grades', gradeSet(B.ids.subject, { year }), 'subject_id', SETTINGS_TABLES);
    const saved = await landsInA('POST', '/api/school/grades', gradeSet(A.ids.subject, { year }), SETTINGS_TABLES);
    expect(saved.json().grades).toHaveLength(9);
  },
  'POST /api/school/grades/apply': async () => {
    const year = nextRecordYear();
    // Two bands, every subject of one class: few rows, so A's own grades stay on the list's first page.
    const bands = [
      ['A', 50, 100],
      ['F', 0, 49],
    ] as const;
    const body = { ...gradeSet(A.ids.subject, { year, bands }), apply_to: 'subjects' };
    await refusesForeign('POST', '/api/school/grades/apply', { ...body, subject_id: B.ids.subject }, 'subject_id', SETTINGS_TABLES);
    expect((await landsInA('POST', '/api/school/grades/apply', body, SETTINGS_TABLES)).json().copied).toBeGreaterThan(0);
  },
  'POST /api/school/proportions/apply': async () => {
    const body = { ...BODY.proportions(A), year: nextRecordYear(), apply_to: 'subjects' };
    await refusesForeign('POST', '/api/school/proportions/apply', { ...body, subject_id: B.ids.subject }, 'subject_id', SETTINGS_TABLES);
    await refusesForeign('POST', '/api/school/proportions/apply', { ...body, marktype_id: B.ids.marktype }, 'marktype_id', SETTINGS_TABLES);
    expect((await landsInA('POST', '/api/school/proportions/apply', body, SETTINGS_TABLES)).json().copied).toBeGreaterThan(0);
  },
  'POST /api/school/settings/copyterm': async () => {
    // A's term with B's rows beside it: the copy reads and writes A's alone.
    const body = { from_term: 'I', from_year: 2026, term: 'III', year: nextRecordYear() };
    expect((await landsInA('POST', '/api/school/settings/copyterm', body, SETTINGS_TABLES)).json().grades.copied).toBeGreaterThan(0);
  },
  'POST /api/school/students': async () => {
    const body = { studentid: `ALPHA/${1000 + next()}`, firstname: 'Alpha', lastname: 'New', gender: 'M', form: 'P6' };
    const tables = ['students'];
    await refusesForeign(
      'POST',
      '/api/school/students',
      { ...body, studentcategory_id: B.ids.studentcategory },
      'studentcategory_id',
      tables,
    );
    await createdInA(
      await landsInA('POST', '/api/school/students', { ...body, studentcategory_id: A.ids.studentcategory }, tables),
      'students',
    );
  },
  // The cards by e-mail: A's class answers a summary naming nothing of B's; B's learner named is refused, nothing written.
  'POST /api/school/terminalreport/email': async () => {
    const path = '/api/school/terminalreport/email';
    const summary = ok(await send(A, 'POST', path, { form: 'P2', term: 'I', year: '2026' }));
    expect(summary.noAddress + summary.sent + summary.alreadySent).toBeGreaterThan(0);
    expectNothingOfB(JSON.stringify(summary), `POST ${path}`);
    await refusesForeign('POST', path, { form: 'P2', term: 'I', year: '2026', student_id: B.ids.marked }, 'student_id', ['audit_log']);
  },
  'POST /api/school/ncterminalreport/email': async () => {
    const path = '/api/school/ncterminalreport/email';
    await onCurriculum(A, 2026, 'P2', 'new');
    try {
      const body = { form: 'P2', term: 'I', year: '2026', marktype_id: A.ids.marktype };
      const summary = ok(await send(A, 'POST', path, body));
      expectNothingOfB(JSON.stringify(summary), `POST ${path}`);
      await refusesForeign('POST', path, { ...body, student_id: B.ids.marked }, 'student_id', ['audit_log']);
      await refusesForeign('POST', path, { ...body, marktype_id: B.ids.marktype }, 'marktype_id', ['audit_log']);
    } finally {
      await onCurriculum(A, 2026, 'P2', 'old');
    }
  },
  'POST /api/school/students/upload': async () => {
    const tables = ['students', 'student_categories'];
    // A category only B has is unknown in A.
    const row = { studentid: `ALPHA/${1000 + next()}`, firstname: 'Alpha', lastname: 'Upload', gender: 'F', form: 'P7' };
    await refusesForeign('POST', '/api/school/students/upload', null, 'category', tables, () =>
      uploadLearners(A, [{ ...row, category: `${B.mark} boarders` }]),
    );
    // B's student id names a learner of A's own (a new one): B's learner is untouched.
    const before = await rowsOf(B, tables);
    const response = await uploadLearners(A, [{ ...row, studentid: B.studentid }]);
    try {
      expect(response.statusCode, response.body).toBe(200);
      expect(await rowsOf(B, tables)).toEqual(before);
    } finally {
      await withTenant(t.database.db, { tenantId: A.tenant.id }, (trx) =>
        trx.deleteFrom('students').where('tenant_id', '=', A.tenant.id).where('studentid', '=', B.studentid).execute(),
      );
    }
  },
  'POST /api/school/students/upload/preview': async () => {
    // B remembers what its heading "Boarding" means; A's preview of a file with that heading does not.
    const tables = ['upload_mappings', 'students'];
    await withTenant(t.database.db, { tenantId: B.tenant.id }, (trx) =>
      trx
        .insertInto('upload_mappings')
        .values({ tenant_id: B.tenant.id, kind: 'students', header: 'boarding', field: 'category' })
        .onConflict((oc) => oc.doNothing())
        .execute(),
    );
    const [beforeA, beforeB] = [await rowsOf(A, tables), await rowsOf(B, tables)];
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Students').addRows([
      ['Name', 'Boarding'],
      ['OKELLO Brian', 'Boarder'],
    ]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const response = await sendForm(A, 'POST', '/api/school/students/upload/preview', {}, { field: 'file', bytes, name: 'class.xlsx' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().columns[1]).toMatchObject({ header: 'Boarding', field: null, source: 'unrecognised' });
    expect([await rowsOf(A, tables), await rowsOf(B, tables)]).toEqual([beforeA, beforeB]);
  },
  'POST /api/uploads/studentjournals': async () => {
    const tables = ['statement_lines', 'fee_journals', 'students'];
    // B's learner is no learner of A: the row is refused, no line is written anywhere.
    await refusesForeign('POST', '/api/uploads/studentjournals', null, 'studentid', tables, () =>
      uploadJournal(A, [{ studentid: B.studentid, amount: 99_000 }]),
    );
    const before = await rowsOf(B, tables);
    expect((await uploadJournal(A, [{ studentid: A.studentid, amount: 150_000 }])).statusCode).toBe(200);
    expect(await rowsOf(B, tables)).toEqual(before);
  },
  'PUT /api/school/gradingrules': async () => {
    // A saves its rules (at A's version): B's row and rules are as they were.
    const { version } = ok(await send(A, 'GET', '/api/school/gradingrules'));
    await landsInA('PUT', '/api/school/gradingrules', { rules: DEFAULT_GRADING_RULES, version }, ['report_settings']);
    expect(ok(await send(B, 'GET', '/api/school/gradingrules')).rules).toEqual(B_RULES);
  },
  'PUT /api/school/logo': async () => {
    ok(await sendBadge(B, '#0a0'));
    const before = (await send(B, 'GET', '/api/school/logo')).rawPayload;
    ok(await sendBadge(A, '#a00'));
    const after = await send(B, 'GET', '/api/school/logo');
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(before)).toBe(true);
  },
  'DELETE /api/school/logo': async () => {
    ok(await sendBadge(B, '#0a0'));
    ok(await send(A, 'DELETE', '/api/school/logo'));
    expect((await send(A, 'GET', '/api/school/logo')).statusCode).toBe(404);
    expect((await send(B, 'GET', '/api/school/logo')).statusCode).toBe(200);
    ok(await sendBadge(A, '#a00'));
  },
  'PUT /api/school/reportlayout': async () => {
    const { version } = ok(await send(A, 'GET', '/api/school/reportlayout'));
    await landsInA('PUT', '/api/school/reportlayout', { layout: DEFAULT_REPORT_LAYOUT, version }, ['report_settings']);
    expect(ok(await send(B, 'GET', '/api/school/reportlayout')).layout).toEqual(B_LAYOUT);
  },
  'PUT /api/school/curricula': async () => {
    // Both sides' P3 on the new curriculum for 2028 (data from before a primary school was kept off it): A's
    // choice puts A's back on the old one and lands in A alone, B's rows and rule as they were, B's P3 still new.
    for (const side of [A, B]) await onCurriculum(side, 2028, 'P3', 'new');
    const body = { year: 2028, allow_zero: false, classes: [{ form: 'P3', curriculum: 'old' }] };
    await landsInA('PUT', '/api/school/curricula', body, ['class_curricula', 'curriculum_settings']);
    const p3 = async (side: Side) =>
      ok(await send(side, 'GET', '/api/school/curricula?year=2028')).classes.find((row: { form: string }) => row.form === 'P3');
    expect(await p3(A)).toEqual({ form: 'P3', curriculum: 'old', default: 'old' });
    expect(await p3(B)).toEqual({ form: 'P3', curriculum: 'new', default: 'old' });
    // A primary school's class set to the new curriculum: refused by its field, nothing written in A or B.
    const tables = ['class_curricula', 'curriculum_settings'];
    const [beforeA, beforeB] = [await rowsOf(A, tables), await rowsOf(B, tables)];
    const refused = await send(A, 'PUT', '/api/school/curricula', { ...body, classes: [{ form: 'P3', curriculum: 'new' }] });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['classes.0.curriculum']);
    expect([await rowsOf(A, tables), await rowsOf(B, tables)]).toEqual([beforeA, beforeB]);
    await onCurriculum(B, 2028, 'P3', 'old');
  },
  'PUT /api/school/termdates': async () => {
    const terms = B_TERMS_2027.map((term) => ({
      ...term,
      starts: term.starts.replace('2027', '2028'),
      ends: term.ends.replace('2027', '2028'),
    }));
    await landsInA('PUT', '/api/school/termdates', { year: 2028, terms }, ['term_dates']);
    expect(ok(await send(B, 'GET', '/api/school/termdates?year=2028')).custom).toBe(false);
  },
  'POST /api/users': async () => {
    // Inviting a member of B (by e-mail) from A changes nothing in B, and makes no member of A.
    const person = await makeUser(t.database, { memberOf: [{ tenantId: B.tenant.id, roles: ['teacher'] }] });
    const tables = ['memberships', 'invitations'];
    const response = await landsInA('POST', '/api/users', { name: 'Someone', email: person.email, roles: ['teacher'] }, tables);
    expect(response.json().status).toBe('pending');
    expect(await roleNamesIn(t.database, B.tenant.id, person.id)).toEqual(['teacher']);
    const inA = await withTenant(t.database.db, { tenantId: A.tenant.id }, (trx) =>
      trx.selectFrom('memberships').select('user_id').where('user_id', '=', person.id).execute(),
    );
    expect(inA).toEqual([]);
  },
  'POST /api/tenants': async () => {
    // B's code cannot be taken; B stays as it was, and no tenant is made.
    const before = await tenantRow(B.tenant.id);
    const count = () => t.database.db.selectFrom('tenants').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const tenants = await count();
    const response = await send(A, 'POST', '/api/tenants', { name: 'Bravo Copy', tenantcode: B.tenant.tenantcode, category: 'School' });
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['tenantcode']);
    expect(await tenantRow(B.tenant.id)).toEqual(before);
    expect(await count()).toEqual(tenants);
  },
};

async function checkWriteRoute(route: AppRoute, mode: Mode) {
  const check = WRITES[route.key];
  if (!check) throw new Error(`${route.key}: not in the matrix. Add it to WRITES (or EXEMPT with a reason).`);
  await check(mode);
}

// ---------------------------------------------------------------------------------------------
// Business routes (issue 31), between two businesses: Charlie's superadmin asks, Delta holds a
// record of every kind. The same three checks as the school routes': Delta's record 404 where
// Charlie's own answers 200 and Delta's is as it was (RECORDS), a list shows Charlie's and nothing
// of Delta's (LISTS), a write lands in Charlie alone or is refused naming Delta's records (WRITES).
// A business route joins these maps, not the schools' (where A's control would meet the wall's
// 404); its shops' records are made in seedShop.

async function seedShop(shop: Shop) {
  shop.tenant = await makeTenant(t.database, { name: shop.tenantName, category: 'Retail' });
  const admin = await makeUser(t.database, { name: `${shop.mark} Owner`, memberOf: [{ tenantId: shop.tenant.id, roles: ['superadmin'] }] });
  shop.token = await login(t.app, admin.email);
  shop.adminId = admin.id;
  shop.c = caller(t.app, shop.token, shop.tenant.tenantcode);
  shop.ids = {};
  // Its catalogue, partners and reference data: a record of every kind, the group and product naming its own tax.
  for (const [key, path] of CATALOGUE) shop.ids[key] = ok(await shop.c.post(path, SHOP_BODY[key](shop))).id;
}

/** The shops' spare records are numbered apart from the schools' (whose fixtures bound their serial). */
let shopSerial = 0;
const nextShop = () => ++shopSerial;
/** A letter for a number, for a currency's three-letter code. */
const letter = (n: number) => String.fromCharCode(65 + (Math.floor(n) % 26));

/** The catalogue's resources (issue 31 points 1 to 3), by the key of their records in Shop.ids, in an order that makes references first. */
const CATALOGUE = [
  ['currency', '/api/currencies', 'currencies'],
  ['tax', '/api/taxes', 'taxes'],
  ['whduty', '/api/whduties', 'whduties'],
  ['bank', '/api/banks', 'banks'],
  ['productgroup', '/api/productgroups', 'product_groups'],
  ['product', '/api/products', 'products'],
  ['company', '/api/companies', 'companies'],
] as const;
type CatalogueKey = (typeof CATALOGUE)[number][0];
const CATALOGUE_TABLES = CATALOGUE.map(([, , table]) => table);

/** Each record's body for a shop (its create body, and Charlie's PUT body for its own); `n` makes a spare one differ. */
const SHOP_BODY: Record<CatalogueKey, (shop: Shop, n?: number) => Record<string, unknown>> = {
  currency: (shop, n) => ({
    code: n ? `Q${letter(n / 26)}${letter(n)}` : 'CDF',
    name: `${shop.mark} Franc ${n ?? ''}`,
    decimals: 2,
    rate: '1.3',
  }),
  tax: (shop, n) => ({ code: `EXP${n ?? ''}`, name: `${shop.mark} exports ${n ?? ''}`, kind: 'zero', rate: '0' }),
  whduty: (shop, n) => ({
    code: `RENT${n ?? ''}`,
    name: `${shop.mark} rent ${n ?? ''}`,
    kind: 'other',
    rate: '10.5',
    threshold: '250000.5',
  }),
  bank: (shop, n) => ({ name: `${shop.mark} Savings Bank ${n ?? ''}`, code: `TSB${n ?? ''}`, kind: 'bank' }),
  productgroup: (shop, n) => ({ name: `${shop.mark} books ${n ?? ''}`, tax_id: shop.ids.tax }),
  product: (shop, n) => ({
    code: `${shop.mark.toUpperCase()}-${n ?? 0}`,
    name: `${shop.mark} pen ${n ?? ''}`,
    group_id: shop.ids.productgroup,
    tax_id: shop.ids.tax,
    unit: 'piece',
    price: '12500',
    cost: '9000',
  }),
  company: (shop, n) => ({ name: `${shop.mark} Paper Supplies ${n ?? ''}`, role: 'supplier', buyer_type: 'b2b', tin: '1000123456' }),
};

/** The references a catalogue write may name, and the record of the other shop's each could name instead. */
const SHOP_REFERENCES: Partial<Record<CatalogueKey, Array<[field: string, key: CatalogueKey]>>> = {
  productgroup: [['tax_id', 'tax']],
  product: [
    ['group_id', 'productgroup'],
    ['tax_id', 'tax'],
  ],
};

beforeAll(async () => {
  await seedShop(C);
  await seedShop(D);
});

/** What of Delta must never show in Charlie's answers: every id, its name mark and code. */
function expectNothingOfD(text: string, where: string) {
  const lower = text.toLowerCase();
  for (const secret of [...Object.values(D.ids), D.tenant.id, D.tenant.tenantcode, D.mark, D.adminId]) {
    expect(lower.includes(secret.toLowerCase()), `${where} shows Delta's ${secret}`).toBe(false);
  }
}

const BUSINESS_RECORDS: Record<string, RecordFixture<Shop>> = Object.fromEntries(
  CATALOGUE.map(([key, path, table]) => [
    `${path}/:id`,
    {
      id: (shop: Shop) => shop.ids[key] as string,
      body: (shop: Shop) => SHOP_BODY[key](shop),
      stored: () => rowOf(table, D, D.ids[key] as string),
      spare: async () => ok(await C.c.post(path, SHOP_BODY[key](C, nextShop()))).id,
    },
  ]),
);
const BUSINESS_LISTS: Record<string, ListFixture> = Object.fromEntries(
  CATALOGUE.map(([key, path]) => [path, { urls: () => [`${path}?per_page=100`, `${path}?excel=1`], own: () => [C.ids[key] as string] }]),
);
const BUSINESS_WRITES: Record<string, (mode: Mode) => Promise<void>> = Object.fromEntries(
  CATALOGUE.map(([key, path, table]) => [
    `POST ${path}`,
    async () => {
      // Naming Delta's group or tax: refused on that field, nothing written in either shop.
      for (const [field, other] of SHOP_REFERENCES[key] ?? []) {
        const [beforeC, beforeD] = [await rowsOf(C, CATALOGUE_TABLES), await rowsOf(D, CATALOGUE_TABLES)];
        const refused = await send(C, 'POST', path, { ...SHOP_BODY[key](C, nextShop()), [field]: D.ids[other] });
        expect(refused.statusCode, `POST ${path} naming Delta's ${other}: ${refused.body.slice(0, 300)}`).toBe(422);
        expect(Object.keys(refused.json().errors ?? {}), `POST ${path} naming Delta's ${other}`).toContain(field);
        expectNothingOfD(refused.body, `POST ${path}`);
        expect([await rowsOf(C, CATALOGUE_TABLES), await rowsOf(D, CATALOGUE_TABLES)]).toEqual([beforeC, beforeD]);
      }
      // A valid one lands in Charlie, Delta's rows as they were.
      const before = await rowsOf(D, CATALOGUE_TABLES);
      const response = await send(C, 'POST', path, SHOP_BODY[key](C, nextShop()));
      expect(response.statusCode, `POST ${path}: ${response.body.slice(0, 300)}`).toBe(200);
      expect((await rowOf(table, C, response.json().id))?.tenant_id).toBe(C.tenant.id);
      expect(await rowsOf(D, CATALOGUE_TABLES)).toEqual(before);
    },
  ]),
);

/** The stock ledger's routes (modules/stock): each shop's store and a receipt of its product there, seeded after the shops. */
const STOCK_TABLES = ['stock_movements', 'stock_records', 'stock_levels', 'stock_valuations', 'business_settings'];
const stockBody = (shop: Shop, fields: Record<string, unknown> = {}) => ({
  request_id: newId(),
  kind: 'purchase',
  occurred_on: '2026-01-05',
  location_id: shop.ids.location,
  partner_id: shop.ids.company,
  lines: [{ product_id: shop.ids.product, quantity: '3', unit_cost: '9000' }],
  ...fields,
});

beforeAll(async () => {
  for (const shop of [C, D]) {
    shop.ids.location = ok(await shop.c.post('/api/locations', { name: `${shop.mark} store` })).id;
    shop.ids.movement = ok(await shop.c.post('/api/stockrecords', stockBody(shop))).movement_id;
  }
});

const productCode = (shop: Shop) => SHOP_BODY.product(shop).code as string;
Object.assign(BUSINESS_LISTS, {
  '/api/stockrecords': {
    urls: () => ['/api/stockrecords?per_page=100', '/api/stockrecords?excel=1'],
    own: () => [C.ids.movement as string],
    foreignFilters: () => [`/api/stockrecords?product_id=${D.ids.product}`, `/api/stockrecords?location_id=${D.ids.location}`],
  },
  '/api/stockrecords/onhand': {
    urls: () => ['/api/stockrecords/onhand?per_page=100', '/api/stockrecords/onhand?excel=1'],
    own: () => [C.ids.product as string],
    foreignFilters: () => [`/api/stockrecords/onhand?search=${productCode(D)}`],
  },
  '/api/stockrecords/lookup': {
    urls: () => [`/api/stockrecords/lookup?code=${productCode(C)}`],
    own: () => [C.ids.product as string],
    check: async () => {
      const response = await send(C, 'GET', `/api/stockrecords/lookup?code=${productCode(D)}`);
      expect(response.statusCode, response.body).toBe(422);
      expectNothingOfD(response.body, "lookup of Delta's code");
    },
  },
  '/api/stockrecords/valuation': {
    urls: () => ['/api/stockrecords/valuation', '/api/stockrecords/valuation?excel=1'],
    own: () => [C.ids.product as string],
    foreignFilters: () => [`/api/stockrecords/valuation?location_id=${D.ids.location}`],
  },
  '/api/business/settings': {},
  '/api/home/business': {},
} satisfies Record<string, ListFixture>);
Object.assign(BUSINESS_WRITES, {
  'POST /api/stockrecords': async () => {
    // Naming Delta's product, location or partner: refused on that field, nothing written in either shop.
    for (const [field, body] of [
      ['lines.0.product_id', stockBody(C, { lines: [{ product_id: D.ids.product, quantity: '1', unit_cost: '1' }] })],
      ['location_id', stockBody(C, { location_id: D.ids.location })],
      ['partner_id', stockBody(C, { partner_id: D.ids.company })],
    ] as const) {
      const [beforeC, beforeD] = [await rowsOf(C, STOCK_TABLES), await rowsOf(D, STOCK_TABLES)];
      const refused = await send(C, 'POST', '/api/stockrecords', body);
      expect(refused.statusCode, `POST /api/stockrecords naming Delta's ${field}: ${refused.body.slice(0, 300)}`).toBe(422);
      expect(Object.keys(refused.json().errors ?? {})).toContain(field);
      expectNothingOfD(refused.body, 'POST /api/stockrecords');
      expect([await rowsOf(C, STOCK_TABLES), await rowsOf(D, STOCK_TABLES)]).toEqual([beforeC, beforeD]);
    }
    const before = await rowsOf(D, STOCK_TABLES);
    const response = await send(C, 'POST', '/api/stockrecords', stockBody(C));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(await rowsOf(D, STOCK_TABLES)).toEqual(before);
  },
  'PUT /api/business/settings': async () => {
    const before = await rowsOf(D, STOCK_TABLES);
    expect((await send(C, 'PUT', '/api/business/settings', { allow_negative_stock: false })).statusCode).toBe(200);
    expect(await rowsOf(D, STOCK_TABLES)).toEqual(before);
  },
});

/** A business upload's sheet: a header row and rows. */
async function uploadSheet(header: string[], rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Upload');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

Object.assign(BUSINESS_LISTS, { '/api/uploads/template': { urls: () => ['/api/uploads/template?kind=products'] } } satisfies Record<
  string,
  ListFixture
>);
// The shop's daily reports (issue 32 point 8): each a report of the asker's shop alone, as JSON, a workbook and a PDF.
Object.assign(
  BUSINESS_LISTS,
  Object.fromEntries(
    ['cashup?from=2026-01-01&to=2026-12-31', 'debtors?date=2026-12-31', 'vat?month=2026-11', 'profit?from=2026-01-01&to=2026-12-31'].map(
      (report) => {
        const url = `/api/business/reports/${report}`;
        return [url.split('?')[0], { urls: () => [url, `${url}&excel=1`, `${url}&pdf=1`] }];
      },
    ),
  ) satisfies Record<string, ListFixture>,
);
Object.assign(BUSINESS_WRITES, {
  // Opening stock naming Delta's location or Delta's product code: refused, nothing written in either shop.
  'POST /api/uploads': async () => {
    const header = ['Code', 'Quantity', 'Unit cost'];
    for (const [field, fields, rows] of [
      ['location_id', { kind: 'openingstock', location_id: D.ids.location as string }, [[productCode(C), '1', '100']]],
      ['2.code', { kind: 'openingstock', location_id: C.ids.location as string }, [[productCode(D), '1', '100']]],
    ] as const) {
      const [beforeC, beforeD] = [await rowsOf(C, STOCK_TABLES), await rowsOf(D, STOCK_TABLES)];
      const bytes = await uploadSheet(
        header,
        rows.map((row) => [...row]),
      );
      const refused = await sendForm(C, 'POST', '/api/uploads', fields, { field: 'file', bytes, name: 'opening.xlsx' });
      expect(refused.statusCode, `POST /api/uploads naming Delta's ${field}: ${refused.body.slice(0, 300)}`).toBe(422);
      expect(Object.keys(refused.json().errors ?? {})).toContain(field);
      expectNothingOfD(refused.body, 'POST /api/uploads');
      expect([await rowsOf(C, STOCK_TABLES), await rowsOf(D, STOCK_TABLES)]).toEqual([beforeC, beforeD]);
    }
  },
});

// EFRIS (issue 32 point 7): each shop's outbox row (a failed document), its device and its products with URA.
const EFRIS_TABLES = ['efris_devices', 'efris_outbox', 'efris_messages', 'efris_products'];
beforeAll(async () => {
  for (const shop of [C, D]) {
    shop.ids.efrisOutbox = newId();
    await withTenant(t.database.db, { tenantId: shop.tenant.id }, (trx) =>
      trx
        .insertInto('efris_outbox')
        .values({
          tenant_id: shop.tenant.id,
          id: shop.ids.efrisOutbox as string,
          document_kind: 'invoice',
          document_id: newId(),
          interface_code: 'T109',
          reference: `${shop.mark}-INV-1`,
          status: 'failed',
        })
        .execute(),
    );
  }
  // Charlie's device on the local fake (this app serves it), so the TIN check answers.
  ok(await C.c.put('/api/efris/device', { device_no: 'C-FAKE', tin: '1000000008', mode: 'fake' }));
});
Object.assign(BUSINESS_RECORDS, {
  '/api/efris/outbox/:id/retry': {
    id: (shop: Shop) => shop.ids.efrisOutbox as string,
    body: () => ({}),
    stored: () => rowOf('efris_outbox', D, D.ids.efrisOutbox as string),
  },
} satisfies Record<string, RecordFixture<Shop>>);
Object.assign(BUSINESS_LISTS, {
  '/api/efris/device': {},
  '/api/efris/outbox': { urls: () => ['/api/efris/outbox?per_page=100'], own: () => [C.ids.efrisOutbox as string] },
  '/api/products/efris': { urls: () => ['/api/products/efris?per_page=100'], own: () => [C.ids.product as string] },
  '/api/efris/tin': { urls: () => ['/api/efris/tin?tin=1000000001'] },
  '/api/efris/dictionary': { urls: () => ['/api/efris/dictionary'] },
} satisfies Record<string, ListFixture>);
Object.assign(BUSINESS_WRITES, {
  'PUT /api/efris/device': async () => {
    const before = await rowsOf(D, EFRIS_TABLES);
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // A key of Charlie's own, set with the local fake: Delta's device untouched.
    const response = await send(C, 'PUT', '/api/efris/device', { device_no: 'C-FAKE', tin: '1000000008', mode: 'fake', private_key: key });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.body).not.toContain('PRIVATE');
    expect(await rowsOf(D, EFRIS_TABLES)).toEqual(before);
  },
  'POST /api/products/efris': async () => {
    const [beforeC, beforeD] = [await rowsOf(C, EFRIS_TABLES), await rowsOf(D, EFRIS_TABLES)];
    const refused = await send(C, 'POST', '/api/products/efris', { product_ids: [D.ids.product] });
    expect(refused.statusCode, refused.body.slice(0, 300)).toBe(422);
    expect(Object.keys(refused.json().errors ?? {})).toContain('product_ids');
    expectNothingOfD(refused.body, 'POST /api/products/efris');
    expect([await rowsOf(C, EFRIS_TABLES), await rowsOf(D, EFRIS_TABLES)]).toEqual([beforeC, beforeD]);
  },
});

/*
 * The books and payment vouchers (issue 32; modules/accounts, modules/vouchers): each shop's
 * chart (seeded with the shop), an account of its own and a draft voucher; Charlie's paid voucher
 * for the journal, and Charlie's spare drafts and approved vouchers to approve and pay (each step
 * answers 200 once per voucher, and each mode asks it once).
 */
const BOOK_TABLES = ['accounts', 'vouchers', 'voucher_lines', 'journal_entries', 'journal_lines', 'document_numbers'];
const bookAccount = (shop: Shop, n = 0) => ({ code: `69${n}`, name: `${shop.mark} guards ${n}`, type: 'expense', subtype: 'expense' });
const voucherBody = (shop: Shop, fields: Record<string, unknown> = {}) => ({
  request_id: newId(),
  payee_name: `${shop.mark} landlord`,
  method: 'cash',
  voucher_on: '2026-01-06',
  lines: [{ account_id: shop.ids.rent, description: `${shop.mark} rent`, amount: '100000' }],
  ...fields,
});
const newVoucher = async (shop: Shop) => ok(await shop.c.post('/api/vouchers', voucherBody(shop))).voucher.id as string;
const vouchersToApprove: string[] = [];
const vouchersToPay: string[] = [];
const voucherOfD = async () => ({
  voucher: await rowOf('vouchers', D, D.ids.voucher as string),
  lines: (await rowsOf(D, ['voucher_lines'])).voucher_lines,
});

beforeAll(async () => {
  for (const shop of [C, D]) {
    const chart = ok(await shop.c.get('/api/accounts?per_page=1000')).accounts as Array<{ id: string; system_key: string | null }>;
    shop.ids.rent = chart.find((account) => account.system_key === 'rent')?.id as string;
    shop.ids.account = ok(await shop.c.post('/api/accounts', bookAccount(shop))).id;
    shop.ids.voucher = await newVoucher(shop);
  }
  C.ids.paid = await newVoucher(C);
  ok(await C.c.post(`/api/vouchers/${C.ids.paid}/approve`));
  ok(await C.c.post(`/api/vouchers/${C.ids.paid}/pay`, { paid_on: '2026-01-07' }));
  for (const _mode of MODES) {
    vouchersToApprove.push(await newVoucher(C));
    const approved = await newVoucher(C);
    ok(await C.c.post(`/api/vouchers/${approved}/approve`));
    vouchersToPay.push(approved);
  }
});

Object.assign(BUSINESS_RECORDS, {
  '/api/accounts/:id': {
    id: (shop: Shop) => shop.ids.account as string,
    body: (shop: Shop) => bookAccount(shop),
    stored: () => rowOf('accounts', D, D.ids.account as string),
    spare: async () => ok(await C.c.post('/api/accounts', bookAccount(C, nextShop()))).id,
  },
  '/api/vouchers/:id': {
    id: (shop: Shop) => shop.ids.voucher as string,
    body: (shop: Shop) => voucherBody(shop),
    stored: voucherOfD,
    spare: () => newVoucher(C),
  },
  // Charlie's next draft to approve (a voucher is approved once); Delta's draft stays a draft.
  '/api/vouchers/:id/approve': {
    id: (shop: Shop) => (shop === C ? (vouchersToApprove.shift() as string) : (D.ids.voucher as string)),
    body: () => ({}),
    stored: voucherOfD,
  },
  '/api/vouchers/:id/pay': {
    id: (shop: Shop) => (shop === C ? (vouchersToPay.shift() as string) : (D.ids.voucher as string)),
    body: () => ({ paid_on: '2026-01-08' }),
    stored: voucherOfD,
  },
} satisfies Record<string, RecordFixture<Shop>>);
Object.assign(BUSINESS_LISTS, {
  '/api/accounts': { urls: () => ['/api/accounts?per_page=1000', '/api/accounts?excel=1'], own: () => [C.ids.account as string] },
  '/api/accounts/trialbalance': {
    urls: () => ['/api/accounts/trialbalance', '/api/accounts/trialbalance?excel=1'],
    own: () => [C.ids.account as string],
  },
  '/api/accounts/journal': {
    urls: () => ['/api/accounts/journal?source_kind=voucher', '/api/accounts/journal?excel=1'],
    own: () => [C.ids.paid as string],
    foreignFilters: () => [`/api/accounts/journal?account_id=${D.ids.rent}`],
  },
  '/api/vouchers': { urls: () => ['/api/vouchers?per_page=200', '/api/vouchers?excel=1'], own: () => [C.ids.voucher as string] },
} satisfies Record<string, ListFixture>);
Object.assign(BUSINESS_WRITES, {
  'POST /api/accounts': async () => {
    const [beforeC, beforeD] = [await rowsOf(C, BOOK_TABLES), await rowsOf(D, BOOK_TABLES)];
    const refused = await send(C, 'POST', '/api/accounts', { ...bookAccount(C, nextShop()), parent_id: D.ids.account });
    expect(refused.statusCode, refused.body.slice(0, 300)).toBe(422);
    expect(Object.keys(refused.json().errors ?? {})).toContain('parent_id');
    expectNothingOfD(refused.body, 'POST /api/accounts');
    expect([await rowsOf(C, BOOK_TABLES), await rowsOf(D, BOOK_TABLES)]).toEqual([beforeC, beforeD]);
    expect((await send(C, 'POST', '/api/accounts', bookAccount(C, nextShop()))).statusCode).toBe(200);
    expect(await rowsOf(D, BOOK_TABLES)).toEqual(beforeD);
  },
  'POST /api/vouchers': async () => {
    // Naming Delta's expense account, paying account or partner: refused on that field, nothing written in either shop.
    for (const [field, body] of [
      ['lines.0.account_id', voucherBody(C, { lines: [{ account_id: D.ids.rent, description: 'Rent', amount: '1000' }] })],
      ['account_id', voucherBody(C, { account_id: D.ids.account })],
      ['payee_id', voucherBody(C, { payee_id: D.ids.company })],
    ] as const) {
      const [beforeC, beforeD] = [await rowsOf(C, BOOK_TABLES), await rowsOf(D, BOOK_TABLES)];
      const refused = await send(C, 'POST', '/api/vouchers', body);
      expect(refused.statusCode, `POST /api/vouchers naming Delta's ${field}: ${refused.body.slice(0, 300)}`).toBe(422);
      expect(Object.keys(refused.json().errors ?? {})).toContain(field);
      expectNothingOfD(refused.body, 'POST /api/vouchers');
      expect([await rowsOf(C, BOOK_TABLES), await rowsOf(D, BOOK_TABLES)]).toEqual([beforeC, beforeD]);
    }
    const before = await rowsOf(D, BOOK_TABLES);
    expect((await send(C, 'POST', '/api/vouchers', voucherBody(C))).statusCode).toBe(200);
    expect(await rowsOf(D, BOOK_TABLES)).toEqual(before);
  },
});

// Sales invoices (issue 32 point 1): each shop's draft (read, changed, deleted) and a draft to issue.
const INVOICE_TABLES = ['invoices', 'invoice_lines', 'stock_movements', 'stock_records', 'journal_entries', 'journal_lines'];
const invoiceBody = (shop: Shop, fields: Record<string, unknown> = {}) => ({
  request_id: newId(),
  location_id: shop.ids.location,
  lines: [{ product_id: shop.ids.product, quantity: '1' }],
  ...fields,
});
beforeAll(async () => {
  for (const shop of [C, D]) {
    shop.ids.invoice = ok(await shop.c.post('/api/invoices', invoiceBody(shop))).invoice.id;
    shop.ids.invoiceToIssue = ok(await shop.c.post('/api/invoices', invoiceBody(shop))).invoice.id;
  }
});
Object.assign(BUSINESS_RECORDS, {
  '/api/invoices/:id': {
    id: (shop: Shop) => shop.ids.invoice as string,
    body: (shop: Shop) => invoiceBody(shop),
    stored: () => rowOf('invoices', D, D.ids.invoice as string),
    spare: async () => ok(await C.c.post('/api/invoices', invoiceBody(C))).invoice.id,
  },
  '/api/invoices/:id/issue': {
    id: (shop: Shop) => shop.ids.invoiceToIssue as string,
    body: () => ({}),
    stored: () => rowOf('invoices', D, D.ids.invoiceToIssue as string),
  },
} satisfies Record<string, RecordFixture<Shop>>);
Object.assign(BUSINESS_LISTS, {
  '/api/invoices': {
    urls: () => ['/api/invoices?per_page=100', '/api/invoices?excel=1'],
    own: () => [C.ids.invoice as string],
    foreignFilters: () => [`/api/invoices?customer_id=${D.ids.company}`],
  },
  '/api/invoices/defaults': {},
} satisfies Record<string, ListFixture>);
Object.assign(BUSINESS_WRITES, {
  'POST /api/invoices': async () => {
    // Naming Delta's product, location or partner: refused on that field, nothing written in either shop.
    for (const [field, body] of [
      ['lines.0.product_id', invoiceBody(C, { lines: [{ product_id: D.ids.product, quantity: '1' }] })],
      ['location_id', invoiceBody(C, { location_id: D.ids.location })],
      ['customer_id', invoiceBody(C, { customer_id: D.ids.company })],
    ] as const) {
      const [beforeC, beforeD] = [await rowsOf(C, INVOICE_TABLES), await rowsOf(D, INVOICE_TABLES)];
      const refused = await send(C, 'POST', '/api/invoices', body);
      expect(refused.statusCode, `POST /api/invoices naming Delta's ${field}: ${refused.body.slice(0, 300)}`).toBe(422);
      expect(Object.keys(refused.json().errors ?? {})).toContain(field);
      expectNothingOfD(refused.body, 'POST /api/invoices');
      expect([await rowsOf(C, INVOICE_TABLES), await rowsOf(D, INVOICE_TABLES)]).toEqual([beforeC, beforeD]);
    }
    const before = await rowsOf(D, INVOICE_TABLES);
    const response = await send(C, 'POST', '/api/invoices', invoiceBody(C));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(await rowsOf(D, INVOICE_TABLES)).toEqual(before);
  },
  'POST /api/invoices/counter': async () => {
    // A counter sale of Delta's product: refused on its line, nothing written in either shop (no receipt either).
    const tables = [...INVOICE_TABLES, 'receipts', 'receipt_allocations'];
    const sale = (productId: string) => ({
      request_id: newId(),
      location_id: C.ids.location,
      lines: [{ product_id: productId, quantity: '1' }],
      payment: { method: 'cash' },
    });
    const [beforeC, beforeD] = [await rowsOf(C, tables), await rowsOf(D, tables)];
    const refused = await send(C, 'POST', '/api/invoices/counter', sale(D.ids.product as string));
    expect(refused.statusCode, refused.body.slice(0, 300)).toBe(422);
    expect(Object.keys(refused.json().errors ?? {})).toContain('lines.0.product_id');
    expectNothingOfD(refused.body, 'POST /api/invoices/counter');
    expect([await rowsOf(C, tables), await rowsOf(D, tables)]).toEqual([beforeC, beforeD]);
    const response = await send(C, 'POST', '/api/invoices/counter', sale(C.ids.product as string));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(await rowsOf(D, tables)).toEqual(beforeD);
  },
});

// Receipts and memos (issue 32 points 2 and 3): each shop's customer with an issued invoice of a
// service, a receipt allocated to part of it with an advance left, and a credit memo on it.
const PAYMENT_TABLES = ['receipts', 'receipt_allocations', 'memos', 'memo_lines', 'journal_entries', 'journal_lines', 'document_numbers'];
const paymentDay = new Date().toISOString().slice(0, 10);
const receiptBody = (shop: Shop, fields: Record<string, unknown> = {}) => ({
  request_id: newId(),
  customer_id: shop.ids.payCustomer,
  received_on: paymentDay,
  method: 'cash',
  amount: '30000',
  allocations: [{ invoice_id: shop.ids.payInvoice, amount: '10000' }],
  ...fields,
});
const memoBody = (shop: Shop, fields: Record<string, unknown> = {}) => ({
  request_id: newId(),
  kind: 'credit',
  invoice_id: shop.ids.payInvoice,
  reason_code: 'price',
  reason: `${shop.mark} discount`,
  issued_on: paymentDay,
  lines: [{ invoice_line: 0, quantity: '1', unit_price: '1000' }],
  ...fields,
});
beforeAll(async () => {
  for (const shop of [C, D]) {
    shop.ids.payCustomer = ok(await shop.c.post('/api/companies', { name: `${shop.mark} Customer`, role: 'customer' })).id;
    shop.ids.payService = ok(
      await shop.c.post('/api/products', {
        code: `${shop.mark.toUpperCase()}-SVC`,
        name: `${shop.mark} delivery`,
        unit: 'trip',
        kind: 'service',
        track_stock: false,
        price: '50000',
      }),
    ).id;
    const draft = ok(
      await shop.c.post('/api/invoices', {
        request_id: newId(),
        customer_id: shop.ids.payCustomer,
        location_id: shop.ids.location,
        lines: [{ product_id: shop.ids.payService, quantity: '2', unit_price: '50000' }],
      }),
    );
    shop.ids.payInvoice = ok(await shop.c.post(`/api/invoices/${draft.invoice.id}/issue`, {})).invoice.id;
    shop.ids.receipt = ok(await shop.c.post('/api/receipts', receiptBody(shop))).receipt.id;
    shop.ids.memo = ok(await shop.c.post('/api/memos', memoBody(shop))).memo.id;
  }
});
Object.assign(BUSINESS_RECORDS, {
  '/api/receipts/:id': { id: (shop: Shop) => shop.ids.receipt as string, stored: () => rowOf('receipts', D, D.ids.receipt as string) },
  // Charlie's advance applied to Charlie's invoice (200); the same on Delta's receipt: not found, nothing allocated.
  '/api/receipts/:id/allocations': {
    id: (shop: Shop) => shop.ids.receipt as string,
    body: () => ({ allocations: [{ invoice_id: C.ids.payInvoice, amount: '1000' }] }),
    stored: () => rowsOf(D, PAYMENT_TABLES),
  },
  '/api/memos/:id': { id: (shop: Shop) => shop.ids.memo as string, stored: () => rowOf('memos', D, D.ids.memo as string) },
} satisfies Record<string, RecordFixture<Shop>>);
// The prints (modules/sales-prints): each shop prints its own invoice and receipt; the other's are not found.
Object.assign(BUSINESS_RECORDS, {
  '/api/invoices/:id/print': {
    id: (shop: Shop) => shop.ids.payInvoice as string,
    stored: () => rowOf('invoices', D, D.ids.payInvoice as string),
  },
  '/api/receipts/:id/print': {
    id: (shop: Shop) => shop.ids.receipt as string,
    stored: () => rowOf('receipts', D, D.ids.receipt as string),
  },
} satisfies Record<string, RecordFixture<Shop>>);
Object.assign(BUSINESS_LISTS, {
  '/api/receipts': {
    urls: () => ['/api/receipts?per_page=100', '/api/receipts?excel=1'],
    own: () => [C.ids.receipt as string],
    foreignFilters: () => [`/api/receipts?customer_id=${D.ids.payCustomer}`],
  },
  '/api/receipts/openinvoices': {
    urls: () => [`/api/receipts/openinvoices?customer_id=${C.ids.payCustomer}`],
    own: () => [C.ids.payInvoice as string],
    check: async () => {
      const response = await send(C, 'GET', `/api/receipts/openinvoices?customer_id=${D.ids.payCustomer}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().invoices).toEqual([]);
    },
  },
  '/api/memos': {
    urls: () => ['/api/memos?per_page=100', '/api/memos?excel=1'],
    own: () => [C.ids.memo as string],
    foreignFilters: () => [`/api/memos?invoice_id=${D.ids.payInvoice}`, `/api/memos?customer_id=${D.ids.payCustomer}`],
  },
  '/api/memos/remains': {
    urls: () => [`/api/memos/remains?invoice_id=${C.ids.payInvoice}`],
    own: () => [C.ids.payInvoice as string],
    check: async () => {
      const response = await send(C, 'GET', `/api/memos/remains?invoice_id=${D.ids.payInvoice}`);
      expect(response.statusCode, response.body).toBe(404);
      expectNothingOfD(response.body, 'GET /api/memos/remains');
    },
  },
} satisfies Record<string, ListFixture>);
/** A payment write naming Delta's records: refused as `status` (on `field` for a 422), nothing written in either shop. */
async function refusedNamingD(url: string, body: unknown, status: number, field?: string) {
  const [beforeC, beforeD] = [await rowsOf(C, PAYMENT_TABLES), await rowsOf(D, PAYMENT_TABLES)];
  const refused = await send(C, 'POST', url, body);
  expect(refused.statusCode, `POST ${url} naming Delta's records: ${refused.body.slice(0, 300)}`).toBe(status);
  if (field) expect(Object.keys(refused.json().errors ?? {})).toContain(field);
  expectNothingOfD(refused.body, `POST ${url}`);
  expect([await rowsOf(C, PAYMENT_TABLES), await rowsOf(D, PAYMENT_TABLES)]).toEqual([beforeC, beforeD]);
}
Object.assign(BUSINESS_WRITES, {
  'POST /api/receipts': async () => {
    await refusedNamingD('/api/receipts', receiptBody(C, { customer_id: D.ids.payCustomer, allocations: [] }), 422, 'customer_id');
    await refusedNamingD('/api/receipts', receiptBody(C, { allocations: [{ invoice_id: D.ids.payInvoice, amount: '100' }] }), 404);
    await refusedNamingD('/api/receipts', receiptBody(C, { allocations: [], invoice_id: D.ids.payInvoice }), 404);
    const before = await rowsOf(D, PAYMENT_TABLES);
    const response = await send(C, 'POST', '/api/receipts', receiptBody(C, { allocations: [] }));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(await rowsOf(D, PAYMENT_TABLES)).toEqual(before);
  },
  'POST /api/memos': async () => {
    await refusedNamingD('/api/memos', memoBody(C, { invoice_id: D.ids.payInvoice }), 404);
    await refusedNamingD(
      '/api/memos',
      memoBody(C, {
        kind: 'credit',
        reason_code: 'return',
        restock: true,
        location_id: D.ids.location,
        lines: [{ invoice_line: 0, quantity: '1' }],
      }),
      422,
      'location_id',
    );
    const before = await rowsOf(D, PAYMENT_TABLES);
    const response = await send(C, 'POST', '/api/memos', memoBody(C));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(await rowsOf(D, PAYMENT_TABLES)).toEqual(before);
  },
});

async function checkBusinessRoute(route: AppRoute, mode: Mode) {
  const missing = (map: string) =>
    new Error(`${route.key}: a business route not in the matrix. Add it to ${map} (its records in seedShop).`);
  if (kind(route) === 'record') {
    const fixture = BUSINESS_RECORDS[route.url];
    if (!fixture) throw missing('BUSINESS_RECORDS');
    await checkRecord(route, fixture, C, D);
  } else if (kind(route) === 'list') {
    const fixture = BUSINESS_LISTS[route.url];
    if (!fixture) throw missing('BUSINESS_LISTS');
    await checkList(route, mode, fixture, C, expectNothingOfD);
  } else {
    const check = BUSINESS_WRITES[route.key];
    if (!check) throw missing('BUSINESS_WRITES');
    await check(mode);
  }
}

// ---------------------------------------------------------------------------------------------

const exemption = (route: AppRoute) => EXEMPT[route.key] ?? (route.method === 'HEAD' ? EXEMPT[`GET ${route.url}`] : undefined);
const kind = (route: AppRoute): 'record' | 'list' | 'write' =>
  route.url.includes(':') ? 'record' : route.method === 'GET' || route.method === 'HEAD' ? 'list' : 'write';
const CHECKED = ROUTES.filter((route) => exemption(route) === undefined);
const business = (route: AppRoute) => routeTenantKind(route.url) === 'business';
const covered = (route: AppRoute) =>
  business(route)
    ? kind(route) === 'record'
      ? route.url in BUSINESS_RECORDS
      : kind(route) === 'list'
        ? route.url in BUSINESS_LISTS
        : route.key in BUSINESS_WRITES
    : kind(route) === 'record'
      ? route.url in RECORDS
      : kind(route) === 'list'
        ? route.url in LISTS
        : route.key in WRITES;

describe('the route table', () => {
  it('is the test app’s own, and has the routes this file knows', () => {
    expect(ROUTES.length).toBeGreaterThan(80);
    for (const route of ROUTES) expect(t.app.hasRoute({ method: route.method as 'GET', url: route.url }), route.key).toBe(true);
  });

  it('every route is in the matrix or exempt with a reason', () => {
    expect(CHECKED.filter((route) => !covered(route)).map((route) => route.key)).toEqual([]);
  });

  it('nothing under /api is exempt: every /api route is a tenant route', () => {
    expect(ROUTES.filter((route) => route.url.startsWith('/api') && exemption(route) !== undefined).map((route) => route.key)).toEqual([]);
  });

  it('the exemptions and fixtures name live routes only (none left behind by a removed route)', () => {
    const keys = new Set(ROUTES.map((route) => route.key));
    const urls = new Set(ROUTES.map((route) => route.url));
    expect(Object.keys(EXEMPT).filter((key) => !keys.has(key))).toEqual([]);
    expect(Object.keys(RECORDS).filter((url) => !urls.has(url))).toEqual([]);
    expect(Object.keys(LISTS).filter((url) => !urls.has(url))).toEqual([]);
    expect(Object.keys(WRITES).filter((key) => !keys.has(key))).toEqual([]);
    expect(Object.keys(BUSINESS_RECORDS).filter((url) => !urls.has(url))).toEqual([]);
    expect(Object.keys(BUSINESS_LISTS).filter((url) => !urls.has(url))).toEqual([]);
    expect(Object.keys(BUSINESS_WRITES).filter((key) => !keys.has(key))).toEqual([]);
  });

  it('holds a business route between the two businesses, a school or shared route between the two schools', () => {
    const misplaced = [
      ...Object.keys(RECORDS).filter((url) => routeTenantKind(url) === 'business'),
      ...Object.keys(LISTS).filter((url) => routeTenantKind(url) === 'business'),
      ...Object.keys(WRITES).filter((key) => routeTenantKind(key.split(' ')[1] ?? '') === 'business'),
      ...Object.keys(BUSINESS_RECORDS).filter((url) => routeTenantKind(url) !== 'business'),
      ...Object.keys(BUSINESS_LISTS).filter((url) => routeTenantKind(url) !== 'business'),
      ...Object.keys(BUSINESS_WRITES).filter((key) => routeTenantKind(key.split(' ')[1] ?? '') !== 'business'),
    ];
    expect(misplaced).toEqual([]);
  });
});

for (const mode of MODES) {
  describe(`every tenant route, ${mode.name}`, () => {
    beforeAll(() => codeFilter(mode.filter));
    afterAll(() => codeFilter(true));

    for (const route of CHECKED) {
      it(route.key, async () => {
        if (business(route)) await checkBusinessRoute(route, mode);
        else if (kind(route) === 'record') await checkRecordRoute(route);
        else if (kind(route) === 'list') await checkListRoute(route, mode);
        else await checkWriteRoute(route, mode);
      });
    }
  });
}
