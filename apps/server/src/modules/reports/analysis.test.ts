import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { analysisEndpoint, markTypes, REPORT_MESSAGES, SETTINGS_MESSAGES, terminalReportEndpoint } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * The result analysis through the API (issue 28 point 1), on both databases: a small P5 class
 * of its own (marks entered through the marks API) whose analysis agrees with its terminal
 * report's model, the preview, precision out of range, a PDF asked for, another school's mark type.
 */

let t: TestApp;
let head: Caller;
let other: Caller;
let subjects: Row[];
let eot: Row;
let otherType: Row;
let learners: Record<string, string>;
let schoolId: string;
const YEAR = new Date().getFullYear();

const PEOPLE = [
  ['Amina', 'East', 'F'],
  ['Brian', 'East', 'M'],
  ['Carol', 'West', 'F'],
  ['David', 'West', 'M'],
] as const;

async function addLearners(tenantId: string) {
  const rows = PEOPLE.map(([firstname, stream, gender], index) => ({
    tenant_id: tenantId,
    id: newId(),
    studentid: `P5/00${index + 1}`,
    firstname,
    lastname: 'Namutebi',
    form: 'P5',
    stream,
    gender,
  }));
  await withTenant(t.database.db, { tenantId }, (trx) => trx.insertInto('students').values(rows).execute());
  return Object.fromEntries(rows.map((row) => [row.firstname, row.id]));
}

/** Saves one subject's EOT marks of the class through the marks API, per stream. */
async function enter(subject: Row, marks: Record<string, number | 'ABS'>) {
  for (const stream of ['East', 'West']) {
    const names = PEOPLE.filter((person) => person[1] === stream).map((person) => person[0] as string);
    const values = Object.fromEntries(
      Object.entries(marks)
        .filter(([name]) => names.includes(name))
        .map(([name, value]) => [learners[name] as string, value]),
    );
    ok(
      await head.post('/api/school/marks', {
        form: 'P5',
        stream,
        term: 'I',
        year: YEAR,
        subject_id: subject.id,
        paper: 'I',
        save_id: crypto.randomUUID(),
        marks: { [eot.id]: values },
        base: {},
      }),
    );
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Bweyogerere Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  subjects = [
    await newSubject(head, { name: 'English', abbreviation: 'ENG', category: 'english', position: 1 }),
    await newSubject(head, { name: 'Mathematics', abbreviation: 'MTC', category: 'mathematics', position: 2 }),
    await newSubject(head, { name: 'Science', abbreviation: 'SCI', category: 'science', position: 3 }),
    await newSubject(head, { name: 'Social Studies', abbreviation: 'SST', category: 'humanity', position: 4 }),
  ];
  eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  otherType = ok(await other.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  for (const subject of subjects) ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P5', term: 'I', year: YEAR })));
  schoolId = school.id;
  learners = await addLearners(school.id);
  const [english, maths, science, sst] = subjects as [Row, Row, Row, Row];
  // English: D1, D2, ABS, F9 (mean grade point 4); Science ties it; Social Studies is best.
  await enter(english, { Amina: 85, Brian: 77, Carol: 'ABS', David: 20 });
  await enter(maths, { Amina: 85, Brian: 85, Carol: 50, David: 40 });
  await enter(science, { Amina: 85, Brian: 90, Carol: 62, David: 30 });
  await enter(sst, { Amina: 70, Brian: 70, Carol: 70, David: 70 });
});
afterAll(() => t?.close());

const run = promisify(execFile);

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'analysis-'));
  try {
    const file = path.join(folder, 'analysis.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const get = (by: Caller, path: string, query: Record<string, string | number> = {}) => {
  const search = new URLSearchParams(
    Object.entries({ form: 'P5', term: 'I', year: YEAR, ...query }).map(([key, value]): [string, string] => [key, String(value)]),
  );
  return by.get(`${path}?${search}`);
};

interface Row2 {
  subject_id: string;
  sat: number;
  absent: number;
  grades: Record<string, number>;
  fail: number | null;
  meanMark: number | null;
  meanGradePoint: number | null;
  position: number | null;
  boys: { sat: number; meanMark: number | null };
  girls: { sat: number; meanMark: number | null };
}

/** The analysis's charts (issue 28 point 6), by their titles. */
const CHART_TITLES = [
  'Grade distribution per subject',
  'Mean grade point per subject, weakest first',
  'Boys and girls: mean mark per subject',
  'Division summary',
];

describe('GET /api/school/analysis', () => {
  it('answers the model, agreeing with the terminal report of the same class', async () => {
    const model = ok(await get(head, analysisEndpoint.path, { json: 1 }));
    const report = ok(await get(head, terminalReportEndpoint.path, { json: 1 }));
    const [english, maths, science, sst] = subjects as [Row, Row, Row, Row];
    const rows = model.subjects as Row2[];
    const row = (id: string) => rows.find((each) => each.subject_id === id) as Row2;
    expect(row(english.id)).toMatchObject({ sat: 3, absent: 1, meanGradePoint: 4, position: 2 });
    expect(row(english.id).grades).toMatchObject({ D1: 1, D2: 1, F9: 1 });
    expect(row(english.id).fail).toBeCloseTo(100 / 3, 6);
    expect(row(english.id).boys).toMatchObject({ sat: 2, meanMark: 48.5 });
    expect(row(english.id).girls).toMatchObject({ sat: 1, meanMark: 85 });
    expect(rows.map((each) => each.position)).toEqual([2, 4, 2, 1]);
    expect(row(maths.id).meanGradePoint).toBe(4.25);
    expect(row(science.id).meanGradePoint).toBe(4);
    expect(row(sst.id).meanMark).toBe(70);
    // Every subject's counts and mean mark as the cards of the same class have them.
    type CardSubject = { subject_id: string; total: number | null; grade: string | null };
    const cards = report.learners as Array<{ subjects: CardSubject[]; division: string | null }>;
    for (const each of rows) {
      const graded = cards.flatMap((card) =>
        card.subjects.filter((subject) => subject.subject_id === each.subject_id && subject.grade !== null),
      );
      expect(graded.length).toBe(each.sat);
      const totals = graded.map((subject) => subject.total as number);
      expect(each.meanMark).toBeCloseTo(totals.reduce((sum, value) => sum + value, 0) / totals.length, 2);
      for (const [grade, count] of Object.entries(each.grades))
        expect(count, grade).toBe(graded.filter((subject) => subject.grade === grade).length);
    }
    const divisions = model.divisions as Array<{ division: string; count: number }>;
    for (const { division, count } of divisions) expect(count, division).toBe(cards.filter((card) => card.division === division).length);
    expect(divisions.reduce((sum, each) => sum + each.count, 0)).toBe(4);
    expect(model.report).toMatchObject({ form: 'P5', precision: 2, level: 'primary' });
  });

  it('previews the tables with the decimals asked for', async () => {
    const answer = ok(await get(head, analysisEndpoint.path, { html: 1, precision: 3 }));
    expect(answer.html).toContain('RESULT ANALYSIS');
    expect(answer.html).toContain('English');
    expect(answer.html).toContain('33.333');
    expect(answer.html).toContain('Division summary');
    // The charts a head teacher reads first, each an inline SVG with its table beside it (issue 28 point 6).
    const html = answer.html as string;
    expect(html.match(/<figure class="chart"/g)).toHaveLength(4);
    expect(html.match(/<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/g)).toHaveLength(4);
    for (const title of CHART_TITLES) expect(html).toContain(`aria-label="${title}"`);
    expect(html).toMatch(/Division I: \d+\.\d{3}% of \d learners with a result/);
    // Mean grade point weakest first (lower is better): Mathematics 4.250 before English and Science 4.000, Social Studies last.
    const weakest = html.slice(html.indexOf('aria-label="Mean grade point'));
    expect(weakest.indexOf('4.250')).toBeGreaterThan(0);
    expect(weakest.indexOf('Mathematics')).toBeLessThan(weakest.indexOf('English'));
    expect(weakest.indexOf('Science')).toBeLessThan(weakest.indexOf('Social Studies'));
  });

  it('prints the PDF through the document pool, named by class, stream, year and term', async () => {
    const pdf = await get(head, analysisEndpoint.path, { stream: 'East', precision: 1 });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`analysis-P5-East-${YEAR}-I.pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('RESULT ANALYSIS');
    expect(text).toContain('Bweyogerere Primary');
    expect(text).toContain('Social Studies');
    // The charts beside their tables, drawn as the PDF's own vector graphics and text.
    for (const title of CHART_TITLES) expect(text).toContain(title);
    expect(text).toMatch(/Division I: \d+\.\d% of \d learners with a result/);
  });

  it('answers the tables as a workbook: numbers as numbers, the precision as their format', async () => {
    const answer = await get(head, analysisEndpoint.path, { excel: 1, precision: 3 });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    expect(answer.headers['content-disposition']).toContain(`analysis-P5-all-${YEAR}-I.xlsx`);
    const model = ok(await get(head, analysisEndpoint.path, { json: 1 }));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    const lines: unknown[][] = [];
    const numbers: number[] = [];
    sheet.eachRow((row, number) => {
      lines.push((row.values as unknown[]).slice(1));
      numbers.push(number);
    });
    expect(lines[0]).toEqual(['Bweyogerere Primary']);
    expect(lines[1]).toEqual(['RESULT ANALYSIS']);
    const headAt = lines.findIndex((line) => line[0] === 'Subject');
    const columns = lines[headAt] as string[];
    const english = lines.find((line) => line[0] === 'English') as unknown[];
    const rows = model.subjects as Row2[];
    const modelEnglish = rows.find((each) => each.sat === 3 && each.absent === 1) as Row2;
    // The same numbers as the model, unrounded: a head teacher's sums in Excel are exact.
    expect(english[columns.indexOf('Sat')]).toBe(modelEnglish.sat);
    expect(english[columns.indexOf('% Fail')]).toBeCloseTo(100 / 3, 9);
    expect(english[columns.indexOf('Pos.')]).toBe(2);
    const failCell = sheet.getRow(numbers[lines.indexOf(english)] ?? 0).getCell(columns.indexOf('% Fail') + 1);
    expect(failCell.numFmt).toBe('0.000');
    expect(lines.some((line) => line[0] === 'Boys and girls')).toBe(true);
    expect(lines.some((line) => line[0] === 'Division summary')).toBe(true);
  });

  it('answers a class on the new curriculum that year with its own analysis: grades A..E and identifiers, no divisions', async () => {
    const tenantId = schoolId;
    const set = (curriculum: 'new' | 'old') =>
      withTenant(t.database.db, { tenantId }, async (trx) => {
        if (curriculum === 'old') await trx.deleteFrom('class_curricula').where('year', '=', YEAR).where('form', '=', 'P5').execute();
        else await trx.insertInto('class_curricula').values({ tenant_id: tenantId, year: YEAR, form: 'P5', curriculum }).execute();
      });
    await set('new');
    try {
      // The summative exam is one mark type, chosen.
      const unchosen = await get(head, analysisEndpoint.path, { json: 1 });
      expect(unchosen.statusCode, unchosen.body).toBe(422);
      expect(unchosen.json().errors?.marktype_ids).toEqual([SETTINGS_MESSAGES.markTypeRequired]);
      const model = ok(await get(head, analysisEndpoint.path, { json: 1, marktype_id: eot.id }));
      expect(model).toMatchObject({ divisions: null, subjects: [], learners: 4 });
      // Exam marks without competency scores make no total, so no grade: Carol's ABS is absent, the rest missing.
      const english = (model.newCurriculum.subjects as Array<Record<string, unknown>>).find((row) => row.subject === 'English');
      expect(english).toMatchObject({ assessed: 0, absent: 1, missing: 3, grades: { A: 0, B: 0, C: 0, D: 0, E: 0 } });
    } finally {
      await set('old');
    }
    const old = ok(await get(head, analysisEndpoint.path, { json: 1 }));
    expect(old.newCurriculum ?? null).toBeNull();
    expect(old.divisions).not.toBeNull();
  });

  it('analyses one stream', async () => {
    const model = ok(await get(head, analysisEndpoint.path, { json: 1, stream: 'East' }));
    expect(model.learners).toBe(2);
    expect((model.subjects as Row2[])[0]).toMatchObject({ sat: 2, absent: 0, fail: 0 });
  });

  it('refuses a precision out of range and another school’s mark type', async () => {
    for (const precision of [5, -1, 1.5, 'two']) {
      const answer = await get(head, analysisEndpoint.path, { json: 1, precision });
      expect(answer.statusCode, answer.body).toBe(422);
      expect(answer.body).toContain(REPORT_MESSAGES.analysisPrecision);
    }
    const theirs = await get(head, analysisEndpoint.path, { json: 1, marktype_id: otherType.id });
    expect(theirs.statusCode, theirs.body).toBe(422);
    expect(theirs.body).not.toContain('Other Primary');
    // The other school has no such class: nothing of this school's answered.
    const elsewhere = await get(other, analysisEndpoint.path, { json: 1 });
    expect(elsewhere.statusCode, elsewhere.body).toBe(422);
    expect(elsewhere.body).not.toContain('English');
  });
});

describe('GET /api/school/analysis of all classes (a whole school’s term)', () => {
  const all = { form: '' };
  beforeAll(async () => {
    // A second class, P6: two learners, English only, entered through the marks API.
    const rows = [
      { firstname: 'Esther', gender: 'F' as const },
      { firstname: 'Fred', gender: 'M' as const },
    ].map((person, index) => ({
      tenant_id: schoolId,
      id: newId(),
      studentid: `P6/00${index + 1}`,
      firstname: person.firstname,
      lastname: 'Okello',
      form: 'P6',
      stream: 'East',
      gender: person.gender,
    }));
    await withTenant(t.database.db, { tenantId: schoolId }, (trx) => trx.insertInto('students').values(rows).execute());
    const english = subjects[0] as Row;
    ok(await head.post('/api/school/grades', gradeSet(english.id, { form: 'P6', term: 'I', year: YEAR })));
    ok(
      await head.post('/api/school/marks', {
        form: 'P6',
        stream: 'East',
        term: 'I',
        year: YEAR,
        subject_id: english.id,
        paper: 'I',
        save_id: crypto.randomUUID(),
        marks: { [eot.id]: { [rows[0]?.id as string]: 90, [rows[1]?.id as string]: 45 } },
        base: {},
      }),
    );
  });

  it('analyses every class with marks, each as it is alone, with a summary line per class', async () => {
    const school = ok(await get(head, analysisEndpoint.path, { ...all, json: 1 }));
    const alone = ok(await get(head, analysisEndpoint.path, { json: 1 }));
    const classes = school.classes as Array<{ report: { form: string }; subjects: unknown[]; divisions: unknown }>;
    expect(classes.map((each) => each.report.form)).toEqual(['P5', 'P6']);
    // P5 within the school is P5 alone: the same build on the same inputs.
    expect(classes[0]?.subjects).toEqual(alone.subjects);
    expect(classes[0]?.divisions).toEqual(alone.divisions);
    const summary = school.summary as Array<{
      form: string;
      learners: number;
      divisions: Array<{ division: string; count: number }>;
      divisionOne: number | null;
    }>;
    expect(summary.map((row) => [row.form, row.learners])).toEqual([
      ['P5', 4],
      ['P6', 2],
    ]);
    expect(summary[0]?.divisions).toEqual(alone.divisions);
    const p5 = summary[0] as (typeof summary)[number];
    const withResult = p5.divisions.filter((each) => each.division !== 'X').reduce((sum, each) => sum + each.count, 0);
    expect(p5.divisionOne).toBeCloseTo(((p5.divisions[0]?.count ?? 0) * 100) / withResult, 9);
    expect(school.leftOut).toEqual([]);
    expect(school.report).toMatchObject({ school: 'Bweyogerere Primary', term: 'I', year: YEAR });
  });

  it('previews, downloads and prints the whole school, the PDF followed a class at a time', async () => {
    const html = ok(await get(head, analysisEndpoint.path, { ...all, html: 1 })).html as string;
    expect(html).toContain('RESULT ANALYSIS · All classes');
    expect(html.match(/<section>/g)?.length).toBe(3);
    // The classes compared by their divisions, each named with its % Division I (issue 28 point 6).
    expect(html).toContain('aria-label="Divisions per class"');
    expect(html).toMatch(/P5 · \d+\.\d{2}% Div\. I/);
    const excel = await get(head, analysisEndpoint.path, { ...all, excel: 1 });
    expect(excel.headers['content-disposition']).toContain(`analysis-all-${YEAR}-I.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['All classes', 'P5', 'P6']);
    expect(workbook.worksheets[0]?.getRow(5).values).toContain('% Div. I');
    const token = 'school-analysis-1';
    const pdf = await get(head, analysisEndpoint.path, { ...all, progress: token });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(`analysis-all-${YEAR}-I.pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('RESULT ANALYSIS · All classes');
    expect(text).toMatch(/P6 · All streams · TERM I/);
    expect(text).toContain('Divisions per class');
    expect(ok(await head.get(`/api/school/terminalreport/progress?token=${token}`))).toEqual({ done: 2, total: 2 });
  });

  it('analyses a class on the new curriculum with its own analysis, beside the others', async () => {
    const set = (curriculum: 'new' | 'old') =>
      withTenant(t.database.db, { tenantId: schoolId }, async (trx) => {
        if (curriculum === 'old') await trx.deleteFrom('class_curricula').where('year', '=', YEAR).where('form', '=', 'P6').execute();
        else await trx.insertInto('class_curricula').values({ tenant_id: schoolId, year: YEAR, form: 'P6', curriculum }).execute();
      });
    await set('new');
    try {
      // Without a mark type, the new-curriculum class is named with why (its analysis is of one summative exam).
      const unnamed = ok(await get(head, analysisEndpoint.path, { ...all, json: 1 }));
      expect(unnamed.leftOut).toEqual([{ form: 'P6', reason: 'Please select a mark type' }]);
      expect((unnamed.classes as unknown[]).length).toBe(1);
      const school = ok(await get(head, analysisEndpoint.path, { ...all, json: 1, marktype_id: eot.id }));
      const classes = school.classes as Array<{ report: { form: string }; newCurriculum?: unknown; divisions: unknown }>;
      expect(classes.map((each) => [each.report.form, Boolean(each.newCurriculum)])).toEqual([
        ['P5', false],
        ['P6', true],
      ]);
      expect((school.summary as Array<{ form: string; divisions: unknown }>)[1]).toMatchObject({ form: 'P6', divisions: null });
      const html = ok(await get(head, analysisEndpoint.path, { ...all, html: 1, marktype_id: eot.id })).html as string;
      expect(html).toContain('<section data-curriculum="new">');
      const excel = await get(head, analysisEndpoint.path, { ...all, excel: 1, marktype_id: eot.id });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['All classes', 'P5', 'P6']);
      const text = await pdfText((await get(head, analysisEndpoint.path, { ...all, marktype_id: eot.id })).rawPayload);
      expect(text).toContain('P6');
    } finally {
      await set('old');
    }
  });

  it('refuses a stream without its class, and a term no class has marks in', async () => {
    const stream = await get(head, analysisEndpoint.path, { ...all, json: 1, stream: 'East' });
    expect(stream.statusCode, stream.body).toBe(422);
    expect(stream.json().errors.stream).toEqual([REPORT_MESSAGES.streamNeedsClass]);
    const empty = await get(head, analysisEndpoint.path, { ...all, json: 1, term: 'III' });
    expect(empty.statusCode, empty.body).toBe(422);
    expect(empty.json().errors.term).toEqual([REPORT_MESSAGES.noClassMarks]);
    // Another school's whole term holds none of this school's classes.
    const elsewhere = await get(other, analysisEndpoint.path, { ...all, json: 1 });
    expect(elsewhere.statusCode, elsewhere.body).toBe(422);
    expect(elsewhere.body).not.toContain('P5');
  });
});

describe('GET /api/school/analysis: the class across the year’s terms', () => {
  it('draws the trend of the class mean and Division I from each earlier term’s own analysis', async () => {
    const [english, maths] = subjects as [Row, Row];
    for (const subject of [english, maths])
      ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P5', term: 'II', year: YEAR })));
    for (const [subject, marks] of [
      [english, { Amina: 90, Brian: 80, Carol: 70, David: 60 }],
      [maths, { Amina: 88, Brian: 66, Carol: 55, David: 45 }],
    ] as const)
      for (const stream of ['East', 'West']) {
        const names = PEOPLE.filter((person) => person[1] === stream).map((person) => person[0] as string);
        const values = Object.fromEntries(names.map((name) => [learners[name] as string, marks[name as keyof typeof marks]]));
        ok(
          await head.post('/api/school/marks', {
            form: 'P5',
            stream,
            term: 'II',
            year: YEAR,
            subject_id: subject.id,
            paper: 'I',
            save_id: crypto.randomUUID(),
            marks: { [eot.id]: values },
            base: {},
          }),
        );
      }
    const first = ok(await get(head, analysisEndpoint.path, { json: 1 }));
    const second = ok(await get(head, analysisEndpoint.path, { json: 1, term: 'II' }));
    const point = (model: typeof first) => {
      const means = (model.subjects as Row2[]).flatMap((row) => (row.meanMark === null ? [] : [row.meanMark]));
      const divisions = model.divisions as Array<{ division: string; count: number }>;
      const withResult = divisions.filter((each) => each.division !== 'X').reduce((sum, each) => sum + each.count, 0);
      return {
        term: model.report.term,
        year: YEAR,
        meanMark: means.reduce((sum, value) => sum + value, 0) / means.length,
        divisionOne: withResult === 0 ? null : ((divisions[0]?.count ?? 0) * 100) / withResult,
      };
    };
    // Term I had no term before it this year: no trend; term II's trend is term I's analysis, then its own.
    expect(first.trend ?? null).toBeNull();
    const trend = second.trend as Array<ReturnType<typeof point>>;
    expect(trend.map((each) => each.term)).toEqual(['I', 'II']);
    expect(trend[0]?.meanMark).toBeCloseTo(point(first).meanMark, 9);
    expect(trend[0]?.divisionOne).toBe(point(first).divisionOne);
    expect(trend[1]?.meanMark).toBeCloseTo(point(second).meanMark, 9);
    const html = ok(await get(head, analysisEndpoint.path, { html: 1, term: 'II' })).html as string;
    expect(html).toContain('aria-label="The class across this year’s terms"');
    const text = await pdfText((await get(head, analysisEndpoint.path, { term: 'II' })).rawPayload);
    expect(text).toContain('The class across this year’s terms');
  });
});
