import { ERROR_MESSAGES, STUDENT_MESSAGES as M, TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { setCodeTenantFilterForTests } from '../../db/tenant-filter.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, login, type TestApp } from '../../test/test-app.js';

/*
 * A school's own register imported as it is (issue 24 point 2), through the API on the real
 * database: title rows above the header, one name column, dates written dd/mm/yyyy and d/m/yy
 * and real Excel dates, columns the upload does not know mapped once in a preview step and
 * remembered for the school (not for another), one class and stream for the whole file, every
 * error listed, all or nothing; the fee journal's header found below title rows too.
 */

let t: TestApp;

interface School {
  id: string;
  tenantcode: string;
  token: string;
}

async function newSchool(name = 'St. Jude Primary School'): Promise<School> {
  const school = await makeTenant(t.database, { name });
  const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx
      .insertInto('student_categories')
      .values(['Day scholar', 'Boarder'].map((category) => ({ tenant_id: school.id, id: newId(), name: category, remarks: null })))
      .execute(),
  );
  return { id: school.id, tenantcode: school.tenantcode, token: await login(t.app, head.email) };
}

const TITLE_ROWS = [['ST. JUDE PRIMARY SCHOOL'], ['CLASS LIST P.5 2026']];
const HEADER = ['S/N', 'NAME OF PUPIL', 'SEX', 'D.O.B', 'LIN', 'PARENT/GUARDIAN', 'TEL. NO', 'RESIDENCE', 'BOARDING STATUS', 'RELIGION'];

/** A register as a school keeps it: two title rows, a blank row, the header in row 4, then the learners. */
async function register(rows: ReadonlyArray<ReadonlyArray<unknown>>, header = HEADER): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('P5');
  for (const title of TITLE_ROWS) sheet.addRow(title);
  sheet.addRow([]);
  sheet.addRow(header);
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Four learners: dates as dd/mm/yyyy, d/m/yy, a date cell and Excel's serial number (2015-03-14). */
const FOUR = [
  [1, 'OKELLO Brian Peter', 'M', '14/03/2015', 'U001', 'Mr Okello', '0772000001', 'Gulu', 'Day scholar', 'Catholic'],
  [2, 'Sarah NAKATO', 'F', '3/7/16', 'U002', 'Mrs Nakato', '0772000002', 'Kampala', 'Boarder', 'Anglican'],
  [3, 'MUKASA John', 'M', new Date(Date.UTC(2014, 10, 2)), null, null, null, 'Entebbe', 'Day scholar', null],
  [4, 'Namuli Grace Achieng', 'F', 42077, null, null, null, null, 'Boarder', null],
];

async function multipart(fields: Record<string, string>, file?: Buffer) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file) form.set('file', new Blob([new Uint8Array(file)]), 'register.xlsx');
  const request = new Request('http://mustard.test/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') as string };
}

async function send(
  school: Pick<School, 'tenantcode'>,
  token: string,
  url: string,
  file: Buffer | undefined,
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const body = await multipart(fields, file);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode, 'content-type': body.contentType },
    payload: body.payload,
  });
}

const preview = (school: School, file: Buffer | undefined, fields: Record<string, string> = {}, token = school.token) =>
  send(school, token, '/api/school/students/upload/preview', file, fields);
const upload = (school: School, file: Buffer | undefined, fields: Record<string, string> = {}, token = school.token) =>
  send(school, token, '/api/school/students/upload', file, fields);

const MAPPING = JSON.stringify({ 'BOARDING STATUS': 'category', RELIGION: 'ignore' });

async function learnersOf(school: Pick<School, 'id'>) {
  return withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx
      .selectFrom('students')
      .leftJoin('student_categories', (join) =>
        join
          .onRef('student_categories.tenant_id', '=', 'students.tenant_id')
          .onRef('student_categories.id', '=', 'students.studentcategory_id'),
      )
      .select([
        'students.studentid',
        'students.lastname',
        'students.firstname',
        'students.othername',
        'students.gender',
        sql<string | null>`students.dob::text`.as('dob'),
        'students.form',
        'students.stream',
        'students.lin',
        'students.phone',
        'students.address',
        'student_categories.name as category',
      ])
      .orderBy('students.studentid')
      .execute(),
  );
}

async function mappingsOf(school: Pick<School, 'id'>) {
  return withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx.selectFrom('upload_mappings').select(['tenant_id', 'header', 'field']).orderBy('header').execute(),
  );
}

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe("a school's own register", () => {
  it('previews the header below two title rows, then imports after one mapping step; the second register of that shape imports in one', async () => {
    const school = await newSchool();
    const file = await register(FOUR);

    const first = await preview(school, file);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      header_row: 4,
      columns: [
        { column: 'A', header: 'S/N', field: 'ignore', source: 'known' },
        { column: 'B', header: 'NAME OF PUPIL', field: 'name', source: 'known' },
        { column: 'C', header: 'SEX', field: 'gender', source: 'known' },
        { column: 'D', header: 'D.O.B', field: 'dob', source: 'known' },
        { column: 'E', header: 'LIN', field: 'lin', source: 'known' },
        { column: 'F', header: 'PARENT/GUARDIAN', field: 'ignore', source: 'known' },
        { column: 'G', header: 'TEL. NO', field: 'phone', source: 'known' },
        { column: 'H', header: 'RESIDENCE', field: 'address', source: 'known' },
        { column: 'I', header: 'BOARDING STATUS', field: null, source: 'unrecognised' },
        { column: 'J', header: 'RELIGION', field: null, source: 'unrecognised' },
      ],
      rows: expect.arrayContaining([
        {
          number: 5,
          cells: ['1', 'OKELLO Brian Peter', 'M', '14/03/2015', 'U001', 'Mr Okello', '0772000001', 'Gulu', 'Day scholar', 'Catholic'],
        },
      ]),
      total_rows: 4,
      has_class: false,
      needs_mapping: true,
    });
    expect(first.json().rows).toHaveLength(4);
    // A preview writes nothing.
    expect(await learnersOf(school)).toEqual([]);
    expect(await mappingsOf(school)).toEqual([]);

    // The mapping step: the two columns the upload did not know, and one class and stream for the file.
    const imported = await upload(school, file, { autoid: '1', mapping: MAPPING, form: 'p5', stream: 'East' });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toEqual({
      message: M.uploaded,
      created: 4,
      updated: 0,
      unchanged: 0,
      header_row: 4,
      ignored: ['S/N', 'PARENT/GUARDIAN', 'RELIGION'],
    });
    const common = { form: 'P5', stream: 'East' };
    expect(await learnersOf(school)).toEqual([
      {
        studentid: 'SJPS/0001',
        lastname: 'OKELLO',
        firstname: 'Brian',
        othername: 'Peter',
        gender: 'M',
        dob: '2015-03-14',
        lin: 'U001',
        phone: '0772000001',
        address: 'Gulu',
        category: 'Day scholar',
        ...common,
      },
      {
        studentid: 'SJPS/0002',
        lastname: 'NAKATO',
        firstname: 'Sarah',
        othername: null,
        gender: 'F',
        dob: '2016-07-03',
        lin: 'U002',
        phone: '0772000002',
        address: 'Kampala',
        category: 'Boarder',
        ...common,
      },
      {
        studentid: 'SJPS/0003',
        lastname: 'MUKASA',
        firstname: 'John',
        othername: null,
        gender: 'M',
        dob: '2014-11-02',
        lin: null,
        phone: null,
        address: 'Entebbe',
        category: 'Day scholar',
        ...common,
      },
      {
        studentid: 'SJPS/0004',
        lastname: 'Namuli',
        firstname: 'Grace',
        othername: 'Achieng',
        gender: 'F',
        dob: '2015-03-14',
        lin: null,
        phone: null,
        address: null,
        category: 'Boarder',
        ...common,
      },
    ]);
    expect(await mappingsOf(school)).toEqual([
      { tenant_id: school.id, header: 'boardingstatus', field: 'category' },
      { tenant_id: school.id, header: 'religion', field: 'ignore' },
    ]);

    // Next term's register of the same shape (headings in other capitals): nothing to map.
    const next = await register(
      [[1, 'OPIO Daniel', 'M', '01/02/2015', null, null, null, 'Lira', 'Boarder', 'Catholic']],
      HEADER.map((heading) => heading.toLowerCase()),
    );
    const again = await preview(school, next);
    expect(again.json()).toMatchObject({ needs_mapping: false, header_row: 4 });
    expect(again.json().columns.slice(8)).toEqual([
      { column: 'I', header: 'boarding status', field: 'category', source: 'remembered' },
      { column: 'J', header: 'religion', field: 'ignore', source: 'remembered' },
    ]);
    const second = await upload(school, next, { autoid: '1', form: 'P5', stream: 'East' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ created: 1, ignored: ['s/n', 'parent/guardian', 'religion'] });
    expect((await learnersOf(school)).at(-1)).toMatchObject({
      lastname: 'OPIO',
      firstname: 'Daniel',
      category: 'Boarder',
      dob: '2015-02-01',
    });

    // The same register again changes nothing.
    expect((await upload(school, file, { autoid: '1', form: 'P5', stream: 'East' })).json()).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 4,
    });
  });

  it("keeps a school's mapping from another school, even with the code's tenant filter off (row-level security alone)", async () => {
    const mine = await newSchool('Mine Primary School');
    const theirs = await newSchool('Theirs Primary School');
    const file = await register(FOUR);
    expect((await upload(mine, file, { autoid: '1', mapping: MAPPING, form: 'P5' })).statusCode).toBe(200);
    for (const codeFilter of [true, false]) {
      setCodeTenantFilterForTests(codeFilter);
      try {
        const theirPreview = await preview(theirs, file);
        expect(theirPreview.json().needs_mapping).toBe(true);
        expect(theirPreview.json().columns[8]).toEqual({ column: 'I', header: 'BOARDING STATUS', field: null, source: 'unrecognised' });
        expect(await mappingsOf(theirs)).toEqual([]);
      } finally {
        setCodeTenantFilterForTests(true);
      }
    }
    // Their own upload without a mapping leaves the column out, and remembers nothing for anyone.
    const theirUpload = await upload(theirs, file, { autoid: '1', form: 'P5' });
    expect(theirUpload.json()).toMatchObject({ created: 4, ignored: ['S/N', 'PARENT/GUARDIAN', 'BOARDING STATUS', 'RELIGION'] });
    expect((await learnersOf(theirs)).map((learner) => learner.category)).toEqual([null, null, null, null]);
    expect(await mappingsOf(mine)).toHaveLength(2);
  });

  it('lists every error, more than 50, says which cell is not a date, and saves nothing (nor the mapping)', async () => {
    const school = await newSchool();
    const rows: unknown[][] = Array.from({ length: 60 }, (_, n) => [
      n + 1,
      `PUPIL${n} Name`,
      'F',
      `${n + 1}/13/2015`,
      null,
      null,
      null,
      null,
      'Boarder',
      null,
    ]);
    // One more bad in other ways: a name of one word, an unknown category.
    rows.push([61, 'ALONE', 'F', '1/1/15', null, null, null, null, 'Weekly', null]);
    // And good rows, which must not be saved either.
    rows.push(...FOUR.map((row) => [...row]));
    const response = await upload(school, await register(rows), { autoid: '1', mapping: MAPPING, form: 'P5' });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(M.rowsInvalid);
    const errors = response.json().errors as Record<string, string[]>;
    expect(Object.keys(errors)).toHaveLength(62);
    for (let n = 0; n < 60; n++) expect(errors[`${n + 5}.dob`]).toEqual([`${M.notADate}: D${n + 5} “${n + 1}/13/2015”`]);
    expect(errors['65.name']).toEqual([M.nameIncomplete]);
    expect(errors['65.category']).toEqual([M.categoryUnknown]);
    expect(await learnersOf(school)).toEqual([]);
    expect(await mappingsOf(school)).toEqual([]);
    expect((await preview(school, await register(FOUR))).json().needs_mapping).toBe(true);
  });

  it('takes the class of the file when it has a class column, and the chosen one only for rows without', async () => {
    const school = await newSchool();
    const file = await register(
      [
        ['Brian OKELLO', 'P6', '2015-03-14'],
        ['Sarah NAKATO', null, '14.3.2015'],
      ],
      ['Name', 'Class', 'Date of birth'],
    );
    const seen = await preview(school, file);
    expect(seen.json()).toMatchObject({ has_class: true, needs_mapping: false });
    const response = await upload(school, file, { autoid: '1', form: 'P4' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await learnersOf(school)).map((row) => [row.lastname, row.firstname, row.form, row.dob])).toEqual([
      ['OKELLO', 'Brian', 'P6', '2015-03-14'],
      ['NAKATO', 'Sarah', 'P4', '2015-03-14'],
    ]);
  });
});

describe('refusals', () => {
  it('refuses a teacher and a stranger: 403, nothing written or remembered', async () => {
    const school = await newSchool();
    const outsider = await newSchool('Elsewhere Primary');
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const teacherToken = await login(t.app, teacher.email);
    const file = await register(FOUR);
    for (const token of [teacherToken, outsider.token]) {
      expect((await preview(school, file, {}, token)).statusCode).toBe(403);
      expect((await upload(school, file, { autoid: '1', mapping: MAPPING, form: 'P5' }, token)).statusCode).toBe(403);
    }
    expect(await learnersOf(school)).toEqual([]);
    expect(await mappingsOf(school)).toEqual([]);
  });

  it('names bad input with a 422, never a 500, and writes nothing', async () => {
    const school = await newSchool();
    const file = await register(FOUR);
    const cases: Array<[Record<string, string>, string]> = [
      [{ mapping: 'not json' }, 'mapping'],
      [{ mapping: '["category"]' }, 'mapping'],
      [{ mapping: JSON.stringify({ RELIGION: 'salary' }) }, 'mapping'],
      [{ mapping: JSON.stringify({ RELIGION: 5 }) }, 'mapping'],
      [{ mapping: JSON.stringify({ 'RELI\u0000GION': 'ignore' }) }, 'mapping'],
      [{ mapping: `{"x":"${'y'.repeat(30_000)}"}` }, 'mapping'],
      [{ mapping: JSON.stringify({ ['x'.repeat(300)]: 'ignore' }) }, 'mapping'],
      [{ mapping: JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, n) => [`h${n}`, 'ignore']))) }, 'mapping'],
      [{ mapping: JSON.stringify({ 'BOARDING STATUS': 'phone', 'TEL. NO': 'phone' }) }, 'mapping'],
      [{ form: 'P9' }, 'form'],
      [{ form: 'x'.repeat(41) }, 'form'],
      [{ stream: 'East\u0000' }, 'stream'],
    ];
    for (const [fields, field] of cases) {
      const response = await upload(school, file, { autoid: '1', ...fields });
      expect(response.statusCode, `${JSON.stringify(fields).slice(0, 80)}: ${response.body.slice(0, 200)}`).toBe(422);
      expect(Object.keys(response.json().errors ?? {})).toContain(field);
    }
    // The preview checks the mapping the same way, and wants a file.
    expect((await preview(school, file, { mapping: 'not json' })).json().errors).toHaveProperty('mapping');
    const noFile = await preview(school, undefined);
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().errors).toEqual({ file: [M.fileRequired] });
    const notWorkbook = await preview(school, Buffer.from('S/N,NAME OF PUPIL\n1,OKELLO Brian'));
    expect(notWorkbook.statusCode).toBe(422);
    expect(notWorkbook.json().message).toBe(M.fileNotSpreadsheet);
    // A file of title rows alone has no learners.
    const empty = await upload(school, await register([]), { autoid: '1', form: 'P5' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe(M.emptySheet);
    expect(await learnersOf(school)).toEqual([]);
    expect(await mappingsOf(school)).toEqual([]);
    expect(ERROR_MESSAGES[422]).toBeTruthy();
  });
});

describe('the fee journal below title rows', () => {
  it('finds the journal header below the title rows and reads the learners under it', async () => {
    const school = await newSchool();
    expect((await upload(school, await register(FOUR), { autoid: '1', mapping: MAPPING, form: 'P5' })).statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Journal');
    sheet.addRow(['ST. JUDE PRIMARY SCHOOL']);
    sheet.addRow(['FEES JOURNAL', 'TERM I 2026']);
    sheet.addRow([]);
    sheet.addRow(['Student id', 'Name', 'Class', 'Stream', 'Date', 'Particulars', 'Invoice']);
    sheet.addRow(['SJPS/0001', 'OKELLO Brian', 'P5', 'East', '2026-02-01', null, 350_000]);
    sheet.addRow(['SJPS/0002', 'NAKATO Sarah', 'P5', 'East', '2026-02-01', null, 420_000]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const response = await send(school, school.token, '/api/uploads/studentjournals', file, { term: 'I', year: '2026' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ created: 2 });
    const amounts = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('statement_lines').select(sql<string>`amount::text`.as('amount')).orderBy('amount').execute(),
    );
    expect(amounts.map((row) => Number(row.amount))).toEqual([350_000, 420_000]);
  });
});
