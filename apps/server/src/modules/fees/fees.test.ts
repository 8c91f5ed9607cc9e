import { ERROR_MESSAGES, INPUT_MESSAGES, STUDENT_MESSAGES, TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { seedDemo } from '../../seed/demo.js';
import { schoolFees, termOf, termStart } from '../../seed/demo-fees.js';
import { makeStudents, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { openTestDatabase } from '../../test/test-database.js';
import { compareLines, localDate, parseAmount, parseDate } from './fees.service.js';

/*
 * Fee journals and statements (issue 5 points 4, 5 and 8): the template, an upload turned into
 * statement lines with a running balance, all or nothing, idempotent for the same file,
 * tenants apart, permissions, and the demo schools' fees.
 */

const SPREADSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let t: TestApp;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
/** A head teacher of both schools, working in `school`. */
let head: Caller;
let bursar: Caller;
let teacher: Caller;

let forms = 0;
/** New learners in a class of their own (so each test reads only its own lines). */
async function learners(tenantId: string, count: number) {
  const form = `J${++forms}`;
  await makeStudents(t.database, tenantId, form, count);
  return withTenant(t.database.db, { tenantId }, (trx) =>
    trx.selectFrom('students').select(['id', 'studentid']).where('form', '=', form).orderBy('studentid').execute(),
  );
}

interface JournalRow {
  key: string | number | null;
  name?: string;
  date?: Date | string;
  particulars?: string;
  invoice?: number | string;
  receipt?: number | string;
}

/** A journal sheet as a school keeps it: headers, then a row per entry, amounts at the positions. */
async function journal(rows: JournalRow[], positions = { invoice: 7, receipt: 42 }): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Journal');
  const header = sheet.getRow(1);
  header.getCell(1).value = 'Student id';
  header.getCell(2).value = 'Name';
  header.getCell(5).value = 'Date';
  header.getCell(6).value = 'Particulars';
  header.getCell(positions.invoice).value = 'Invoice';
  header.getCell(positions.invoice + 1).value = 'Tuition';
  header.getCell(positions.receipt).value = 'Receipt';
  rows.forEach((row, index) => {
    const cells = sheet.getRow(index + 2);
    cells.getCell(1).value = row.key;
    cells.getCell(2).value = row.name ?? 'Nakato Sarah';
    if (row.date !== undefined) cells.getCell(5).value = row.date;
    if (row.particulars !== undefined) cells.getCell(6).value = row.particulars;
    if (row.invoice !== undefined) {
      cells.getCell(positions.invoice).value = row.invoice;
      cells.getCell(positions.invoice + 1).value = 99; // the breakdown: ignored
    }
    if (row.receipt !== undefined) cells.getCell(positions.receipt).value = row.receipt;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function upload(
  who: Caller,
  tenantcode: string,
  file: Buffer | null,
  fields: Record<string, string | number>,
  fileName = 'journal.xlsx',
) {
  const form = new FormData();
  if (file) form.set('file', new Blob([new Uint8Array(file)]), fileName);
  for (const [name, value] of Object.entries(fields)) form.set(name, String(value));
  const request = new Request('http://x', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads/studentjournals',
    headers: {
      authorization: `Bearer ${who.token}`,
      [TENANT_HEADER]: tenantcode,
      'content-type': request.headers.get('content-type') as string,
    },
    payload,
  });
}

const TERM_I = { term: 'I', year: 2026 };

async function count(tenantId: string, table: 'statement_lines' | 'fee_journals' | 'audit_log') {
  return withTenant(t.database.db, { tenantId }, async (trx) => {
    const row = await trx
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tenant_id', '=', tenantId)
      .$if(table === 'audit_log', (qb) => qb.where(sql.ref('entity'), '=', 'fee_journals'))
      .executeTakeFirstOrThrow();
    return row.n;
  });
}

async function statementOf(who: Caller, id: string) {
  const response = await who.get(`/api/student/statement?id=${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    statement: Array<{ id: string; date: string; particulars: string; category: string; amount: number; balance: number }>;
    balance: number;
  };
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database);
  neighbour = await makeTenant(t.database);
  const headUser = await makeUser(t.database, {
    memberOf: [
      { tenantId: school.id, roles: ['headteacher'] },
      { tenantId: neighbour.id, roles: ['headteacher'] },
    ],
  });
  const bursarUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['bursar'] }] });
  const teacherUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  bursar = caller(t.app, await login(t.app, bursarUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
});

afterAll(() => t?.close());

describe('the journal template', () => {
  it('lays the columns out at their default positions, with an example row and instructions', async () => {
    const response = await head.get('/api/uploads/studentjournals/template');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(SPREADSHEET);
    expect(response.headers['content-disposition']).toBe('attachment; filename="Fee-journal-template.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Journal', 'Instructions']);
    const sheet = workbook.worksheets[0]!;
    const headers = Object.fromEntries(['A', 'B', 'E', 'F', 'G', 'AP'].map((column) => [column, sheet.getCell(`${column}1`).value]));
    expect(headers).toEqual({
      A: 'Student id or payment code',
      B: 'Name',
      E: 'Date',
      F: 'Particulars',
      G: 'Invoice (amount invoiced)',
      AP: 'Receipt (amount received)',
    });
    // Only the headers: an example row there would be uploaded (and refused) with the school's learners.
    expect(sheet.actualRowCount).toBe(1);
    const instructions = workbook.getWorksheet('Instructions')!;
    const text: string[] = [];
    instructions.eachRow((row) => {
      text.push((row.values as unknown[]).filter(Boolean).join(' '));
    });
    expect(text.join('\n')).toMatch(/student id or payment code/);
    expect(text.join('\n')).toMatch(/AP/);
    // The example in the school's own id form, not one of its learners.
    const ids = await withTenant(t.database.db, { tenantId: school.id }, (trx) => trx.selectFrom('students').select('studentid').execute());
    const example = text.find((line) => line.startsWith('A ') && line.includes('/'))?.slice(2);
    expect(example).toMatch(/^[A-Z]+\/\d{4,}$/);
    expect(ids.map((row) => row.studentid)).not.toContain(example);
  });

  it('holds nothing to upload as it comes; filled in as its instructions show, it is read at G, AP and E', async () => {
    const template = (await head.get('/api/uploads/studentjournals/template')).rawPayload;
    const untouched = await upload(head, school.tenantcode, template, TERM_I);
    expect(untouched.statusCode).toBe(422);
    expect(untouched.json().message).toBe(STUDENT_MESSAGES.emptySheet);

    // The example row of the instructions, written on the Journal sheet for a learner of the school.
    const [learner] = await learners(school.id, 1);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(template as unknown as ArrayBuffer);
    const row = workbook.worksheets[0]!.getRow(2);
    row.getCell('A').value = learner!.studentid;
    row.getCell('B').value = 'Nakato Sarah';
    row.getCell('E').value = new Date(Date.UTC(2026, 1, 2));
    row.getCell('G').value = 450_000;
    row.getCell('H').value = 300_000;
    row.getCell('AP').value = 200_000;
    const filled = await upload(head, school.tenantcode, Buffer.from(await workbook.xlsx.writeBuffer()), TERM_I);
    expect(filled.statusCode, filled.body).toBe(200);
    const { statement, balance } = await statementOf(
      head,
      (
        await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
          trx.selectFrom('students').select('id').where('studentid', '=', learner!.studentid).executeTakeFirstOrThrow(),
        )
      ).id,
    );
    expect(statement.map((line) => [line.category, line.amount, line.balance])).toEqual([
      ['invoice', 450_000, 450_000],
      ['receipt', 200_000, 250_000],
    ]);
    expect(statement[0]!.date).toBe('2026-02-02');
    expect(balance).toBe(250_000);
  });
});

describe('uploading a fee journal', () => {
  it('turns the rows into statement lines with a running balance, by date', async () => {
    const [first, second] = await learners(school.id, 2);
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .updateTable('students')
        .set({ paymentcode: `PAY-${second!.studentid}` })
        .where('id', '=', second!.id)
        .execute(),
    );
    const auditBefore = await count(school.id, 'audit_log');
    const file = await journal([
      // Out of date order on purpose: the statement sorts by date.
      { key: first!.studentid, date: '2026-03-01', receipt: '100,000' },
      { key: first!.studentid, date: new Date(Date.UTC(2026, 1, 3)), invoice: 500_000 },
      { key: first!.studentid, date: '2026-02-10', particulars: 'Bank deposit 0071', receipt: 200_000 },
      // Found by payment code, in another case; no date: the upload's date.
      { key: `pay-${second!.studentid}`.toLowerCase(), invoice: '1,250,000', receipt: 0 },
    ]);
    const response = await upload(head, school.tenantcode, file, TERM_I);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: STUDENT_MESSAGES.journalUploaded, created: 4, updated: 0, unchanged: 0 });
    expect(await count(school.id, 'audit_log')).toBe(auditBefore + 1);

    const one = await statementOf(head, first!.id);
    expect(
      one.statement.map(({ date, particulars, category, amount, balance }) => ({ date, particulars, category, amount, balance })),
    ).toEqual([
      { date: '2026-02-03', particulars: 'Fees, Term I 2026', category: 'invoice', amount: 500_000, balance: 500_000 },
      { date: '2026-02-10', particulars: 'Bank deposit 0071', category: 'receipt', amount: 200_000, balance: 300_000 },
      { date: '2026-03-01', particulars: 'Payment', category: 'receipt', amount: 100_000, balance: 200_000 },
    ]);
    expect(one.balance).toBe(200_000);

    // The bursar reads statements too.
    const two = await statementOf(bursar, second!.id);
    expect(two.statement).toEqual([
      {
        id: expect.any(String),
        date: localDate(new Date()),
        particulars: 'Fees, Term I 2026',
        category: 'invoice',
        amount: 1_250_000,
        balance: 1_250_000,
      },
    ]);
    expect(two.balance).toBe(1_250_000);
  });

  it('reads the amounts at the positions given', async () => {
    const [learner] = await learners(school.id, 1);
    const positions = { invoice: 3, receipt: 120 };
    const file = await journal(
      [
        { key: learner!.studentid, date: '2026-05-04', invoice: 800_000 },
        { key: learner!.studentid, date: '2026-05-20', receipt: 300_000.5 },
      ],
      positions,
    );
    const response = await upload(head, school.tenantcode, file, { term: 'II', year: 2026, ...positions });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().created).toBe(2);
    const { statement, balance } = await statementOf(head, learner!.id);
    expect(statement.map((line) => [line.date, line.particulars, line.amount, line.balance])).toEqual([
      ['2026-05-04', 'Fees, Term II 2026', 800_000, 800_000],
      ['2026-05-20', 'Payment', 300_000.5, 499_999.5],
    ]);
    expect(balance).toBe(499_999.5);

    // The default positions (G and AP) find nothing in that file: no lines, nothing else.
    const elsewhere = await upload(head, school.tenantcode, file, { term: 'III', year: 2026 });
    expect(elsewhere.json()).toMatchObject({ created: 0, updated: 0, unchanged: 0 });
  });

  it('the same file again replaces its lines: nothing is duplicated', async () => {
    const [learner] = await learners(school.id, 1);
    const file = await journal([
      { key: learner!.studentid, invoice: 450_000 },
      { key: learner!.studentid, receipt: 150_000 },
    ]);
    const first = await upload(head, school.tenantcode, file, TERM_I);
    expect(first.json()).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    const lines = await count(school.id, 'statement_lines');
    const journals = await count(school.id, 'fee_journals');
    const audits = await count(school.id, 'audit_log');

    const again = await upload(head, school.tenantcode, file, TERM_I);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: STUDENT_MESSAGES.journalUploaded, created: 0, updated: 0, unchanged: 2 });
    expect(await count(school.id, 'statement_lines')).toBe(lines);
    expect(await count(school.id, 'fee_journals')).toBe(journals);
    expect(await count(school.id, 'audit_log')).toBe(audits + 1);
    const { statement, balance } = await statementOf(head, learner!.id);
    expect(statement).toHaveLength(2);
    expect(balance).toBe(300_000);

    // The same file for another term is another journal.
    const termII = await upload(head, school.tenantcode, file, { term: 'II', year: 2026 });
    expect(termII.json()).toMatchObject({ created: 2, unchanged: 0 });
    expect(await count(school.id, 'fee_journals')).toBe(journals + 1);
  });

  it('the same new file sent twice at once (a double click) makes one journal, both answers 200', async () => {
    const [learner] = await learners(school.id, 1);
    const file = await journal([{ key: learner!.studentid, invoice: 120_000 }]);
    const journals = await count(school.id, 'fee_journals');
    const both = await Promise.all([
      upload(head, school.tenantcode, file, { term: 'I', year: 2031 }),
      upload(head, school.tenantcode, file, { term: 'I', year: 2031 }),
    ]);
    expect(both.map((response) => response.statusCode)).toEqual([200, 200]);
    expect(await count(school.id, 'fee_journals')).toBe(journals + 1);
    const { statement } = await statementOf(head, learner!.id);
    expect(statement.filter((line) => line.amount === 120_000)).toHaveLength(1);
  });

  it('checks every row first: any bad row is reported by number and nothing is written', async () => {
    const [learner] = await learners(school.id, 1);
    const lines = await count(school.id, 'statement_lines');
    const journals = await count(school.id, 'fee_journals');
    const file = await journal([
      { key: learner!.studentid, invoice: 450_000 },
      { key: learner!.studentid, receipt: 100_000 },
      { key: 'NO-SUCH-LEARNER', invoice: 450_000 },
      { key: learner!.studentid, date: '2026-02-30', invoice: '12abc', receipt: -5 },
      { key: null, name: 'Totals', invoice: 900_000 },
    ]);
    const response = await upload(head, school.tenantcode, file, TERM_I);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      statusCode: 422,
      message: STUDENT_MESSAGES.rowsInvalid,
      errors: {
        '4.studentid': [STUDENT_MESSAGES.unknownStudent],
        '5.date': [STUDENT_MESSAGES.dateInvalid],
        '5.invoice': [STUDENT_MESSAGES.amountInvalid],
        '5.receipt': [STUDENT_MESSAGES.amountInvalid],
        '6.studentid': [STUDENT_MESSAGES.unknownStudent],
      },
    });
    expect(await count(school.id, 'statement_lines')).toBe(lines);
    expect(await count(school.id, 'fee_journals')).toBe(journals);
    expect((await statementOf(head, learner!.id)).statement).toEqual([]);
  });

  it('checks the fields and the file', async () => {
    const missing = await upload(head, school.tenantcode, null, { invoice: 0 });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({
      file: [STUDENT_MESSAGES.fileRequired],
      term: [STUDENT_MESSAGES.termRequired],
      year: [STUDENT_MESSAGES.yearInvalid],
      invoice: [STUDENT_MESSAGES.positionInvalid],
    });
    const file = await journal([{ key: 'x', invoice: 1 }]);
    const same = await upload(head, school.tenantcode, file, { ...TERM_I, invoice: 9, receipt: 9 });
    expect(same.json().errors).toEqual({ receipt: [STUDENT_MESSAGES.positionsSame] });
    const notSheet = await upload(head, school.tenantcode, Buffer.from('<html>not a workbook</html>'), TERM_I);
    expect(notSheet.statusCode).toBe(422);
    expect(notSheet.json().message).toBe(STUDENT_MESSAGES.fileNotSpreadsheet);
    const empty = await upload(head, school.tenantcode, await journal([]), TERM_I);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe(STUDENT_MESSAGES.emptySheet);
  });
});

describe('the file’s name, which the journal keeps', () => {
  it('is cut at 255 characters counted whole, never leaving half of one', async () => {
    const [learner] = await learners(school.id, 1);
    const name = `${'a'.repeat(254)}😀 term I.xlsx`;
    const file = await journal([{ key: learner?.studentid ?? '', date: '2026-02-10', invoice: 1000 }]);
    const response = await upload(head, school.tenantcode, file, TERM_I, name);
    expect(response.statusCode, response.body).toBe(200);
    const row = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('fee_journals').select('file_name').orderBy('uploaded_at', 'desc').executeTakeFirstOrThrow(),
    );
    expect(row.file_name).toBe(`${'a'.repeat(254)}😀`);
  });

  it('with a NUL byte: 422 naming the file, and nothing written', async () => {
    const before = await count(school.id, 'fee_journals');
    const file = await journal([{ key: 'x', invoice: 1 }]);
    const boundary = 'journalboundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="term"\r\n\r\nI\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="year"\r\n\r\n2026\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a\u0000b.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/studentjournals',
      headers: {
        authorization: `Bearer ${head.token}`,
        [TENANT_HEADER]: school.tenantcode,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toEqual({ file: [INPUT_MESSAGES.textInvalid] });
    expect(await count(school.id, 'fee_journals')).toBe(before);
  });
});

describe('tenants and permissions', () => {
  it('another tenant’s learner is never matched, and their statement is not found', async () => {
    const [ours] = await learners(school.id, 1);
    const [theirs] = await learners(neighbour.id, 1);
    const file = await journal([{ key: theirs!.studentid, invoice: 450_000 }]);
    const response = await upload(head, school.tenantcode, file, TERM_I);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ '2.studentid': [STUDENT_MESSAGES.unknownStudent] });
    expect(await count(neighbour.id, 'statement_lines')).toBe(0);

    const across = await head.in(neighbour.tenantcode).get(`/api/student/statement?id=${ours!.id}`);
    expect(across.statusCode).toBe(404);
    expect(across.json()).toEqual({ statusCode: 404, message: ERROR_MESSAGES[404] });
    expect((await head.get(`/api/student/statement?id=${newId()}`)).statusCode).toBe(404);
  });

  it('a teacher may neither upload journals nor read statements', async () => {
    const [learner] = await learners(school.id, 1);
    const file = await journal([{ key: learner!.studentid, invoice: 450_000 }]);
    expect((await teacher.get('/api/uploads/studentjournals/template')).statusCode).toBe(403);
    expect((await upload(teacher, school.tenantcode, file, TERM_I)).statusCode).toBe(403);
    const statement = await teacher.get(`/api/student/statement?id=${learner!.id}`);
    expect(statement.statusCode).toBe(403);
    expect(statement.json().message).toBe(ERROR_MESSAGES[403]);
    expect((await statementOf(head, learner!.id)).statement).toEqual([]);
  });
});

describe('the rules, one by one', () => {
  it('amounts: numbers or text with thousands separators; blank or "-" is 0', () => {
    expect(parseAmount('1,250,000')).toBe(1_250_000);
    expect(parseAmount(' 1 250 000.50 ')).toBe(1_250_000.5);
    expect(parseAmount(450000)).toBe(450_000);
    expect(parseAmount(null)).toBe(0);
    expect(parseAmount('-')).toBe(0);
    for (const bad of ['12abc', '-5', '(100)', '1e5', true, new Date()] as const) expect(parseAmount(bad)).toBeUndefined();
    expect(parseAmount(-1)).toBeUndefined();
    expect(parseAmount(1e13)).toBeUndefined();
  });

  it('dates: a date cell or YYYY-MM-DD; blank is the fallback', () => {
    expect(parseDate(new Date(Date.UTC(2026, 1, 3)), '2026-01-01')).toBe('2026-02-03');
    expect(parseDate('2026-02-03', '2026-01-01')).toBe('2026-02-03');
    expect(parseDate(null, '2026-01-01')).toBe('2026-01-01');
    expect(parseDate('  ', '2026-01-01')).toBe('2026-01-01');
    for (const bad of ['2026-02-30', '03/02/2026', '2026-2-3', 46000]) expect(parseDate(bad, '2026-01-01')).toBeUndefined();
  });

  it('counts: lines compared by content with the ones they replace', () => {
    const line = (amount: number) => ({ student_id: 'a', date: '2026-02-03', particulars: 'Fees', category: 'invoice' as const, amount });
    expect(compareLines([], [line(1), line(2)])).toEqual({ created: 2, updated: 0, unchanged: 0, removed: 0 });
    expect(compareLines([line(1), line(2)], [line(1), line(2)])).toEqual({ created: 0, updated: 0, unchanged: 2, removed: 0 });
    expect(compareLines([line(1), line(2)], [line(1), line(3), line(4)])).toEqual({ created: 1, updated: 1, unchanged: 1, removed: 0 });
    expect(compareLines([line(1), line(2)], [line(3)])).toEqual({ created: 0, updated: 1, unchanged: 0, removed: 1 });
  });

  it('terms: Term I February to April (and January), II May to August, III September to December', () => {
    expect([0, 1, 3, 4, 7, 8, 11].map((month) => termOf(new Date(2026, month, 15)))).toEqual(['I', 'I', 'I', 'II', 'II', 'III', 'III']);
    expect(termStart('I', 2026)).toBe('2026-02-02');
    expect(termStart('II', 2026)).toBe('2026-05-04');
    expect(termStart('III', 2026)).toBe('2026-09-07');
    expect(['P1', 'P4', 'S2', 'S6'].map(schoolFees)).toEqual([450_000, 550_000, 850_000, 1_100_000]);
  });
});

describe('the demo schools', () => {
  it('invoice every active learner for the current term, once however often the demo is seeded', async () => {
    // A copy of the run's one seeded demo; seeding it again below must change nothing.
    const database = await openTestDatabase({ demo: true });
    try {
      const today = new Date();
      const year = today.getFullYear();
      const term = termOf(today);
      const tenant = await database.db
        .selectFrom('tenants')
        .select('id')
        .where('tenantcode', '=', 'demo-primary')
        .executeTakeFirstOrThrow();
      const read = () =>
        withTenant(database.db, { tenantId: tenant.id }, async (trx) => {
          const active = await trx
            .selectFrom('students')
            .select(['id', 'form'])
            .where('tenant_id', '=', tenant.id)
            .where('status', '=', 'active')
            .execute();
          const lines = await trx
            .selectFrom('statement_lines')
            .select(['student_id', 'category', 'term', 'year', 'particulars'])
            .select([sql<string>`date::text`.as('date'), sql<number>`amount::float8`.as('amount')])
            .where('tenant_id', '=', tenant.id)
            .execute();
          return { active, lines };
        });
      const { active, lines } = await read();
      expect(active.length).toBeGreaterThan(500);
      const invoices = lines.filter((line) => line.category === 'invoice' && line.term === term && line.year === year);
      const invoiced = new Map(invoices.map((line) => [line.student_id, line]));
      expect(invoices).toHaveLength(active.length);
      for (const learner of active) {
        const invoice = invoiced.get(learner.id);
        expect(invoice, learner.id).toBeDefined();
        expect(invoice!.amount).toBe(schoolFees(learner.form));
        expect(invoice!.date).toBe(termStart(term, year));
        expect(invoice!.particulars).toBe(`School fees, Term ${term} ${year}`);
      }
      // Most have paid something; nobody has paid more than they owe.
      const receipts = lines.filter((line) => line.category === 'receipt');
      const payers = new Set(receipts.map((line) => line.student_id));
      expect(payers.size / active.length).toBeGreaterThan(0.8);
      expect(payers.size).toBeLessThan(active.length);
      for (const learner of active) {
        const paid = receipts.filter((line) => line.student_id === learner.id).reduce((sum, line) => sum + line.amount, 0);
        expect(paid).toBeLessThanOrEqual(schoolFees(learner.form));
      }
      expect(receipts.every((line) => /^Payment, receipt \d+$/.test(line.particulars) && line.date >= termStart(term, year))).toBe(true);

      await seedDemo(database, 'Mustard@2026');
      expect((await read()).lines).toHaveLength(lines.length);
    } finally {
      await database.close();
    }
    // The run's demo may be seeded first here (under a lock the other files wait on), then once more.
  }, 240_000);
});
