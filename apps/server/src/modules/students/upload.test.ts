import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { ERROR_MESSAGES, STUDENT_MESSAGES as M, TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { setCodeTenantFilterForTests } from '../../db/tenant-filter.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, caller, login, type TestApp } from '../../test/test-app.js';
import { asOwner } from '../../test/test-database.js';
import { giveLearnerCodes, idSequence, initialsOf } from './student-ids.js';
import { UPLOAD_COLUMNS } from './upload-columns.js';

/*
 * Bulk upload of learners (issue 5 point 3) through the API on the real database: the
 * template, every row checked before anything is written, idempotent re-uploads keyed by the
 * student id, autoid, tenants kept apart, and the upload limits of security.md item 18.
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const HEADER = UPLOAD_COLUMNS.map((column) => column.key);
type Row = Partial<Record<(typeof HEADER)[number], unknown>>;

let t: TestApp;
/** The head teacher of another school (each school the tests make has its own head teacher). */
let outsiderToken: string;

interface School {
  id: string;
  tenantcode: string;
}

/** A school with its own head teacher, and its student categories. */
async function newSchool(name = 'Mustard Primary School', categories = ['Day scholar', 'Boarder']): Promise<School> {
  const school = await makeTenant(t.database, { name });
  await makeUser(t.database, {
    email: `head-${school.tenantcode}@school.test`,
    memberOf: [{ tenantId: school.id, roles: ['headteacher'] }],
  });
  await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx
      .insertInto('student_categories')
      .values(categories.map((category) => ({ tenant_id: school.id, id: newId(), name: category, remarks: null })))
      .execute(),
  );
  return school;
}

async function headOf(school: School): Promise<string> {
  return login(t.app, `head-${school.tenantcode}@school.test`);
}

/** An .xlsx of the given header and rows, as Excel would save it (dates as date cells). */
async function workbookOf(
  rows: ReadonlyArray<Row | unknown[]>,
  header: ReadonlyArray<string> = HEADER,
  sheetName = 'Students',
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow([...header]);
  for (const row of rows) sheet.addRow(Array.isArray(row) ? row : header.map((name) => (row as Row)[name as keyof Row] ?? null));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A multipart body made by the platform's FormData, as a browser would send it. */
async function multipart(fields: Record<string, string>, file?: { buffer: Buffer; name: string; field?: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file) form.set(file.field ?? 'file', new Blob([new Uint8Array(file.buffer)]), file.name);
  const request = new Request('http://mustard.test/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') as string };
}

async function upload(
  school: School,
  token: string,
  buffer: Buffer | null,
  fields: Record<string, string> = {},
  name = 'class.xlsx',
): Promise<LightMyRequestResponse> {
  const body = await multipart(fields, buffer ? { buffer, name } : undefined);
  return t.app.inject({
    method: 'POST',
    url: '/api/school/students/upload',
    headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode, 'content-type': body.contentType },
    payload: body.payload,
  });
}

interface Learner {
  id: string;
  studentid: string;
  firstname: string;
  lastname: string;
  othername: string | null;
  gender: string | null;
  dob: string | null;
  form: string;
  stream: string | null;
  status: string;
  studentcategory_id: string | null;
  paymentcode: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  house: string | null;
  lin: string | null;
  code: string | null;
  updated_at: string;
}

async function learnersOf(school: School): Promise<Learner[]> {
  return withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
    const rows = await trx
      .selectFrom('students')
      .selectAll()
      .select([sql<string | null>`dob::text`.as('dob'), sql<string>`updated_at::text`.as('updated_at')])
      .where('tenant_id', '=', school.id)
      .orderBy('studentid')
      .execute();
    return rows as unknown as Learner[];
  });
}

async function countOf(school: School): Promise<number> {
  return (await learnersOf(school)).length;
}

async function categoryId(school: School, name: string): Promise<string> {
  return withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
    const row = await trx.selectFrom('student_categories').select('id').where('name', '=', name).executeTakeFirstOrThrow();
    return row.id;
  });
}

/** A learner row of a P4 class; `n` makes the names and id. */
function learner(n: number, fields: Row = {}): Row {
  return {
    studentid: `MPS/${String(n).padStart(4, '0')}`,
    firstname: `First${n}`,
    lastname: `Last${n}`,
    gender: n % 2 ? 'F' : 'M',
    dob: new Date(Date.UTC(2015, n % 12, 1 + (n % 28))),
    form: 'P4',
    stream: 'East',
    ...fields,
  };
}

const body = (response: LightMyRequestResponse) => response.json() as Record<string, any>;

/** A minimal zip writer: stored names, deflated data, sizes as given (they may lie). */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = (CRC_TABLE[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function zipOf(entries: Array<{ name: string; data: Buffer; declaredSize?: number; hidden?: boolean; centralStored?: boolean }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const compressed = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    // centralStored: the directory calls the entry stored, its size the compressed length.
    central.writeUInt16LE(entry.centralStored ? 0 : 8, 10);
    central.writeUInt32LE(entry.centralStored ? crc32(compressed) : crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(entry.centralStored ? compressed.length : size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    // A hidden entry has a local header only: the central directory does not list it.
    if (!entry.hidden) centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const listed = entries.filter((entry) => !entry.hidden).length;
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(listed, 8);
  end.writeUInt16LE(listed, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Every entry of a zip (an .xlsx), inflated. */
async function entriesOf(buffer: Buffer): Promise<Array<{ name: string; data: Buffer }>> {
  const entries: Array<{ name: string; data: Buffer }> = [];
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true });
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
          zip.readEntry();
        });
      }),
    );
    zip.on('end', () => resolve());
    zip.readEntry();
  });
  return entries;
}

/** One entry of a zip (an .xlsx), as text. */
async function _zipEntry(buffer: Buffer, name: string): Promise<string> {
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true });
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName !== name) return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          zip.close();
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
      });
    });
    zip.on('end', () => reject(new Error(`${name} is not in the zip`)));
    zip.readEntry();
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  const anywhere = await newSchool('Anywhere Primary');
  outsiderToken = await headOf(anywhere);
});

afterAll(async () => {
  await t?.close();
});

describe('the template', () => {
  it('downloads with exactly the columns the upload reads, and the instructions with an example', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const response = await caller(t.app, token, school.tenantcode).get('/api/school/students/template');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="Students-template.xlsx"');
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['cache-control']).toBe('no-store');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'studentid',
      'firstname',
      'lastname',
      'othername',
      'gender',
      'dob',
      'form',
      'stream',
      'category',
      'paymentcode',
      'address',
      'phone',
      'email',
      'house',
      'lin',
      'code',
      'status',
      'guardian_email',
    ]);
    // Nothing but the headers on the sheet that is uploaded: an example there was once imported.
    expect(sheet.actualRowCount).toBe(1);
    const instructions = workbook.getWorksheet('Instructions')!;
    expect((instructions.getRow(1).values as unknown[]).slice(1)).toEqual(['Column', 'Example', 'What to write']);
    const explained = new Map<string, string>();
    const examples = new Map<string, unknown>();
    instructions.eachRow((row) => {
      explained.set(String(row.getCell(1).value), String(row.getCell(3).value));
      examples.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    for (const column of HEADER) expect(explained.has(column), column).toBe(true);
    expect(explained.get('dob')).toContain('YYYY-MM-DD');
    expect(explained.get('gender')).toContain('F or M');
    expect(explained.get('category')).toContain('Boarder, Day scholar');
    expect(explained.get('status')).toContain('blank means active');
    // The example in the school's own words: its initials (no learners yet), its first class.
    expect(examples.get('studentid')).toBe('MPS/0001');
    expect(examples.get('form')).toBe('Nursery');
    expect(examples.get('firstname')).toBe('Sarah');

    // Uploaded untouched, it holds no learner.
    const uploaded = await upload(school, token, response.rawPayload);
    expect(uploaded.statusCode).toBe(422);
    expect(body(uploaded).message).toBe(M.emptySheet);
    expect(await countOf(school)).toBe(0);
  });

  it('shows a secondary school its own prefix, and the class and stream it has most learners in', async () => {
    const tenant = await makeTenant(t.database, { name: 'Mukono High School', schooltype: 'secondary' });
    const head = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles: ['headteacher'] }] });
    await withTenant(t.database.db, { tenantId: tenant.id }, (trx) =>
      trx
        .insertInto('students')
        .values(
          [
            ['MKH/0007', 'S2', 'B'],
            ['MKH/0008', 'S2', 'B'],
            ['MKH/0009', 'S2', 'A'],
            ['MKH/0010', 'S4', 'A'],
          ].map(([studentid, form, stream]) => ({
            tenant_id: tenant.id,
            id: newId(),
            studentid: studentid as string,
            firstname: 'Amina',
            lastname: 'Nakato',
            form: form as string,
            stream: stream as string,
          })),
        )
        .execute(),
    );
    const response = await caller(t.app, await login(t.app, head.email), tenant.tenantcode).get('/api/school/students/template');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const examples = new Map<string, unknown>();
    workbook.getWorksheet('Instructions')!.eachRow((row) => examples.set(String(row.getCell(1).value), row.getCell(2).value));
    expect([examples.get('studentid'), examples.get('form'), examples.get('stream')]).toEqual(['MKH/0011', 'S2', 'B']);
  });

  it('is refused to a teacher (no manage student): 403', async () => {
    const school = await newSchool();
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const response = await caller(t.app, await login(t.app, teacher.email), school.tenantcode).get('/api/school/students/template');
    expect(response.statusCode).toBe(403);
  });
});

describe('uploading learners', () => {
  it('creates the learners of a good file with every field, the category by name and dates from date cells', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const rows: Row[] = [
      learner(1, {
        othername: 'Grace',
        gender: 'female',
        dob: new Date(Date.UTC(2015, 2, 14)),
        category: 'day SCHOLAR',
        paymentcode: 'MPS100001',
        address: 'Kampala',
        phone: 772123456,
        email: 'parent@example.com',
        house: 'Red',
        lin: 'U0000000001',
        code: 123456,
        status: '',
      }),
      learner(2, { dob: '2014-11-02', category: 'Boarder', status: 'Inactive', phone: '0701234567' }),
      learner(3, { dob: null, category: null, gender: null }),
    ];
    const response = await upload(school, token, await workbookOf(rows));
    expect(response.statusCode, response.body).toBe(200);
    expect(body(response)).toEqual({ message: M.uploaded, created: 3, updated: 0, unchanged: 0, header_row: 1, ignored: [] });

    const [first, second, third] = await learnersOf(school);
    expect(first).toMatchObject({
      studentid: 'MPS/0001',
      firstname: 'First1',
      lastname: 'Last1',
      othername: 'Grace',
      gender: 'F',
      dob: '2015-03-14',
      form: 'P4',
      stream: 'East',
      status: 'active',
      studentcategory_id: await categoryId(school, 'Day scholar'),
      paymentcode: 'MPS100001',
      address: 'Kampala',
      phone: '772123456',
      email: 'parent@example.com',
      house: 'Red',
      lin: 'U0000000001',
      code: '123456',
    });
    expect(second).toMatchObject({
      dob: '2014-11-02',
      status: 'inactive',
      studentcategory_id: await categoryId(school, 'Boarder'),
      phone: '0701234567',
      gender: 'M',
    });
    expect(third).toMatchObject({ dob: null, studentcategory_id: null, gender: null, othername: null, email: null });

    const audit = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('entity', '=', 'students').where('action', '=', 'upload').execute(),
    );
    expect(audit).toHaveLength(1);
    const after = typeof audit[0]!.after === 'string' ? JSON.parse(audit[0]!.after) : audit[0]!.after;
    expect(after).toEqual({ created: 3, updated: 0, unchanged: 0 });
  });

  it('reads friendly headers in any order, ignoring case, spaces and underscores, and skips unknown columns', async () => {
    const school = await newSchool();
    const header = ['No.', 'Class', 'STUDENT_ID', 'Last name', 'First name', 'Date of birth', 'Passcode', 'LIN', 'Sex', 'Phone Number'];
    const response = await upload(
      school,
      await headOf(school),
      await workbookOf(
        [[1, 'P5', 'MPS/0100', 'Okello', 'Brian', new Date(Date.UTC(2014, 0, 30)), '0042', 'U12', 'M', '0772000000']],
        header,
      ),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(await learnersOf(school)).toMatchObject([
      {
        studentid: 'MPS/0100',
        form: 'P5',
        firstname: 'Brian',
        lastname: 'Okello',
        dob: '2014-01-30',
        code: '0042',
        lin: 'U12',
        gender: 'M',
        phone: '0772000000',
      },
    ]);
  });

  it('writes nothing when a row is bad, and names each bad row and field', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    expect((await upload(school, token, await workbookOf([learner(1), learner(2)]))).statusCode).toBe(200);
    const before = await learnersOf(school);

    // Rows 2 to 8 of the sheet: row 5 has no first name, row 7 has gender X; row 2 would update a learner.
    const rows = [
      learner(1, { firstname: 'Changed' }),
      learner(3),
      learner(4),
      learner(5, { firstname: null }),
      learner(6),
      learner(7, { gender: 'X', dob: '31/02/2015', email: 'not an email' }),
      learner(8),
    ];
    const response = await upload(school, token, await workbookOf(rows));
    expect(response.statusCode).toBe(422);
    expect(body(response)).toEqual({
      statusCode: 422,
      message: M.rowsInvalid,
      errors: {
        '5.firstname': [M.firstnameRequired],
        '7.gender': [M.genderInvalid],
        '7.dob': [`${M.notADate}: F7 “31/02/2015”`],
        '7.email': [M.emailInvalid],
      },
    });
    expect(await learnersOf(school)).toEqual(before);
  });

  it('names a date cell no calendar has as a bad date, and a date serial without a date format is read as a date', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    /** Learners 1, 2, … with these raw dob cells (and formats). */
    const withDates = async (cells: Array<{ value: number; numFmt?: string }>) => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Students');
      sheet.addRow(HEADER);
      cells.forEach((cell, index) => {
        const row = sheet.addRow(HEADER.map((name) => (learner(index + 1) as Record<string, unknown>)[name] ?? null));
        Object.assign(row.getCell(HEADER.indexOf('dob') + 1), cell);
      });
      return Buffer.from(await workbook.xlsx.writeBuffer());
    };
    // 1e20 in a date format reads as an invalid Date; 2015 is a year, not a date.
    const response = await upload(school, token, await withDates([{ value: 1e20, numFmt: 'yyyy-mm-dd' }, { value: 2015 }]));
    expect(response.statusCode).toBe(422);
    expect(body(response).errors).toEqual({ '2.dob': [`${M.notADate}: F2 “Invalid Date”`], '3.dob': [`${M.notADate}: F3 “2015”`] });

    // Excel's serial of 2015-03-14, without a date format.
    const fixed = await upload(school, token, await withDates([{ value: 42077 }]));
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect((await learnersOf(school))[0]).toMatchObject({ studentid: 'MPS/0001', dob: '2015-03-14' });
  });

  it('changes nothing when the same file is uploaded twice', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const file = await workbookOf(Array.from({ length: 30 }, (_, n) => learner(n + 1, { category: 'Boarder', phone: 772000000 + n })));
    expect(body(await upload(school, token, file))).toMatchObject({ created: 30, updated: 0, unchanged: 0 });
    const before = await learnersOf(school);
    const again = await upload(school, token, file);
    expect(body(again)).toEqual({ message: M.uploaded, created: 0, updated: 0, unchanged: 30, header_row: 1, ignored: [] });
    expect(await learnersOf(school)).toEqual(before);
  });

  it('updates just the learner whose row changed in a re-upload', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const rows = Array.from({ length: 5 }, (_, n) => learner(n + 1));
    await upload(school, token, await workbookOf(rows));
    const before = await learnersOf(school);

    rows[2] = learner(3, { stream: 'West', phone: '0700000003' });
    const response = await upload(school, token, await workbookOf(rows));
    expect(body(response)).toEqual({ message: M.uploaded, created: 0, updated: 1, unchanged: 4, header_row: 1, ignored: [] });
    const after = await learnersOf(school);
    expect(after).toHaveLength(5);
    after.forEach((row, index) => {
      if (index === 2) {
        expect(row).toMatchObject({ id: before[2]!.id, stream: 'West', phone: '0700000003' });
        expect(row.updated_at).not.toBe(before[2]!.updated_at);
      } else expect(row).toEqual(before[index]);
    });
  });

  it('keeps what a column left out of the file says, and clears a blank cell of a column the file has', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    await upload(school, token, await workbookOf([learner(1, { phone: '0772123456', house: 'Red', status: 'inactive' })]));
    const header = ['studentid', 'firstname', 'lastname', 'form', 'house'];
    const response = await upload(school, token, await workbookOf([['MPS/0001', 'First1', 'Last1', 'P5', null]], header));
    expect(body(response)).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    expect((await learnersOf(school))[0]).toMatchObject({
      form: 'P5',
      house: null,
      phone: '0772123456',
      status: 'inactive',
      stream: 'East',
    });
  });

  it('names an unknown category and a student id repeated on a later row', async () => {
    const school = await newSchool();
    const rows = [learner(1), learner(2, { category: 'Weekly boarder' }), learner(3), learner(1, { firstname: 'Twin' }), learner(4)];
    const response = await upload(school, await headOf(school), await workbookOf(rows));
    expect(response.statusCode).toBe(422);
    expect(body(response).errors).toEqual({ '3.category': [M.categoryUnknown], '5.studentid': [M.studentidRepeated] });
    expect(await countOf(school)).toBe(0);
  });

  it('asks for the student id when autoid is off', async () => {
    const school = await newSchool();
    const response = await upload(school, await headOf(school), await workbookOf([learner(1), learner(2, { studentid: null })]), {
      autoid: '0',
    });
    expect(response.statusCode).toBe(422);
    expect(body(response).errors).toEqual({ '3.studentid': [M.studentidRequired] });
  });

  it('answers 422 without a file, with a file in another field, and for a sheet without learners', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const none = await upload(school, token, null, { autoid: '1' });
    expect(none.statusCode).toBe(422);
    expect(body(none)).toEqual({ statusCode: 422, message: ERROR_MESSAGES[422], errors: { file: [M.fileRequired] } });

    const elsewhere = await multipart({}, { buffer: await workbookOf([learner(1)]), name: 'class.xlsx', field: 'photo' });
    const misplaced = await t.app.inject({
      method: 'POST',
      url: '/api/school/students/upload',
      headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode, 'content-type': elsewhere.contentType },
      payload: elsewhere.payload,
    });
    expect(body(misplaced).errors).toEqual({ file: [M.fileRequired] });

    const empty = await upload(school, token, await workbookOf([]));
    expect(empty.statusCode).toBe(422);
    expect(body(empty).message).toBe(M.emptySheet);
    expect(await countOf(school)).toBe(0);
  });

  it('is all or nothing: a failure after the learners were written leaves the database unchanged', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    await upload(school, token, await workbookOf([learner(1)]));
    const before = await learnersOf(school);
    // 700 rows: two INSERT chunks and an update are written before the audit entry fails.
    const rows = [learner(1, { firstname: 'Changed' }), ...Array.from({ length: 700 }, (_, n) => learner(n + 2))];
    // The database refuses the upload's audit entry, the last write of its transaction
    // (security.md item 16): a trigger of this test's own, on this school's rows only.
    await asOwner(t.database, [
      `CREATE FUNCTION test_refuse_upload_audit() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.action = 'upload' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`,
      `CREATE TRIGGER test_refuse_upload_audit BEFORE INSERT ON audit_log FOR EACH ROW
         WHEN (NEW.tenant_id = '${school.id}') EXECUTE FUNCTION test_refuse_upload_audit()`,
    ]);
    try {
      const response = await upload(school, token, await workbookOf(rows));
      expect(response.statusCode).toBe(500);
    } finally {
      await asOwner(t.database, ['DROP TRIGGER test_refuse_upload_audit ON audit_log', 'DROP FUNCTION test_refuse_upload_audit()']);
    }
    expect(await learnersOf(school)).toEqual(before);
  });

  it('refuses a teacher (no manage student): 403 and nothing written', async () => {
    const school = await newSchool();
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const response = await upload(school, await login(t.app, teacher.email), await workbookOf([learner(1)]));
    expect(response.statusCode).toBe(403);
    expect(await countOf(school)).toBe(0);
  });
});

describe('autoid', () => {
  it('gives new learners ids continuing from the initials of the school, and a re-upload does not duplicate them', async () => {
    const school = await newSchool('Mustard Primary School');
    const token = await headOf(school);
    const rows = [
      learner(1, { studentid: null, firstname: 'Sarah', othername: 'Grace' }),
      learner(2, { studentid: null, firstname: 'Brian' }),
      learner(3, { studentid: null, firstname: 'Mary' }),
    ];
    const file = await workbookOf(rows);
    const first = await upload(school, token, file, { autoid: '1' });
    expect(body(first)).toEqual({ message: M.uploaded, created: 3, updated: 0, unchanged: 0, header_row: 1, ignored: [] });
    expect((await learnersOf(school)).map((row) => [row.studentid, row.firstname])).toEqual([
      ['MPS/0001', 'Sarah'],
      ['MPS/0002', 'Brian'],
      ['MPS/0003', 'Mary'],
    ]);

    const again = await upload(school, token, file, { autoid: 'true' });
    expect(body(again)).toEqual({ message: M.uploaded, created: 0, updated: 0, unchanged: 3, header_row: 1, ignored: [] });
    expect(await countOf(school)).toBe(3);

    // Matching ignores case; a changed field other than the identifying ones updates the learner.
    const changed = await workbookOf([
      learner(1, { studentid: null, firstname: 'SARAH', othername: 'grace', house: 'Blue' }),
      learner(2, { studentid: null, firstname: 'Brian' }),
      learner(3, { studentid: null, firstname: 'Mary' }),
      learner(4, { studentid: null, firstname: 'Joseph' }),
    ]);
    expect(body(await upload(school, token, changed, { autoid: 'on' }))).toMatchObject({ created: 1, updated: 1, unchanged: 2 });
    const after = await learnersOf(school);
    expect(after.map((row) => row.studentid)).toEqual(['MPS/0001', 'MPS/0002', 'MPS/0003', 'MPS/0004']);
    expect(after[0]).toMatchObject({ house: 'Blue', firstname: 'SARAH' });
  });

  it("continues the school's own sequence, around ids the file names", async () => {
    const school = await newSchool('Kampala Parents School');
    const token = await headOf(school);
    const existing = [
      learner(1, { studentid: 'MPS/0040' }),
      learner(2, { studentid: 'MPS/0042' }),
      learner(3, { studentid: 'KPS/0900' }),
      learner(4, { studentid: 'S-17' }),
    ];
    await upload(school, token, await workbookOf(existing));
    const rows = [
      learner(10, { studentid: null }),
      learner(11, { studentid: 'MPS/0044' }),
      learner(12, { studentid: null }),
      learner(13, { studentid: null }),
    ];
    expect(body(await upload(school, token, await workbookOf(rows), { autoid: '1' }))).toMatchObject({ created: 4 });
    const byName = new Map((await learnersOf(school)).map((row) => [row.firstname, row.studentid]));
    expect([byName.get('First10'), byName.get('First11'), byName.get('First12'), byName.get('First13')]).toEqual([
      'MPS/0045',
      'MPS/0044',
      'MPS/0046',
      'MPS/0047',
    ]);
  });

  it('never gives the same id twice when two uploads of a school run at once', async () => {
    const school = await newSchool('Mustard Primary School');
    const token = await headOf(school);
    const files = await Promise.all(
      [0, 1].map((batch) =>
        workbookOf(Array.from({ length: 40 }, (_, n) => learner(batch * 100 + n, { studentid: null, firstname: `Batch${batch}-${n}` }))),
      ),
    );
    const answers = await Promise.all(files.map((file) => upload(school, token, file, { autoid: '1' })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const learners = await learnersOf(school);
    expect(learners).toHaveLength(80);
    expect(learners.map((row) => row.studentid)).toEqual(Array.from({ length: 80 }, (_, n) => `MPS/${String(n + 1).padStart(4, '0')}`));
    // Two uploads at once never give two learners the same passcode or payment code.
    expect(new Set(learners.map((row) => row.code)).size).toBe(80);
    expect(new Set(learners.map((row) => row.paymentcode)).size).toBe(80);
  });

  it('builds ids from the rules: the most used prefix, the widest serial, initials of at most four letters', () => {
    const next = idSequence(['MPS/0001', 'MPS/0002', 'ABC/9999', 'MPS/0010'], 'XX');
    expect([next(), next()]).toEqual(['MPS/0011', 'MPS/0012']);
    expect(idSequence(['KPS/00099', 'KPS/00100'], 'XX')()).toBe('KPS/00101');
    expect(idSequence([], 'MPS')()).toBe('MPS/0001');
    expect(idSequence(['MPS/0001', 'MPS/0003', 'MPS/0002'], 'X')()).toBe('MPS/0004');
    // Serials past 2^53 (a phone number or LIN typed as the id) still count up, exactly.
    expect(idSequence(['X/9007199254740992'], 'XX')()).toBe('X/9007199254740993');
    const huge = idSequence(['X/99999999999999999999', 'X/100000000000000000000', 'X/100000000000000000001'], 'XX');
    expect(huge()).toBe('X/100000000000000000002');
    expect(huge()).toBe('X/100000000000000000003');
    expect(initialsOf('Mustard Primary School')).toBe('MPS');
    expect(initialsOf("St. Mary's College Kisubi Old Boys")).toBe('SMCK');
    expect(initialsOf('  ')).toBe('ID');
  });
});

describe('passcodes and payment codes (issue 10 point 15)', () => {
  it('are drawn for new learners without one, unique in the school, and kept by a re-upload whose cells are blank', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const rows = Array.from({ length: 30 }, (_, n) => learner(n + 1, { code: n === 0 ? 777001 : null, paymentcode: null }));
    const file = await workbookOf(rows);
    expect(body(await upload(school, token, file))).toMatchObject({ created: 30 });
    const first = await learnersOf(school);
    expect(first[0]?.code).toBe('777001');
    for (const row of first) {
      expect(row.code).toMatch(/^[1-9]\d{5}$/);
      expect(row.paymentcode).toMatch(/^[1-9]\d{9}$/);
    }
    expect(new Set(first.map((row) => row.code)).size).toBe(30);
    expect(new Set(first.map((row) => row.paymentcode)).size).toBe(30);
    expect(body(await upload(school, token, file))).toMatchObject({ created: 0, updated: 0, unchanged: 30 });
    expect((await learnersOf(school)).map((row) => [row.code, row.paymentcode])).toEqual(first.map((row) => [row.code, row.paymentcode]));
  });

  it('never repeat one the school has, however often the draw hits it', () => {
    const known = [{ code: '100000', paymentcode: '1000000000' }];
    const learners = [
      { code: null, paymentcode: null },
      { code: null, paymentcode: '2000000000' },
    ];
    // Each draw is a first digit, then the rest: the taken 100000 comes three times, then again.
    const draws = [1, 0, 1, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0];
    giveLearnerCodes(learners, known, () => draws.shift() ?? 4);
    expect(learners).toEqual([
      { code: '200000', paymentcode: '4000000004' },
      { code: '300000', paymentcode: '2000000000' },
    ]);
  });
});

describe('tenants', () => {
  it("neither matches nor changes another school's learners: the same student id in two schools stays two learners", async () => {
    const mine = await newSchool('Mustard Primary School');
    const theirs = await newSchool('Mustard Primary School');
    await upload(
      theirs,
      await headOf(theirs),
      await workbookOf([learner(1, { firstname: 'Theirs' }), learner(2, { studentid: 'MPS/0099' })]),
    );
    const theirsBefore = await learnersOf(theirs);
    const token = await headOf(mine);

    for (const codeFilter of [true, false]) {
      setCodeTenantFilterForTests(codeFilter);
      try {
        const response = await upload(mine, token, await workbookOf([learner(1, { firstname: 'Mine' }), learner(3, { studentid: null })]), {
          autoid: '1',
        });
        expect(response.statusCode).toBe(200);
      } finally {
        setCodeTenantFilterForTests(true);
      }
    }
    const learners = await learnersOf(mine);
    // Their MPS/0099 does not move my sequence; their MPS/0001 is not mine.
    expect(learners.map((row) => [row.studentid, row.firstname])).toEqual([
      ['MPS/0001', 'Mine'],
      ['MPS/0002', 'First3'],
    ]);
    expect(await learnersOf(theirs)).toEqual(theirsBefore);
  });

  it('does not upload into a school the user does not belong to', async () => {
    const school = await newSchool();
    const response = await upload(school, outsiderToken, await workbookOf([learner(1)]));
    expect(response.statusCode).toBe(403);
    expect(await countOf(school)).toBe(0);
  });
});

describe('classes and streams (issue 10 point 2)', () => {
  it('refuses a class the school does not have, by row, and writes classes and streams in the school’s spelling', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const bad = await upload(school, token, await workbookOf([learner(1, { form: 'S9' }), learner(2, { form: 'p4' })]));
    expect(bad.statusCode).toBe(422);
    expect(body(bad).errors).toEqual({ '2.form': [M.classUnknown] });
    expect(await countOf(school)).toBe(0);

    const good = await upload(
      school,
      token,
      await workbookOf([
        learner(1, { form: 'p4', stream: 'East' }),
        learner(2, { form: ' P4', stream: 'east' }),
        learner(3, { form: 'p5', stream: 'WEST' }),
      ]),
    );
    expect(good.statusCode, good.body).toBe(200);
    const placed = (await learnersOf(school)).map((row) => [row.studentid, row.form, row.stream]);
    expect(placed).toEqual([
      ['MPS/0001', 'P4', 'East'],
      ['MPS/0002', 'P4', 'East'],
      ['MPS/0003', 'P5', 'WEST'],
    ]);
    // A later file's "west" joins the school's WEST.
    expect((await upload(school, token, await workbookOf([learner(4, { form: 'P5', stream: 'west' })]))).statusCode).toBe(200);
    expect((await learnersOf(school)).at(-1)?.stream).toBe('WEST');
  });
});

describe('upload limits (security.md item 18)', () => {
  it('refuses a zip bomb quickly with 413 and writes nothing', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const zeros = Buffer.alloc(60 * 1024 * 1024);
    const honest = zipOf([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/worksheets/sheet1.xml', data: zeros },
    ]);
    expect(honest.length).toBeLessThan(200 * 1024);
    let started = Date.now();
    const response = await upload(school, token, honest);
    expect(response.statusCode).toBe(413);
    expect(body(response).message).toBe(M.fileUnsafe);
    expect(Date.now() - started).toBeLessThan(5000);

    // Sizes that lie (1 KB declared): caught while inflating.
    const lying = zipOf([{ name: 'xl/worksheets/sheet1.xml', data: zeros, declaredSize: 1024 }]);
    started = Date.now();
    const lied = await upload(school, token, lying);
    expect([413, 422]).toContain(lied.statusCode);
    expect(Date.now() - started).toBeLessThan(5000);

    // Too many entries.
    const crowded = zipOf(Array.from({ length: 300 }, (_, n) => ({ name: `xl/${n}.xml`, data: Buffer.from('x') })));
    expect((await upload(school, token, crowded)).statusCode).toBe(413);
    expect(await countOf(school)).toBe(0);
  });

  it('never inflates what the size check did not count: an entry the directory does not list, or calls stored', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const real = await workbookOf([learner(1)]);
    const entries = await entriesOf(real);
    expect((await upload(school, token, zipOf(entries))).statusCode).toBe(200);

    // 60 MB of zeros behind a local header the central directory does not list: never read.
    let started = Date.now();
    const hidden = zipOf([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(60 * 1024 * 1024), hidden: true }, ...entries]);
    const read = await upload(school, token, hidden);
    expect(read.statusCode).toBe(200);
    expect(body(read)).toMatchObject({ created: 0, unchanged: 1 });
    expect(Date.now() - started).toBeLessThan(5000);

    // Shared strings the directory calls stored (80 KB counted) while the local header says
    // deflated (80 MB of <si/>): read as the directory says, so not a workbook, at once.
    const sst = Buffer.from(`<sst>${'<si/>'.repeat(16 * 1024 * 1024)}</sst>`);
    const bomb = zipOf([
      ...entries.filter((entry) => entry.name !== 'xl/sharedStrings.xml'),
      { name: 'xl/sharedStrings.xml', data: sst, centralStored: true },
    ]);
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    started = Date.now();
    const refused = await upload(school, token, bomb);
    expect([413, 422]).toContain(refused.statusCode);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await countOf(school)).toBe(1);
  });

  it('refuses a part that is not XML at the first fault, not after building an error for every byte', async () => {
    const school = await newSchool();
    const entries = await entriesOf(await workbookOf([learner(1)]));
    const garbage = Buffer.concat([Buffer.from('<sst>'), randomBytes(2 * 1024 * 1024)]);
    const file = zipOf([
      ...entries.filter((entry) => entry.name !== 'xl/sharedStrings.xml'),
      { name: 'xl/sharedStrings.xml', data: garbage },
    ]);
    const started = Date.now();
    const response = await upload(school, await headOf(school), file);
    expect(response.statusCode).toBe(422);
    expect(body(response).message).toBe(M.fileNotSpreadsheet);
    // Once about 25 s of a core (an error with its stack for each bad character).
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('leaves no temporary file behind, whether the workbook is read or refused', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const ours = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`tmp-${process.pid}-`));
    const before = ours();
    // exceljs writes the sheet before the shared strings, which once sent the sheet to a temporary file.
    expect((await upload(school, token, await workbookOf([learner(1), learner(2)]))).statusCode).toBe(200);
    const tooMany = Array.from({ length: 5001 }, (_, n) => [`First${n}`, `Last${n}`, 'P4']);
    expect((await upload(school, token, await workbookOf(tooMany, ['firstname', 'lastname', 'form']), { autoid: '1' })).statusCode).toBe(
      422,
    );
    // Relationships that do not parse, a broken first sheet and many more: every sheet was once
    // copied to a temporary file, left open when reading stopped.
    const entries = (await entriesOf(await workbookOf([learner(1)]))).filter((entry) => !entry.name.startsWith('xl/worksheets/'));
    const broken = zipOf([
      ...entries.map((entry) => (entry.name === 'xl/_rels/workbook.xml.rels' ? { ...entry, data: Buffer.alloc(0) } : entry)),
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('<worksheet><sheetData><row r="1"><c r="A1"></x>') },
      ...Array.from({ length: 30 }, (_, n) => ({
        name: `xl/worksheets/sheet${n + 2}.xml`,
        data: Buffer.from('<worksheet><sheetData/></worksheet>'),
      })),
    ]);
    expect((await upload(school, token, broken)).statusCode).toBe(422);
    expect(ours()).toEqual(before);
  });

  it('bounds the work of every row: a cell in the last column, blank rows, an endless text', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const entries = (await entriesOf(await workbookOf([learner(1)]))).filter((entry) => entry.name !== 'xl/worksheets/sheet1.xml');
    const sheet = (rows: string[]) => ({
      name: 'xl/worksheets/sheet1.xml',
      data: Buffer.from(`<worksheet><sheetData>${rows.join('')}</sheetData></worksheet>`),
    });
    const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>firstname</t></is></c></row>';

    // One empty cell in column XFD made each row 16,384 cells long: a second of a core per
    // thousand rows. Refused at the first such row.
    let started = Date.now();
    const wide = zipOf([
      ...entries,
      sheet([header, ...Array.from({ length: 20_000 }, (_, n) => `<row r="${n + 2}"><c r="XFD${n + 2}"/></row>`)]),
    ]);
    expect((await upload(school, token, wide)).statusCode).toBe(413);
    expect(Date.now() - started).toBeLessThan(5000);

    // Rows that hold nothing count too.
    started = Date.now();
    const blank = zipOf([...entries, sheet([header, ...Array.from({ length: 60_000 }, (_, n) => `<row r="${n + 2}"/>`)])]);
    const blankAnswer = await upload(school, token, blank);
    expect(blankAnswer.statusCode).toBe(422);
    expect(body(blankAnswer).message).toBe(M.tooManyRows);
    expect(Date.now() - started).toBeLessThan(5000);

    // A shared string of a million characters in every cell: each check once ran over all of it.
    const columns = HEADER.map((_, column) => String.fromCharCode(65 + column));
    const rows = Array.from(
      { length: 50 },
      (_, n) => `<row r="${n + 2}">${columns.map((letter) => `<c r="${letter}${n + 2}" t="s"><v>0</v></c>`).join('')}</row>`,
    );
    const heavy = zipOf([
      ...entries.filter((entry) => entry.name !== 'xl/sharedStrings.xml'),
      { name: 'xl/sharedStrings.xml', data: Buffer.from(`<sst><si><t>${'A'.repeat(1_000_000)}</t></si></sst>`) },
      sheet([header, ...rows]),
    ]);
    started = Date.now();
    const heavyAnswer = await upload(school, token, heavy);
    expect(heavyAnswer.statusCode).toBe(413);
    expect(body(heavyAnswer).message).toBe(M.fileUnsafe);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await countOf(school)).toBe(0);
  });

  it('reads rows only up to the limit: 5,001 learners answer 422 and nothing is written', async () => {
    const school = await newSchool();
    const rows = Array.from({ length: 5001 }, (_, n) => [`First${n}`, `Last${n}`, 'P4']);
    const response = await upload(school, await headOf(school), await workbookOf(rows, ['firstname', 'lastname', 'form']), {
      autoid: '1',
    });
    expect(response.statusCode).toBe(422);
    expect(body(response).message).toBe(M.tooManyRows);
    expect(await countOf(school)).toBe(0);
  });

  it('refuses a workbook that unpacks to more than 5,000 rows need (30,000 learners in under 1 MB) at once: 413', async () => {
    const school = await newSchool();
    const entries = (await entriesOf(await workbookOf([learner(1)]))).filter((entry) => entry.name !== 'xl/worksheets/sheet1.xml');
    const row = (n: number) =>
      `<row r="${n}">${HEADER.map((_, column) => `<c r="${String.fromCharCode(65 + column)}${n}" t="inlineStr"><is><t>x</t></is></c>`).join('')}</row>`;
    const sheet = `<worksheet><sheetData>${Array.from({ length: 30_000 }, (_, n) => row(n + 1)).join('')}</sheetData></worksheet>`;
    const file = zipOf([...entries, { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(sheet) }]);
    expect(file.length).toBeLessThan(5 * 1024 * 1024);
    const started = Date.now();
    const response = await upload(school, await headOf(school), file);
    expect(response.statusCode).toBe(413);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await countOf(school)).toBe(0);
  });

  it('refuses a file over 5 MB with 413', async () => {
    const school = await newSchool();
    const big = Buffer.alloc(5 * 1024 * 1024 + 1024, 1);
    big.writeUInt32LE(0x04034b50, 0);
    const response = await upload(school, await headOf(school), big);
    expect(response.statusCode).toBe(413);
    expect(await countOf(school)).toBe(0);
  });

  it('refuses a file that is not a workbook, whatever its name: 422', async () => {
    const school = await newSchool();
    const token = await headOf(school);
    const csv = await upload(school, token, Buffer.from('studentid,firstname\nMPS/0001,Sarah\n'), {}, 'class.xlsx');
    expect(csv.statusCode).toBe(422);
    expect(body(csv).message).toBe(M.fileNotSpreadsheet);
    const zip = await upload(school, token, zipOf([{ name: 'hello.txt', data: Buffer.from('hello') }]));
    expect(zip.statusCode).toBe(422);
    expect(body(zip).message).toBe(M.fileNotSpreadsheet);
  });

  it('leaves Object.prototype untouched: a sheet named __proto__ and __proto__ headers', async () => {
    const school = await newSchool();
    const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
    const header = [...HEADER, '__proto__', 'constructor', 'prototype', '__proto__.polluted'];
    const row = [...HEADER.map((name) => (learner(1) as Record<string, unknown>)[name] ?? null), 'polluted', 'polluted', 'polluted', 'yes'];
    const response = await upload(school, await headOf(school), await workbookOf([row], header, '__proto__'));
    expect(response.statusCode, response.body).toBe(200);
    expect(body(response)).toMatchObject({ created: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(typeof ({} as { constructor: unknown }).constructor).toBe('function');
  });
});

describe('a workbook saved by LibreOffice', () => {
  const file = readFileSync(path.join(FIXTURES, 'learners-libreoffice.xlsx'));

  it('uploads its five learners', async () => {
    const school = await newSchool('Lira Okwang School', ['Day scholar']);
    const token = await headOf(school);
    const response = await upload(school, token, file, {}, 'learners-libreoffice.xlsx');
    expect(response.statusCode, response.body).toBe(200);
    expect(body(response)).toEqual({ message: M.uploaded, created: 5, updated: 0, unchanged: 0, header_row: 1, ignored: [] });
    const day = await categoryId(school, 'Day scholar');
    const learners = await learnersOf(school);
    expect(learners.map((row) => [row.studentid, row.firstname, row.lastname, row.form, row.stream, row.status])).toEqual([
      ['LO/0001', 'Sarah', 'Nakato', 'P4', 'East', 'active'],
      ['LO/0002', 'Brian', 'Okello', 'P4', 'East', 'active'],
      ['LO/0003', 'Grace', 'Namubiru', 'P4', 'West', 'active'],
      ['LO/0004', 'Joseph', 'Mugisha', 'P5', 'East', 'inactive'],
      ['LO/0005', 'Mary', 'Achieng', 'P5', 'West', 'active'],
    ]);
    // LibreOffice read the CSV's dates as dates and the phone numbers as numbers (the leading 0 gone).
    expect(learners[0]).toMatchObject({
      dob: '2015-03-14',
      gender: 'F',
      studentcategory_id: day,
      phone: '772123456',
      code: '123456',
      email: 'sarah.nakato@example.com',
      lin: 'U0000000001',
      othername: null,
    });
    expect(learners[1]).toMatchObject({ othername: 'Peter', dob: '2014-11-02' });
    // A blank passcode is generated, and kept by the re-upload below.
    expect(learners[3]).toMatchObject({ studentcategory_id: null, code: expect.stringMatching(/^[1-9]\d{5}$/) });
    expect(body(await upload(school, token, file))).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
  });
});
