import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  type AnalysisModel,
  analysisEndpoint,
  markTypes,
  type NcReportModel,
  ncTerminalReportEndpoint,
  REPORT_MESSAGES,
  SETTINGS_MESSAGES,
} from '@mustard/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newSubject, ok, type Row, SPREADSHEET } from '../settings/settings-fixtures.js';

/*
 * The result analysis of a class on the new curriculum (issue 28 point 1: "or, for
 * new-curriculum classes, identifiers and grades A..E"), through the API on both databases: a
 * secondary school's S2 (new curriculum by default) answered at the same endpoint as the
 * divisions' analysis, its counts agreeing with the new-curriculum cards of the same class, the
 * preview, the PDF (pdftotext) and the workbook (exceljs); one summative mark type asked for.
 *
 * The class, term I (scores out of 3, EOT out of 100; formative = score / 3 x 20, summative = EOT x 0.8):
 *   Grace (F, East) English: Reading 3 and 2 (2.5), Writing 2 -> 2.25 Moderate, /20 15, EOT 75 -> 60: 75 B
 *                   Maths:   Numbers 3 -> Outstanding, /20 20, EOT 80 -> 64: 84 A
 *   Peter (M, East) English: Reading 1, Writing ABS -> 1 Basic, /20 6.67, EOT 45 -> 36: 42.67 E
 *                   Maths:   Numbers 2 -> Moderate, EOT ABS: absent, no grade
 *   Sarah (F, West) English: Reading 3, Writing 3 -> 3 Outstanding, /20 20, EOT 50 -> 40: exactly 60, C
 *                   Maths:   Numbers 2.5 -> Outstanding, no EOT: missing, no grade
 *   Art has a competency and nothing entered: a subject nobody sat.
 */

let t: TestApp;
let head: Caller;
let english: Row;
let maths: Row;
let art: Row;
let eot: Row;
let aoi1: Row;
const YEAR = 2026;
const run = promisify(execFile);

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Kololo Secondary', schooltype: 'secondary' });
  const headUser = await makeUser(t.database, {
    name: 'Grace Nakato Achieng',
    memberOf: [{ tenantId: school.id, roles: ['headteacher'] }],
  });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  english = await newSubject(head, { name: 'English', abbreviation: 'ENG', category: 'english', position: 1 });
  maths = await newSubject(head, { name: 'Mathematics', abbreviation: 'MTC', category: 'mathematics', position: 2 });
  art = await newSubject(head, { name: 'Art and Design', abbreviation: 'ART', category: 'general', position: 3 });
  aoi1 = ok(await head.post(markTypes.path, { label: 'AOI 1', category: 'assesment', position: 1 }));
  const aoi2 = ok(await head.post(markTypes.path, { label: 'AOI 2', category: 'assesment', position: 2 }));
  eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 3, outof: 100 }));
  const learner = async (firstname: string, gender: 'F' | 'M', stream: string) =>
    ok(await head.post('/api/school/students', { firstname, lastname: 'Akello', form: 'S2', stream, gender })).id as string;
  const grace = await learner('Grace', 'F', 'East');
  const peter = await learner('Peter', 'M', 'East');
  const sarah = await learner('Sarah', 'F', 'West');

  const topic = (subject: Row, title: string) => ({
    tenant_id: school.id,
    id: newId(),
    subject_id: subject.id,
    form: 'S2',
    term: 'I',
    title,
  });
  const reading = topic(english, 'Reading');
  const writing = topic(english, 'Writing');
  const numbers = topic(maths, 'Numbers');
  const drawing = topic(art, 'Drawing');
  await withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
    for (const row of [reading, writing, numbers, drawing]) await trx.insertInto('topics').values(row).execute();
    // The English teacher of the whole class: the cards and the analysis print her initials.
    await trx
      .insertInto('subject_teachers')
      .values({
        tenant_id: school.id,
        id: newId(),
        user_id: headUser.id,
        subject_id: english.id,
        form: 'S2',
        stream: null,
        term: 'I',
        year: YEAR,
      })
      .execute();
  });
  const at = { form: 'S2', term: 'I', year: YEAR };
  const aoi = (subject: Row, topicId: string, type: Row, mark: number | 'ABS') => ({
    ...at,
    subjectId: subject.id,
    marktypeId: type.id,
    topicId,
    mark,
  });
  const exam = (subject: Row, mark: number | 'ABS') => ({ ...at, subjectId: subject.id, marktypeId: eot.id, mark });
  await makeMarks(t.database, school.id, grace, [
    aoi(english, reading.id, aoi1, 3),
    aoi(english, reading.id, aoi2, 2),
    aoi(english, writing.id, aoi1, 2),
    aoi(maths, numbers.id, aoi1, 3),
    exam(english, 75),
    exam(maths, 80),
  ]);
  await makeMarks(t.database, school.id, peter, [
    aoi(english, reading.id, aoi1, 1),
    aoi(english, writing.id, aoi1, 'ABS'),
    aoi(maths, numbers.id, aoi1, 2),
    exam(english, 45),
    exam(maths, 'ABS'),
  ]);
  await makeMarks(t.database, school.id, sarah, [
    aoi(english, reading.id, aoi1, 3),
    aoi(english, writing.id, aoi1, 3),
    aoi(maths, numbers.id, aoi1, 2.5),
    exam(english, 50),
  ]);
});
afterAll(() => t?.close());

const get = (pathname: string, query: Record<string, string | number> = {}) =>
  head.get(
    `${pathname}?${new URLSearchParams(
      Object.entries({ form: 'S2', term: 'I', year: YEAR, marktype_id: eot.id, ...query }).map(([key, value]): [string, string] => [
        key,
        String(value),
      ]),
    )}`,
  );

async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'nc-analysis-'));
  try {
    const file = path.join(folder, 'analysis.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('GET /api/school/analysis of a class on the new curriculum', () => {
  it('answers grades A..E and identifiers per subject, agreeing with the new-curriculum cards of the same class', async () => {
    const model = ok(await get(analysisEndpoint.path, { json: 1 })) as AnalysisModel;
    const cards = ok(await get(ncTerminalReportEndpoint.path, { json: 1 })) as NcReportModel;
    const nc = model.newCurriculum;
    if (!nc) throw new Error('no new-curriculum analysis');
    // No divisions, no old-curriculum rows.
    expect(model).toMatchObject({ divisions: null, subjects: [], grades: [], learners: 3 });
    expect(model.report).toMatchObject({ form: 'S2', stream: null, markTypes: ['EOT'] });
    expect(nc.grades.map((each) => each.grade)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(nc.subjects.map((each) => each.subject)).toEqual(['English', 'Mathematics', 'Art and Design']);
    const [eng, mth, drawing] = nc.subjects;
    expect(eng).toMatchObject({ assessed: 3, absent: 0, missing: 0, scored: 3, position: 2, teacher: 'G.N.A.' });
    expect(eng?.grades).toEqual({ A: 0, B: 1, C: 1, D: 0, E: 1 });
    expect(eng?.identifiers).toEqual({ Outstanding: 1, Moderate: 1, Basic: 1 });
    expect(eng?.meanScore).toBeCloseTo(6.25 / 3, 10);
    expect(eng?.meanTotal).toBeCloseTo(533 / 9, 10);
    expect(eng?.satisfactory).toBeCloseTo(200 / 3, 10);
    expect(eng?.boys).toMatchObject({ assessed: 1 });
    expect(eng?.boys.meanTotal).toBeCloseTo(128 / 3, 10);
    expect(eng?.girls).toMatchObject({ assessed: 2, meanTotal: 67.5 });
    // An ABS exam is absent, a missing one missing: neither an E nor a 0.
    expect(mth).toMatchObject({ assessed: 1, absent: 1, missing: 1, scored: 3, meanTotal: 84, position: 1, pass: 100 });
    expect(mth?.identifiers).toEqual({ Outstanding: 2, Moderate: 1, Basic: 0 });
    expect(drawing).toMatchObject({ assessed: 0, absent: 0, missing: 0, scored: 0, meanTotal: null, position: null });
    // Overall: Grace (75 + 84) / 2 = 79.5 B, Peter 42.67 E, Sarah 60 C.
    expect(nc.overall.grades.map((each) => [each.grade, each.count])).toEqual([
      ['A', 0],
      ['B', 1],
      ['C', 1],
      ['D', 0],
      ['E', 1],
    ]);

    // Every count as the cards of the same class and mark type have it.
    for (const row of nc.subjects) {
      const onCards = cards.learners.flatMap((card) => card.subjects.filter((subject) => subject.subject_id === row.subject_id));
      const graded = onCards.filter((subject) => subject.grade !== null);
      expect(graded.length, row.subject).toBe(row.assessed);
      expect(onCards.length - graded.length, row.subject).toBe(row.absent + row.missing);
      for (const [grade, count] of Object.entries(row.grades))
        expect(count, grade).toBe(graded.filter((each) => each.grade === grade).length);
      for (const [label, count] of Object.entries(row.identifiers))
        expect(count, label).toBe(onCards.filter((each) => each.identifier === label).length);
      // The cards print totals cut to one decimal: the mean of the exact totals is within 0.1 of theirs.
      if (graded.length > 0) {
        const printed = graded.reduce((sum, each) => sum + (each.total ?? 0), 0) / graded.length;
        expect(Math.abs((row.meanTotal ?? 0) - printed)).toBeLessThan(0.1);
      }
    }
    for (const each of nc.overall.grades)
      expect(each.count, each.grade).toBe(cards.learners.filter((card) => card.overall.grade === each.grade).length);
  });

  it('analyses one stream', async () => {
    const model = ok(await get(analysisEndpoint.path, { json: 1, stream: 'East' })) as AnalysisModel;
    expect(model.learners).toBe(2);
    expect(model.newCurriculum?.subjects[0]).toMatchObject({ assessed: 2, girls: { assessed: 1, meanTotal: 75 } });
  });

  it('previews the tables with the decimals asked for, and no divisions', async () => {
    const { html } = ok(await get(analysisEndpoint.path, { html: 1, precision: 3 })) as { html: string };
    expect(html).toContain('RESULT ANALYSIS');
    expect(html).toContain('3 Outstanding');
    expect(html).toContain('% C+');
    expect(html).toContain('59.222');
    expect(html).toContain('Overall achievement');
    expect(html).not.toContain('Division');
  });

  it('prints the PDF named by class, stream, year and term', async () => {
    const pdf = await get(analysisEndpoint.path, { precision: 1 });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`analysis-S2-all-${YEAR}-I.pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('RESULT ANALYSIS');
    expect(text).toContain('Kololo Secondary');
    expect(text).toContain('Art and Design');
    expect(text).toContain('59.2');
    expect(text).toContain('Overall achievement');
    expect(text).not.toContain('Division');
  });

  it('answers the tables as a workbook: numbers as numbers, the precision as their format', async () => {
    const answer = await get(analysisEndpoint.path, { excel: 1, precision: 2 });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    expect(answer.headers['content-type']).toBe(SPREADSHEET);
    expect(answer.headers['content-disposition']).toContain(`analysis-S2-all-${YEAR}-I.xlsx`);
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
    expect(lines[0]).toEqual(['Kololo Secondary']);
    const columns = lines.find((line) => line[0] === 'Subject') as string[];
    const row = lines.find((line) => line[0] === 'English') as unknown[];
    expect(row[columns.indexOf('Graded')]).toBe(3);
    expect(row[columns.indexOf('B')]).toBe(1);
    expect(row[columns.indexOf('1 Basic')]).toBe(1);
    expect(row[columns.indexOf('Mean /100')]).toBeCloseTo(533 / 9, 9);
    const cell = sheet.getRow(numbers[lines.indexOf(row)] ?? 0).getCell(columns.indexOf('Mean /100') + 1);
    expect(cell.numFmt).toBe('0.00');
    expect(lines.some((line) => line[0] === 'Boys and girls')).toBe(true);
    expect(lines.some((line) => String(line[0]).startsWith('Overall achievement'))).toBe(true);
  });

  it('asks for one mark type, the summative exam', async () => {
    const none = await get(analysisEndpoint.path, { json: 1, marktype_id: '' });
    expect(none.statusCode, none.body).toBe(422);
    expect(none.json().errors.marktype_ids).toEqual([SETTINGS_MESSAGES.markTypeRequired]);
    const both = await head.get(
      `${analysisEndpoint.path}?form=S2&term=I&year=${YEAR}&json=1&marktype_ids[]=${eot.id}&marktype_ids[]=${aoi1.id}`,
    );
    expect(both.statusCode, both.body).toBe(422);
    expect(both.json().errors.marktype_ids).toEqual([REPORT_MESSAGES.oneSummative]);
  });
});
