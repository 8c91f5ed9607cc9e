import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { marksheetEndpoint, markTypes, proportions, REPORT_MESSAGES, studentCategories } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../db/ids.js';
import { withTenant } from '../../../db/tenant.js';
import { makeTenant, makeUser } from '../../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../../test/test-app.js';
import { gradeSet, newSubject, ok, type Row, SPREADSHEET } from '../../settings/settings-fixtures.js';

/*
 * The mark sheet through the API (issue 15 point 7), on both databases: the report cards' P7
 * class (marks entered through the marks API) as a preview, a workbook and a PDF, each read
 * back; what another school, a teacher and bad input get; and a class of 120 learners in 12
 * subjects, timed.
 */

let t: TestApp;
let head: Caller;
let other: Caller;
let teacher: Caller;
let schoolId: string;
let subjects: Row[];
let bot: Row;
let eot: Row;
let learners: Record<string, string>;
const YEAR = new Date().getFullYear();
const run = promisify(execFile);

/** Learners by first name, in P7 East (Amina, Brian) and West (Carol, David). */
async function addLearners(tenantId: string) {
  const rows = [
    ['Amina', 'East'],
    ['Brian', 'East'],
    ['Carol', 'West'],
    ['David', 'West'],
  ].map(([firstname, stream], index) => ({
    tenant_id: tenantId,
    id: newId(),
    studentid: `P7/00${index + 1}`,
    firstname: firstname as string,
    lastname: 'Okello',
    form: 'P7',
    stream: stream as string,
  }));
  await withTenant(t.database.db, { tenantId }, (trx) => trx.insertInto('students').values(rows).execute());
  return Object.fromEntries(rows.map((row) => [row.firstname, row.id]));
}

/** Saves one subject's BOT and EOT marks of the class through the marks API, per stream. */
async function enter(subject: Row, marks: Record<string, [number | 'ABS', number | 'ABS']>) {
  for (const stream of ['East', 'West']) {
    const inStream = Object.entries(marks).filter(([name]) => (stream === 'East' ? ['Amina', 'Brian'] : ['Carol', 'David']).includes(name));
    const byType = (at: 0 | 1) => Object.fromEntries(inStream.map(([name, values]) => [learners[name] as string, values[at]]));
    ok(
      await head.post('/api/school/marks', {
        form: 'P7',
        stream,
        term: 'I',
        year: YEAR,
        subject_id: subject.id,
        paper: 'I',
        save_id: crypto.randomUUID(),
        marks: { [bot.id]: byType(0), [eot.id]: byType(1) },
        base: {},
      }),
    );
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Kitante Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  schoolId = school.id;
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { name: 'Class Teacher', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  subjects = [
    await newSubject(head, { name: 'English', abbreviation: 'ENG', category: 'english', position: 1 }),
    await newSubject(head, { name: 'Mathematics', abbreviation: 'MTC', category: 'mathematics', position: 2 }),
    await newSubject(head, { name: 'Science', abbreviation: 'SCI', category: 'science', position: 3 }),
    await newSubject(head, { name: 'Social Studies', abbreviation: 'SST', category: 'humanity', position: 4 }),
  ];
  bot = ok(await head.post(markTypes.path, { label: 'BOT', category: 'test', position: 1 }));
  eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 2 }));
  for (const subject of subjects) {
    ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P7', term: 'I', year: YEAR })));
    for (const [markType, percentage] of [
      [bot, 40],
      [eot, 60],
    ] as const) {
      ok(
        await head.post(proportions.path, {
          form: 'P7',
          term: 'I',
          year: YEAR,
          subject_id: subject.id,
          marktype_id: markType.id,
          percentage,
        }),
      );
    }
  }
  learners = await addLearners(school.id);
  // Amina: 80 and 85 everywhere (83, D1): aggregate 4. Brian: 70 and 70 (C3): 12, Division I.
  // Carol: 60 and 50 (54, P7) in English, 70s elsewhere: 7 + 3 + 3 + 3 = 16, Division II.
  // David: absent from the Science EOT: X.
  const [english, maths, science, sst] = subjects as [Row, Row, Row, Row];
  await enter(english, { Amina: [80, 85], Brian: [70, 70], Carol: [60, 50], David: [60, 60] });
  await enter(maths, { Amina: [80, 85], Brian: [70, 70], Carol: [70, 70], David: [60, 60] });
  await enter(science, { Amina: [80, 85], Brian: [70, 70], Carol: [70, 70], David: [60, 'ABS'] });
  await enter(sst, { Amina: [80, 85], Brian: [70, 70], Carol: [70, 70], David: [60, 60] });
  // The school's rule for a missed exam is "no total" (grading rules `missed`, not the default
  // re-weighting), so the sheet shows a subject without a total ("-") and a Division X.
  const current = ok(await head.get('/api/school/gradingrules'));
  ok(await head.put('/api/school/gradingrules', { rules: { ...current.rules, missed: 'none' }, version: current.version }));
});
afterAll(() => t?.close());

const marksheet = (by: Caller, query: Record<string, string | number> = {}) => {
  const search = new URLSearchParams(
    Object.entries({ form: 'P7', term: 'I', year: YEAR, ...query }).map(([key, value]): [string, string] => [key, String(value)]),
  );
  return by.get(`${marksheetEndpoint.path}?${search}`);
};

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'marksheet-'));
  try {
    const file = path.join(folder, 'marksheet.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function workbookOf(response: LightMyRequestResponse): Promise<ExcelJS.Worksheet> {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe(SPREADSHEET);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
  return workbook.getWorksheet('Marksheet') as ExcelJS.Worksheet;
}

/** A sheet's rows as plain values (exceljs's rows are 1-based with an empty first cell). */
function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  for (let index = 1; index <= sheet.rowCount; index++) rows.push((sheet.getRow(index).values as unknown[]).slice(1));
  return rows;
}

/** The rows of the count table titled `title`, up to the blank row after it. */
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

describe('the preview (html=1)', () => {
  it('has every learner by position with their subjects, totals, divisions, and the counts per grade and division', async () => {
    const { html } = ok(await marksheet(head, { html: 1 }));
    expect(html).toContain('Kitante Primary');
    expect(html).toContain(`Class P7 · All streams · Term I · ${YEAR}`);
    const order = [...html.matchAll(/<tr data-learner="([^"]+)" data-id=/g)].map((match) => match[1]);
    expect(order).toEqual(['P7/001', 'P7/002', 'P7/003', 'P7/004']);
    expect(html).toContain(`data-id="${learners.Amina}"`);
    for (const name of ['Amina Okello', 'Brian Okello', 'Carol Okello', 'David Okello']) expect(html).toContain(name);
    for (const code of ['ENG', 'MTC', 'SCI', 'SST']) expect(html).toContain(`>${code}</th>`);
    expect(html).toMatch(/<th colspan="2" title="Social Studies">SST<\/th>/);
    // Amina: 83 and D1 in each subject, total 332, average 83, aggregate 4, Division I, first.
    expect(html).toMatch(
      /data-learner="P7\/001" data-id="[^"]+"><td class="num">1<\/td><td class="text">P7\/001<\/td><td class="text">Amina Okello<\/td><td class="text">East<\/td>(<td class="num">83<\/td><td class="num">D1<\/td>){4}<td class="num">332<\/td><td class="num">83<\/td><td class="num">4<\/td><td class="num">I<\/td><td class="num">1<\/td><\/tr>/,
    );
    // David: absent from the Science EOT, so no Science total, Division X.
    expect(html).toMatch(
      /data-learner="P7\/004" data-id="[^"]+">.*<td class="num">-<\/td><td class="num">-<\/td>.*<td class="num">X<\/td>/,
    );
    const divisions = /<div data-counts="division">(.*?)<\/div>/.exec(html)?.[1] ?? '';
    const counted = [...divisions.matchAll(/<tr><td class="text">([^<]+)<\/td><td class="num">(\d+)<\/td><\/tr>/g)].map(
      (m) => `${m[1]}:${m[2]}`,
    );
    expect(counted).toEqual(['I:2', 'II:1', 'III:0', 'IV:0', 'U:0', 'X:1', 'Total:4']);
    const grades = /<div data-counts="grades">(.*?)<\/div>/.exec(html)?.[1] ?? '';
    expect(grades).toContain('<th>D1</th><th>D2</th><th>C3</th><th>C4</th><th>C5</th><th>C6</th><th>P7</th><th>P8</th><th>F9</th>');
    // English: Amina D1, Brian C3, David C5 (60), Carol P7 (54).
    expect(grades).toContain(
      'ENG English</td><td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">0</td><td class="num">0</td><td class="num">4</td>',
    );
    expect(html).not.toContain('<script');
  });

  it('of one stream, or of one student category: those learners alone, still ranked in the class', async () => {
    const { html } = ok(await marksheet(head, { html: 1, stream: 'West' }));
    expect([...html.matchAll(/<tr data-learner="([^"]+)" data-id=/g)].map((match) => match[1])).toEqual(['P7/003', 'P7/004']);
    expect(html).toContain('<th rowspan="2">Class pos</th>');
    expect(html).toContain('Class P7 · West · Term I');

    const category = ok(await head.post(studentCategories.path, { name: 'Boarders' }));
    await withTenant(t.database.db, { tenantId: schoolId }, (trx) =>
      trx
        .updateTable('students')
        .set({ studentcategory_id: category.id })
        .where('id', '=', learners.Brian as string)
        .execute(),
    );
    const boarders = ok(await marksheet(head, { html: 1, studentcategory_id: category.id }));
    expect([...boarders.html.matchAll(/<tr data-learner="([^"]+)" data-id=/g)].map((match) => match[1])).toEqual(['P7/002']);
  });
});

describe('the workbook (excel=1)', () => {
  it('is named marksheet-<class>-all-<year>-<term>.xlsx, with the header block, the table, numbers as numbers and the counts', async () => {
    const response = await marksheet(head, { excel: 1 });
    expect(response.headers['content-disposition']).toBe(`attachment; filename="marksheet-P7-all-${YEAR}-I.xlsx"`);
    const sheet = await workbookOf(response);
    const rows = rowsOf(sheet);
    expect(rows[0]).toEqual(['Kitante Primary']);
    expect(rows.slice(2, 6)).toEqual([
      ['Class', 'P7'],
      ['Stream', 'All streams'],
      ['Term', 'I'],
      ['Year', YEAR],
    ]);
    const header = rows.findIndex((row) => row[1] === 'Student ID');
    expect(rows[header]).toEqual([
      'No.',
      'Student ID',
      'Name',
      'Stream',
      'ENG',
      'ENG',
      'MTC',
      'MTC',
      'SCI',
      'SCI',
      'SST',
      'SST',
      'Total',
      'Avg',
      'Agg',
      'Div',
      'Pos',
    ]);
    expect(rows[header + 1]?.slice(4, 12)).toEqual(['Mk', 'Gr', 'Mk', 'Gr', 'Mk', 'Gr', 'Mk', 'Gr']);
    expect(sheet.getRow(header + 1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: header + 2, xSplit: 3 });
    const amina = rows[header + 2] as unknown[];
    expect(amina).toEqual([1, 'P7/001', 'Amina Okello', 'East', 83, 'D1', 83, 'D1', 83, 'D1', 83, 'D1', 332, 83, 4, 'I', 1]);
    expect(typeof amina[12]).toBe('number');
    expect(rows[header + 5]?.slice(0, 4)).toEqual([4, 'P7/004', 'David Okello', 'West']);
    expect(rows[header + 5]?.slice(-2)).toEqual(['X', 4]);

    expect(countRows(rows, 'Learners per division')).toEqual([
      ['Division', 'Learners'],
      ['I', 2],
      ['II', 1],
      ['III', 0],
      ['IV', 0],
      ['U', 0],
      ['X', 1],
      ['Total', 4],
    ]);
    const grades = countRows(rows, 'Grades per subject');
    expect(grades[0]).toEqual(['Subject', 'D1', 'D2', 'C3', 'C4', 'C5', 'C6', 'P7', 'P8', 'F9', 'Total']);
    // Mathematics: Amina D1, Brian and Carol C3, David C5 (60).
    expect(grades.find((row) => row[0] === 'MTC Mathematics')).toEqual(['MTC Mathematics', 1, 0, 2, 0, 1, 0, 0, 0, 0, 4]);
    // Science: David has no grade (absent): three graded.
    expect(grades.find((row) => row[0] === 'SCI Science')?.at(-1)).toBe(3);
  });

  it('a stream is named in the file', async () => {
    const response = await marksheet(head, { excel: 1, stream: 'East' });
    expect(response.headers['content-disposition']).toBe(`attachment; filename="marksheet-P7-East-${YEAR}-I.xlsx"`);
    const rows = rowsOf(await workbookOf(response));
    expect(rows.filter((row) => row[2] === 'Amina Okello' || row[2] === 'Carol Okello').map((row) => row[2])).toEqual(['Amina Okello']);
  });
});

describe('the PDF (pdf=1)', () => {
  it('is named marksheet-<class>-<stream>-<year>-<term>.pdf, A4 landscape, and reads back with names, totals and divisions', async () => {
    const response = await marksheet(head, { pdf: 1 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="marksheet-P7-all-${YEAR}-I.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Kitante Primary');
    expect(text).toContain('MARK SHEET');
    for (const name of ['Amina Okello', 'Brian Okello', 'Carol Okello', 'David Okello']) expect(text).toContain(name);
    expect(text).toMatch(/Amina Okello\s+East\s+83\s+D1\s+83\s+D1\s+83\s+D1\s+83\s+D1\s+332\s+83\s+4\s+I\s+1/);
    expect(text).toMatch(/Carol Okello\s+West\s+54\s+P7\s+70\s+C3\s+70\s+C3\s+70\s+C3\s+264\s+66\s+16\s+II\s+3/);
    expect(text).toMatch(/David Okello\s+West.*\bX\b/);
    expect(text).toContain('Learners per division');
    expect(text).toMatch(/\bII\s+1\b/);
    expect(text).toContain('Page 1 of 1');
  });
});

describe('who may, and what cannot make a mark sheet', () => {
  it('a teacher without manage on marks: 403', async () => {
    expect((await marksheet(teacher, { html: 1 })).statusCode).toBe(403);
    expect((await marksheet(teacher, { excel: 1 })).statusCode).toBe(403);
  });

  it('another school’s head teacher: 422, nothing of these learners', async () => {
    for (const output of ['html', 'excel', 'pdf']) {
      const theirs = await marksheet(other, { [output]: 1 });
      expect(theirs.statusCode).toBe(422);
      expect(theirs.json().errors.form).toEqual([REPORT_MESSAGES.noLearners]);
      expect(theirs.body).not.toContain('Amina');
    }
  });

  it('a class without learners or without marks: 422 with the reason', async () => {
    expect((await marksheet(head, { html: 1, form: 'P3' })).json().errors.form).toEqual([REPORT_MESSAGES.noLearners]);
    expect((await marksheet(head, { html: 1, term: 'II' })).json().errors.marktype_id).toEqual([REPORT_MESSAGES.noMarks]);
    expect((await marksheet(head, { pdf: 1, category: 'custom' })).json().errors.marktype_id).toEqual([
      REPORT_MESSAGES.customNeedsMarkTypes,
    ]);
    expect((await marksheet(head, { excel: 1, marktype_id: newId() })).json().errors.marktype_id).toEqual([
      REPORT_MESSAGES.markTypeUnknown,
    ]);
  });

  it.each([
    ['a term outside I..III', { term: 'IV' }],
    ['a year that is not one', { year: 'next' }],
    ['no class', { form: '' }],
    ['an unknown report type', { category: 'weekly' }],
    ['a mark type id that is not one', { marktype_id: 'BOT' }],
    ['a student category id that is not one', { studentcategory_id: 'boarders' }],
    ['a NUL byte in the stream', { stream: 'East\u0000' }],
    ['a NUL byte in the class', { form: 'P7\u0000' }],
    ['a huge class name', { form: 'P'.repeat(5000) }],
    ['a huge stream', { stream: 'E'.repeat(5000) }],
    ['a flag that is not one', { pdf: 'yes' }],
    ['too many mark types', { marktype_ids: Array.from({ length: 30 }, () => newId()).join(',') }],
  ])('%s: 422, never 500', async (_, query) => {
    for (const output of ['html', 'excel', 'pdf']) {
      const response = await marksheet(head, { [output]: 1, ...query });
      expect(response.statusCode, `${output}: ${response.body}`).toBe(422);
    }
  });
});

describe('a class of 120 learners in 12 subjects', () => {
  it('fits the PDF on a few readable pages, with every learner; the times are printed', async () => {
    const P6 = 'P6';
    const categories = ['english', 'mathematics', 'science', 'humanity', ...Array.from({ length: 8 }, () => 'general')];
    const taught = [];
    for (const [index, category] of categories.entries())
      taught.push(
        await newSubject(head, { name: `Big subject ${index + 1}`, abbreviation: `S${index + 1}`, category, position: 10 + index }),
      );
    for (const subject of taught) ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: P6, term: 'I', year: YEAR })));
    const rows = Array.from({ length: 120 }, (_, index) => ({
      tenant_id: schoolId,
      id: newId(),
      studentid: `P6/${String(index + 1).padStart(4, '0')}`,
      firstname: `Learner${index + 1}`,
      // One name a browser would run, to be shown as text everywhere.
      othername: index === 7 ? '<script>alert(1)</script>' : 'Nakato',
      lastname: 'Ssempala-Kiggundu',
      form: P6,
      stream: index % 2 === 0 ? 'North' : 'South',
    }));
    await withTenant(t.database.db, { tenantId: schoolId }, (trx) => trx.insertInto('students').values(rows).execute());
    for (const [subjectIndex, subject] of taught.entries()) {
      const marks = Object.fromEntries(rows.map((row, index) => [row.id, (index * 7 + subjectIndex * 13) % 101]));
      ok(
        await head.post('/api/school/marks', {
          form: P6,
          term: 'I',
          year: YEAR,
          subject_id: subject.id,
          paper: 'I',
          save_id: crypto.randomUUID(),
          marks: { [eot.id]: marks },
          base: {},
        }),
      );
    }

    const timed = async (query: Record<string, string | number>) => {
      const started = performance.now();
      const response = await marksheet(head, { form: P6, marktype_id: eot.id, ...query });
      const ms = performance.now() - started;
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      return { response, ms };
    };
    // Each asked twice: the first pays the JIT (and the PDF worker's start), the second is what a school sees all day.
    const html = await timed({ html: 1 });
    const excel = await timed({ excel: 1 });
    const pdf = await timed({ pdf: 1 });
    const again = { html: await timed({ html: 1 }), excel: await timed({ excel: 1 }), pdf: await timed({ pdf: 1 }) };
    const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
    console.log(
      `marksheet, 120 learners x 12 subjects (${process.env.MUSTARD_TEST_DB ?? 'pglite'}), first/again: ` +
        `html ${html.ms.toFixed(0)}/${again.html.ms.toFixed(0)} ms (${kb(html.response.body.length)}), ` +
        `xlsx ${excel.ms.toFixed(0)}/${again.excel.ms.toFixed(0)} ms (${kb(excel.response.rawPayload.length)}), ` +
        `pdf ${pdf.ms.toFixed(0)}/${again.pdf.ms.toFixed(0)} ms (${kb(pdf.response.rawPayload.length)})`,
    );

    const preview: string = html.response.json().html;
    expect(preview.match(/<tr data-learner=/g)).toHaveLength(120);
    expect(preview).not.toContain('<script>alert');
    expect(preview).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    const sheet = await workbookOf(excel.response);
    const learnersInSheet = rowsOf(sheet).filter((row) => typeof row[1] === 'string' && /^P6\/\d{4}$/.test(row[1]));
    expect(learnersInSheet).toHaveLength(120);
    expect(learnersInSheet.every((row) => typeof row[28] === 'number')).toBe(true);

    const text = await pdfText(pdf.response.rawPayload);
    const pages = text.split('\f').filter((page) => page.trim());
    expect(pages.length).toBeLessThanOrEqual(4);
    for (const row of rows) expect(text, row.studentid).toContain(row.studentid);
    expect(text).toContain('Learner1 Nakato Ssempala-Kiggundu');
    expect(text).toContain('<script>alert(1)</script>');
    // The header row is repeated on every page of the table.
    const tablePages = pages.filter((page) => page.includes('P6/'));
    expect(tablePages.length).toBeGreaterThanOrEqual(2);
    for (const page of tablePages) {
      expect(page).toMatch(/S1\s+S2\s+S3\s+S4\s+S5\s+S6\s+S7\s+S8\s+S9\s+S10\s+S11\s+S12/);
      expect(page).toMatch(/No\.\s+Student ID\s+Name\s+Stream\s+Total\s+Avg\s+Agg\s+Div\s+Pos/);
      expect(page).toMatch(/(Mk\s+Gr\s+){12}/);
    }
    const { stdout: info } = await pdfInfo(pdf.response.rawPayload);
    expect(info).toMatch(/Page size:\s+841\.89 x 595\.28 pts \(A4\)/);
  });
});

async function pdfInfo(bytes: Buffer) {
  const folder = await mkdtemp(path.join(tmpdir(), 'marksheet-'));
  try {
    const file = path.join(folder, 'marksheet.pdf');
    await writeFile(file, bytes);
    return await run('pdfinfo', [file]);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
