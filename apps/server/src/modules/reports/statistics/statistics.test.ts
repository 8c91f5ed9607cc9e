import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  defaultTermDates,
  localDay,
  markTypes,
  REPORT_MESSAGES,
  type ReportModel,
  type StatisticsModel,
  statisticsEndpoint,
  terminalReportEndpoint,
} from '@mustard/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../db/ids.js';
import { withTenant } from '../../../db/tenant.js';
import { DEMO_ADMIN_EMAIL } from '../../../seed/demo.js';
import { marksTerm } from '../../../seed/demo-marks.js';
import { makeTenant, makeUser } from '../../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../../test/test-app.js';
import { gradeSet, newSubject, ok, type Row, workbookOf } from '../../settings/settings-fixtures.js';

/*
 * Mark statistics through the API (issue 28 point 2), on both databases. On the seeded demo
 * (demo-primary's P7, demo-secondary's S6): several categories whose numbers agree with the
 * terminal report's model of the same class, the preview, the workbook and the PDF read back.
 * On a small P5 school of its own (marks entered through the marks API in terms I and II):
 * progress against the term before. Then bad input: an unknown category, a weight set that
 * does not exist, precision 5, a category the class's level has not, another school's class,
 * mark type and school, a class without marks.
 */

let t: TestApp;
let admin: Caller;
let head: Caller;
let other: Caller;
let otherType: Row;
let learners: Record<string, string>;
const { term, year } = marksTerm(localDay(), defaultTermDates);
const YEAR = new Date().getFullYear();
const run = promisify(execFile);

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'otherstats-'));
  try {
    const file = path.join(folder, 'otherstats.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const search = (query: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));

/** The demo's statistics of a class in its marks term. */
const demo = (school: string, query: Record<string, string | number>) =>
  admin.in(school).get(`${statisticsEndpoint.path}?${search({ term, year, ...query })}`);

async function demoModel(school: string, form: string, category: string, more: Record<string, string | number> = {}) {
  return ok(await demo(school, { form, category, json: 1, ...more })) as StatisticsModel;
}

async function cards(school: string, form: string): Promise<ReportModel> {
  return ok(await admin.in(school).get(`${terminalReportEndpoint.path}?${search({ form, term, year, json: 1 })}`));
}

const table = (model: StatisticsModel, key: string) => {
  const found = model.tables.find((each) => each.key === key);
  expect(found, key).toBeDefined();
  return found?.table as StatisticsModel['tables'][number]['table'];
};
const value = (row: { cells: Record<string, { value: number | string | null }> } | undefined, key: string) => row?.cells[key]?.value;

beforeAll(async () => {
  t = await buildTestApp({}, { demo: true });
  admin = caller(t.app, await login(t.app, DEMO_ADMIN_EMAIL, t.config.demoPassword));
  // A small P5 school of its own: three learners, two subjects, EOT marks in terms I and II.
  const school = await makeTenant(t.database, { name: 'Kasangati Primary' });
  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  const english = await newSubject(head, { name: 'English', abbreviation: 'ENG', category: 'english', position: 1 });
  const maths = await newSubject(head, { name: 'Mathematics', abbreviation: 'MTC', category: 'mathematics', position: 2 });
  const eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  otherType = ok(await other.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  for (const each of ['I', 'II'])
    for (const subject of [english, maths])
      ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P5', term: each, year: YEAR })));
  const rows = ['Amina', 'Brian', 'Carol'].map((firstname, index) => ({
    tenant_id: school.id,
    id: newId(),
    studentid: `P5/00${index + 1}`,
    firstname,
    lastname: 'Ssali',
    form: 'P5',
    stream: 'East',
    gender: (index === 1 ? 'M' : 'F') as 'M' | 'F',
  }));
  await withTenant(t.database.db, { tenantId: school.id }, (trx) => trx.insertInto('students').values(rows).execute());
  // A P3 learner with no marks at all.
  await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx
      .insertInto('students')
      .values({ tenant_id: school.id, id: newId(), studentid: 'P3/001', firstname: 'Dora', lastname: 'Ssali', form: 'P3', stream: 'East' })
      .execute(),
  );
  learners = Object.fromEntries(rows.map((row) => [row.firstname, row.id]));
  const enter = async (when: 'I' | 'II', subject: Row, marks: Record<string, number>) =>
    ok(
      await head.post('/api/school/marks', {
        form: 'P5',
        stream: 'East',
        term: when,
        year: YEAR,
        subject_id: subject.id,
        paper: 'I',
        save_id: crypto.randomUUID(),
        marks: { [eot.id]: Object.fromEntries(Object.entries(marks).map(([name, mark]) => [learners[name] as string, mark])) },
        base: {},
      }),
    );
  // Term I: averages Amina 60, Brian 80, Carol 50; term II: Amina 80 (improved), Brian 70 (dropped), Carol 50 (same).
  await enter('I', english, { Amina: 60, Brian: 80, Carol: 40 });
  await enter('I', maths, { Amina: 60, Brian: 80, Carol: 60 });
  await enter('II', english, { Amina: 80, Brian: 70, Carol: 50 });
  await enter('II', maths, { Amina: 80, Brian: 70, Carol: 50 });
}, 240_000);
afterAll(() => t?.close());

const own = (query: Record<string, string | number>, by: Caller = head) =>
  by.get(`${statisticsEndpoint.path}?${search({ form: 'P5', term: 'II', year: YEAR, ...query })}`);

describe('GET /api/school/otherstatistics on the demo', () => {
  it("division: P7's learners per division are its cards' divisions", async () => {
    const [model, report] = await Promise.all([demoModel('demo-primary', 'P7', 'division'), cards('demo-primary', 'P7')]);
    expect(model.report).toMatchObject({ form: 'P7', level: 'primary', category: 'division', precision: 2, previous: null });
    const total = table(model, 'division').rows.find((row) => row.key === 'class');
    expect(value(total, 'N')).toBe(report.learners.length);
    for (const division of ['I', 'II', 'III', 'IV', 'U'])
      expect(value(total, division), division).toBe(report.learners.filter((card) => card.division === division).length);
    expect(value(total, 'X')).toBe(report.learners.filter((card) => card.division === null || card.division === 'X').length);
    expect(value(total, 'pctI')).toBeCloseTo(
      (report.learners.filter((card) => card.division === 'I').length / report.learners.length) * 100,
      9,
    );
  });

  it("mgp and aggpoint: each subject's mean grade point and each aggregate's count are the cards'", async () => {
    const [mgp, aggpoint, report] = await Promise.all([
      demoModel('demo-primary', 'P7', 'mgp'),
      demoModel('demo-primary', 'P7', 'aggpoint'),
      cards('demo-primary', 'P7'),
    ]);
    const rows = table(mgp, 'mgp').rows;
    expect(new Set(rows.map((row) => row.key))).toEqual(
      new Set(report.learners.flatMap((card) => card.subjects.map((subject) => subject.subject_id))),
    );
    for (const row of rows) {
      const values = report.learners.flatMap((card) =>
        card.subjects
          .filter((subject) => subject.subject_id === row.key && subject.grade)
          .map((subject) => Number(subject.grade?.slice(1))),
      );
      expect(value(row, 'N'), row.label).toBe(values.length);
      expect(value(row, 'mgp') as number, row.label).toBeCloseTo(values.reduce((sum, each) => sum + each, 0) / values.length, 9);
      expect(row.cells.mgp?.explain?.code).toBe('mean.value');
    }
    const total = table(aggpoint, 'aggpoint').rows.find((row) => row.key === 'total');
    for (const aggregate of [4, 12, 20, 28, 36])
      expect(value(total, String(aggregate)), String(aggregate)).toBe(
        report.learners.filter((card) => card.aggregate === aggregate).length,
      );
    const cumulative = table(aggpoint, 'aggpoint').rows.find((row) => row.key === 'cumulative');
    expect(value(cumulative, '36')).toBe(report.learners.filter((card) => card.aggregate !== null).length);
  });

  it('weightedagg weighs by the weight set asked for; a set that does not exist is refused on weight', async () => {
    const [grade, dcpf] = await Promise.all([
      demoModel('demo-primary', 'P7', 'weightedagg'),
      demoModel('demo-primary', 'P7', 'weightedagg', { weight: 'dcpf' }),
    ]);
    expect(dcpf.report.weight).toBe('dcpf');
    const first = (model: StatisticsModel) => table(model, 'weightedagg').rows[0];
    const counts = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((g) => value(first(grade), `g${g}`) as number);
    const n = value(first(grade), 'N') as number;
    const byGrade = counts.reduce((sum, count, index) => sum + count * (8 - index), 0) / (n * 8);
    const byDcpf = counts.reduce((sum, count, index) => sum + count * ([3, 3, 2, 2, 2, 2, 1, 1, 0][index] ?? 0), 0) / (n * 3);
    expect(value(first(grade), 'index') as number).toBeCloseTo(byGrade * 100, 9);
    expect(value(first(dcpf), 'index') as number).toBeCloseTo(byDcpf * 100, 9);
    const refused = await demo('demo-primary', { form: 'P7', category: 'weightedagg', weight: 'heavy', json: 1 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ weight: [REPORT_MESSAGES.statisticsWeight] });
  });

  it("S6: the A-level tables from its cards' letters and points; divisions refused for an A-level class", async () => {
    const [alevel, asummary, report] = await Promise.all([
      demoModel('demo-secondary', 'S6', 'alevel'),
      demoModel('demo-secondary', 'S6', 'asummary'),
      cards('demo-secondary', 'S6'),
    ]);
    expect(alevel.report.level).toBe('alevel');
    for (const row of table(alevel, 'alevel').rows) {
      const letters = report.learners.flatMap((card) =>
        card.subjects.filter((subject) => subject.subject_id === row.key && subject.grade?.length === 1).map((subject) => subject.grade),
      );
      expect(value(row, 'A'), row.label).toBe(letters.filter((letter) => letter === 'A').length);
    }
    const total = table(asummary, 'asummary').rows.find((row) => row.key === 'class');
    expect(value(total, 'N')).toBe(report.learners.length);
    const refused = await demo('demo-secondary', { form: 'S6', category: 'division', json: 1 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ category: [REPORT_MESSAGES.statisticsNoDivisions] });
    const notAlevel = await demo('demo-primary', { form: 'P7', category: 'alevel', json: 1 });
    expect(notAlevel.statusCode).toBe(422);
    expect(notAlevel.json().errors).toEqual({ category: [REPORT_MESSAGES.statisticsAlevelOnly] });
  });

  it('previews the tables with the decimals asked for, each explained number openable', async () => {
    const answer = ok(await demo('demo-primary', { form: 'P7', category: 'mgp', html: 1, precision: 3 }));
    const model = await demoModel('demo-primary', 'P7', 'mgp');
    expect(answer.html).toContain('MARK STATISTICS');
    expect(answer.html).toContain('Mean grade point per subject');
    const mean = value(table(model, 'mgp').rows[0], 'mgp') as number;
    expect(answer.html).toContain(`<summary>${mean.toFixed(3)}</summary>`);
    expect(answer.html).toContain('data-explain="mgp.');
    // The chart beside the table, drawn from it: the weakest subject (highest mean grade point) first.
    expect(answer.html).toContain('<figure class="chart" data-chart="Mean grade point per subject (lower is better)"');
    expect(answer.html).toContain('<svg');
  });

  it('answers the tables as a workbook: numbers as numbers, named otherstats-<class>-<stream>-<year>-<term>.xlsx', async () => {
    const response = await demo('demo-primary', { form: 'P7', category: 'division', excel: 1 });
    expect(response.headers['content-disposition']).toContain(`otherstats-P7-all-${year}-${term}.xlsx`);
    const sheet = await workbookOf(response);
    const model = await demoModel('demo-primary', 'P7', 'division');
    const lines: unknown[][] = [];
    sheet.eachRow((row) => lines.push((row.values as unknown[]).slice(1)));
    expect(lines[0]?.[0]).toBe(model.report.school);
    expect(lines.some((line) => line[0] === 'MARK STATISTICS')).toBe(true);
    const title = lines.findIndex((line) => line[0] === 'Learners per division');
    expect(title).toBeGreaterThan(0);
    const division = table(model, 'division');
    const head = lines[title + 1] as unknown[];
    expect(head.slice(1)).toEqual(division.columns.map((column) => column.label));
    const totalLine = lines.find((line) => line[0] === 'Total');
    const total = division.rows.find((row) => row.key === 'class');
    expect(totalLine?.[1 + division.columns.findIndex((column) => column.key === 'I')]).toBe(value(total, 'I'));
    expect(typeof totalLine?.[1 + division.columns.findIndex((column) => column.key === 'pctI')]).toBe('number');
  });

  it('prints the PDF through the document pool, named by class, stream, year and term', async () => {
    const pdf = await demo('demo-primary', { form: 'P7', category: 'weightedagg', precision: 1 });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`otherstats-P7-all-${year}-${term}.pdf`);
    const text = await pdfText(pdf.rawPayload);
    const model = await demoModel('demo-primary', 'P7', 'weightedagg');
    expect(text).toContain('MARK STATISTICS');
    expect(text).toContain('Performance index per subject');
    const first = table(model, 'weightedagg').rows[0];
    expect(text).toContain(first?.label as string);
    expect(text).toContain((value(first, 'index') as number).toFixed(1));
  });

  it('prints the PLE sheet of P7 in four blocks', async () => {
    const model = await demoModel('demo-primary', 'P7', 'ple');
    expect(model.tables.map((each) => each.key)).toEqual(['pleSubjects', 'pleAggregates', 'pleDivisions', 'pleMarks']);
    const pdf = await demo('demo-primary', { form: 'P7', category: 'ple' });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    for (const title of ['Subjects', 'Learners per aggregate', 'Learners per division', 'Mark list']) expect(text).toContain(title);
    // The charts after the tables: the aggregate histogram and the division bars, with their tables.
    expect(text).toContain('Aggregates');
    expect(text).toContain('Divisions per class');
  });
});

describe('progress and bad input on a school of its own', () => {
  it('progress compares each learner with the term before: improved, dropped, same', async () => {
    const model = ok(await own({ category: 'progress', json: 1 })) as StatisticsModel;
    expect(model.report.previous).toEqual({ form: 'P5', term: 'I', year: YEAR });
    const average = table(model, 'progressAverage');
    const row = (name: string) => average.rows.find((each) => each.key === learners[name]);
    expect(row('Amina')?.cells).toMatchObject({
      previous: { value: 60 },
      current: { value: 80 },
      change: { value: 20 },
      trend: { value: 'Improved' },
    });
    expect(value(row('Brian'), 'trend')).toBe('Dropped');
    expect(value(row('Carol'), 'trend')).toBe('Same');
    const counts = average.rows.find((each) => each.key === 'counts');
    expect(counts?.cells).toMatchObject({ Improved: { value: 1 }, Same: { value: 1 }, Dropped: { value: 1 } });
    expect(model.tables[0]?.note).toBe(`Compared with P5 TERM I ${YEAR}.`);
    // English's mean: 60 then, 66.67 now.
    const english = table(model, 'progressSubjects').rows[0];
    expect(value(english, 'previous')).toBe(60);
    expect(value(english, 'current') as number).toBeCloseTo(200 / 3, 9);
  });

  it('progress in the first term with marks says the term before has none', async () => {
    const model = ok(await own({ category: 'progress', term: 'I', json: 1 })) as StatisticsModel;
    expect(model.report.previous).toEqual({ form: 'P4', term: 'III', year: YEAR - 1 });
    expect(model.tables[0]?.note).toBe(`P4 TERM III ${YEAR - 1} has no marks for this class: there is nothing to compare with.`);
    expect(
      value(
        table(model, 'progressAverage').rows.find((each) => each.key === learners.Amina),
        'current',
      ),
    ).toBe(60);
  });

  it('a class without marks: an empty table that says why', async () => {
    const model = ok(await own({ form: 'P3', category: 'division', json: 1 })) as StatisticsModel;
    expect(model.tables).toHaveLength(1);
    expect(model.tables[0]?.table).toMatchObject({ rows: [], empty: REPORT_MESSAGES.noMarks });
    const html = ok(await own({ form: 'P3', category: 'division', html: 1 }));
    expect(html.html).toContain(REPORT_MESSAGES.noMarks);
  });

  it('refuses an unknown category, precision outside 0..4 and a missing category, each by its field', async () => {
    const unknown = await own({ category: 'bestteacher', json: 1 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ category: [REPORT_MESSAGES.statisticsCategory] });
    const missing = await own({ json: 1 });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ category: [REPORT_MESSAGES.statisticsCategory] });
    const precision = await own({ category: 'mgp', precision: 5, json: 1 });
    expect(precision.statusCode).toBe(422);
    expect(precision.json().errors).toEqual({ precision: [REPORT_MESSAGES.analysisPrecision] });
  });

  it("refuses another school's class, mark type and school", async () => {
    // The other school has no P5: its learners are not this school's.
    const theirs = await own({ category: 'division', json: 1 }, other);
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json().errors).toEqual({ form: [REPORT_MESSAGES.noLearners] });
    const type = await own({ category: 'division', marktype_ids: otherType.id, json: 1 });
    expect(type.statusCode).toBe(422);
    expect(type.json().errors).toEqual({ marktype_id: [REPORT_MESSAGES.markTypeUnknown] });
    const school = await other
      .in('demo-primary')
      .get(`${statisticsEndpoint.path}?${search({ form: 'P7', term, year, category: 'division', json: 1 })}`);
    expect([403, 404]).toContain(school.statusCode);
  });
});

describe('GET /api/school/otherstatistics of all classes (a whole school’s term)', () => {
  const all = { form: '' };

  it('builds every class with marks exactly as it is alone, in one answer', async () => {
    const school = ok(await demo('demo-primary', { ...all, category: 'division', json: 1 }));
    const classes = school.classes as StatisticsModel[];
    expect(classes.map((each) => each.report.form)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7']);
    expect(school.leftOut).toEqual([]);
    const p7 = await demoModel('demo-primary', 'P7', 'division');
    expect(classes[6]?.tables).toEqual(p7.tables);
    expect(school.report).toMatchObject({ category: 'division', term, year });
  });

  it('names each class the category does not fit, with why, rather than refusing the school', async () => {
    const school = ok(await demo('demo-secondary', { ...all, category: 'division', json: 1 }));
    const leftOut = school.leftOut as Array<{ form: string; reason: string }>;
    // S1-S4 follow the new curriculum; S5 and S6 are graded by points, not divisions.
    expect(leftOut.map((each) => each.form).sort()).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
    expect(leftOut.find((each) => each.form === 'S1')?.reason).toBe(REPORT_MESSAGES.otherCurriculumLeftOut);
    expect(leftOut.find((each) => each.form === 'S6')?.reason).toBe(REPORT_MESSAGES.statisticsNoDivisions);
    const alevel = ok(await demo('demo-secondary', { ...all, category: 'asummary', json: 1 }));
    expect((alevel.classes as StatisticsModel[]).map((each) => each.report.form)).toEqual(['S5', 'S6']);
  });

  it('previews, downloads and prints the school, the PDF followed a class at a time', async () => {
    const html = ok(await demo('demo-primary', { ...all, category: 'mgp', html: 1 })).html as string;
    expect(html).toContain('MARK STATISTICS · All classes');
    expect(html.match(/<article>/g)?.length).toBe(7);
    const excel = await demo('demo-primary', { ...all, category: 'mgp', excel: 1 });
    expect(excel.headers['content-disposition']).toContain(`otherstats-all-${year}-${term}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7']);
    const token = 'school-statistics-1';
    const pdf = await demo('demo-primary', { ...all, category: 'mgp', progress: token });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(`otherstats-all-${year}-${term}.pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('MARK STATISTICS · All classes');
    expect(text).toMatch(/P3 · All streams/);
    expect(ok(await admin.in('demo-primary').get(`/api/school/terminalreport/progress?token=${token}`))).toEqual({ done: 7, total: 7 });
  });

  it('refuses a stream without its class, and names another school nothing of this one', async () => {
    const stream = await demo('demo-primary', { ...all, category: 'division', json: 1, stream: 'East' });
    expect(stream.statusCode, stream.body).toBe(422);
    expect(stream.json().errors.stream).toEqual([REPORT_MESSAGES.streamNeedsClass]);
    const elsewhere = await other.get(
      `${statisticsEndpoint.path}?${search({ ...all, term: 'II', year: YEAR, category: 'division', json: 1 })}`,
    );
    expect(elsewhere.statusCode, elsewhere.body).toBe(422);
    expect(elsewhere.body).not.toContain('P5');
  });
});
