import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { avgMarksheetEndpoint, markTypes, REPORT_MESSAGES, terminalReportEndpoint } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newSubject, ok, type Row, workbookOf } from '../settings/settings-fixtures.js';

/*
 * The average mark sheet through the API (issue 28 point 5), on both databases: a small P4 class
 * of its own with EOT marks in terms I and II (Carol absent from English in term II), its means
 * over the terms taken worked out here, graded as the cards grade; the workbook and the PDF read back; a
 * class on the new curriculum refused; another school's class refused. An S5 class of its own
 * written in papers: each paper's mean over the terms taken (a paper ABS in a term left out),
 * graded with the letters, points and positions of the A-level cards.
 */

let t: TestApp;
let head: Caller;
let other: Caller;
let subjects: Row[];
let eot: Row;
let learners: Record<string, string>;
let schoolId: string;
const YEAR = new Date().getFullYear();
const PEOPLE = ['Amina', 'Brian', 'Carol'] as const;

/** Saves one subject's EOT marks of the class in a term through the marks API. */
async function enter(term: 'I' | 'II', subject: Row, marks: Record<string, number | 'ABS'>) {
  const values = Object.fromEntries(Object.entries(marks).map(([name, value]) => [learners[name] as string, value]));
  ok(
    await head.post('/api/school/marks', {
      form: 'P4',
      stream: 'East',
      term,
      year: YEAR,
      subject_id: subject.id,
      paper: 'I',
      save_id: crypto.randomUUID(),
      marks: { [eot.id]: values },
      base: {},
    }),
  );
}

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Kireka Primary' });
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
  for (const term of ['I', 'II'])
    for (const subject of subjects) ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P4', term, year: YEAR })));
  schoolId = school.id;
  const rows = PEOPLE.map((firstname, index) => ({
    tenant_id: school.id,
    id: newId(),
    studentid: `P4/00${index + 1}`,
    firstname,
    lastname: 'Okello',
    form: 'P4',
    stream: 'East',
    gender: (index === 1 ? 'M' : 'F') as 'M' | 'F',
  }));
  await withTenant(t.database.db, { tenantId: school.id }, (trx) => trx.insertInto('students').values(rows).execute());
  learners = Object.fromEntries(rows.map((row) => [row.firstname, row.id]));
  const [english, maths, science, sst] = subjects as [Row, Row, Row, Row];
  // Term I: Amina 80 84 90 85; Brian 90 85 85 80; Carol 60 50 40 70.
  await enter('I', english, { Amina: 80, Brian: 90, Carol: 60 });
  await enter('I', maths, { Amina: 84, Brian: 85, Carol: 50 });
  await enter('I', science, { Amina: 90, Brian: 85, Carol: 40 });
  await enter('I', sst, { Amina: 85, Brian: 80, Carol: 70 });
  // Term II: Carol is absent from English (not a 0: her English mean is term I's 60).
  await enter('II', english, { Amina: 90, Brian: 80, Carol: 'ABS' });
  await enter('II', maths, { Amina: 86, Brian: 85, Carol: 60 });
  await enter('II', science, { Amina: 80, Brian: 85, Carol: 50 });
  await enter('II', sst, { Amina: 85, Brian: 90, Carol: 70 });
});
afterAll(() => t?.close());

const run = promisify(execFile);

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'avgmarksheet-'));
  try {
    const file = path.join(folder, 'avgmarksheet.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const get = (by: Caller, query: Record<string, string | number> = {}, path = avgMarksheetEndpoint.path) => {
  const search = new URLSearchParams(
    Object.entries({ form: 'P4', year: YEAR, ...query }).map(([key, value]): [string, string] => [key, String(value)]),
  );
  return by.get(`${path}?${search}`);
};

interface Learner {
  id: string;
  name: string;
  subjects: Record<string, { mean: number; terms: number; grade: string | null }>;
  total: number | null;
  average: number | null;
  aggregate: number | null;
  division: string | null;
  position: number | null;
}

describe('GET /api/school/marks/avgmarksheet', () => {
  it('answers each learner’s means over the terms taken, graded as the cards grade, with positions', async () => {
    const model = ok(await get(head, { json: 1 }));
    const [english, maths, science, sst] = subjects as [Row, Row, Row, Row];
    expect(model.report).toMatchObject({ form: 'P4', year: YEAR, level: 'primary', terms: ['I', 'II'], gradeSetTerm: 'II' });
    const rows = model.learners as Learner[];
    const of = (name: string) => rows.find((row) => row.id === learners[name]) as Learner;
    const means = (name: string) => [english, maths, science, sst].map((subject) => of(name).subjects[subject.id]?.mean);
    // Amina: (80+90)/2, (84+86)/2, (90+80)/2, (85+85)/2; Brian: (90+80)/2, 85, 85, (80+90)/2.
    expect(means('Amina')).toEqual([85, 85, 85, 85]);
    expect(means('Brian')).toEqual([85, 85, 85, 85]);
    // Carol: English over term I only (ABS in term II is not a 0), (50+60)/2, (40+50)/2, 70.
    expect(means('Carol')).toEqual([60, 55, 45, 70]);
    expect(of('Carol').subjects[english.id]?.terms).toBe(1);
    expect(of('Amina')).toMatchObject({ total: 340, average: 85, aggregate: 4 });
    expect(of('Carol').total).toBe(230);
    // Amina and Brian tie: they share first place; Carol is third.
    expect(rows.map((row) => [row.name.split(' ')[0], row.position])).toEqual([
      ['Amina', 1],
      ['Brian', 1],
      ['Carol', 3],
    ]);
    // The same grader as the cards: term I's card of Amina (all D1, aggregate 4) has her division and grade.
    const card = ok(await get(head, { json: 1, term: 'I' }, terminalReportEndpoint.path));
    type Card = { id: string; division: string | null; subjects: Array<{ grade: string | null }> };
    const amina = (card.learners as Card[]).find((each) => each.id === learners.Amina) as Card;
    expect(of('Amina').division).toBe(amina.division);
    expect(of('Amina').subjects[english.id]?.grade).toBe(amina.subjects[0]?.grade);
  });

  it('previews the sheet and writes the workbook, named by class and year', async () => {
    const preview = ok(await get(head, { html: 1 }));
    expect(preview.html).toContain('AVERAGE MARK SHEET');
    expect(preview.html).toContain('Carol');
    const response = await get(head, { excel: 1 });
    expect(response.headers['content-disposition']).toContain(`avgmarksheet-P4-all-${YEAR}.xlsx`);
    const sheet = await workbookOf(response);
    expect(sheet.getRow(1).getCell(1).value).toBe('Kireka Primary');
    const header = sheet.getRow(9).values as unknown[];
    expect(header).toContain('ENG');
    const carol = sheet.getRow(12).values as unknown[];
    expect(carol).toContain(60);
    expect(carol).toContain(230);
    expect(sheet.getRow(10).getCell(5).value).toBe(85);
  });

  it('prints the PDF through the document pool, named by class, stream and year', async () => {
    const pdf = await get(head, { stream: 'East' });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`avgmarksheet-P4-East-${YEAR}.pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('AVERAGE MARK SHEET');
    expect(text).toContain('Kireka Primary');
    expect(text).toContain('Carol');
  });

  it('refuses (422 on form) a class on the new curriculum that year', async () => {
    const tenantId = schoolId;
    const set = (curriculum: 'new' | 'old') =>
      withTenant(t.database.db, { tenantId }, async (trx) => {
        if (curriculum === 'old') await trx.deleteFrom('class_curricula').where('year', '=', YEAR).where('form', '=', 'P4').execute();
        else await trx.insertInto('class_curricula').values({ tenant_id: tenantId, year: YEAR, form: 'P4', curriculum }).execute();
      });
    await set('new');
    try {
      const answer = await get(head, { json: 1 });
      expect(answer.statusCode, answer.body).toBe(422);
      expect(answer.json().errors?.form ?? answer.body).toContain(REPORT_MESSAGES.newCurriculumClass);
    } finally {
      await set('old');
    }
    ok(await get(head, { json: 1 }));
  });

  it('refuses another school’s class and bad input (4xx, never 500)', async () => {
    const elsewhere = await get(other, { json: 1 });
    expect(elsewhere.statusCode, elsewhere.body).toBe(422);
    expect(elsewhere.body).not.toContain('Amina');
    for (const year of ['soon', '']) {
      const answer = await get(head, { json: 1, year });
      expect(answer.statusCode, answer.body).toBe(422);
    }
  });
});

describe('the average mark sheet of an A-level class', () => {
  let s5: Caller;
  let physics: Row;
  let gp: Row;
  const ids: Record<string, string> = {};
  const NAMES = ['Amina', 'Brian', 'Twin'] as const;

  beforeAll(async () => {
    const school = await makeTenant(t.database, { name: 'Kireka High', schooltype: 'secondary' });
    const user = await makeUser(t.database, { name: 'Head S5', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    s5 = caller(t.app, await login(t.app, user.email), school.tenantcode);
    physics = await newSubject(s5, {
      name: 'Physics',
      abbreviation: 'PHY',
      category: 'science',
      position: 1,
      multiple_papers: true,
      multiple_paper_forms: 'S5,S6',
    });
    gp = await newSubject(s5, { name: 'General Paper', abbreviation: 'GP', category: 'general', position: 2 });
    const exam: Row = ok(await s5.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
    for (const term of ['I', 'II'])
      for (const subject of [physics, gp]) ok(await s5.post('/api/school/grades', gradeSet(subject.id, { form: 'S5', term, year: YEAR })));
    const rows = NAMES.map((firstname, index) => ({
      tenant_id: school.id,
      id: newId(),
      studentid: `S5/00${index + 1}`,
      firstname,
      lastname: 'Achan',
      form: 'S5',
    }));
    await withTenant(t.database.db, { tenantId: school.id }, (trx) => trx.insertInto('students').values(rows).execute());
    for (const row of rows) ids[row.firstname] = row.id;
    const mark = (term: string, subject: Row, paper: string, value: number | 'ABS') => ({
      subjectId: subject.id,
      marktypeId: exam.id,
      form: 'S5',
      term,
      year: YEAR,
      paper,
      mark: value,
    });
    // Amina: Physics paper I 70 then 80, paper II 60 then ABS; General Paper 50 then 62.
    await makeMarks(t.database, school.id, ids.Amina as string, [
      mark('I', physics, 'I', 70),
      mark('I', physics, 'II', 60),
      mark('I', gp, 'I', 50),
      mark('II', physics, 'I', 80),
      mark('II', physics, 'II', 'ABS'),
      mark('II', gp, 'I', 62),
    ]);
    // Brian: the same marks both terms.
    await makeMarks(
      t.database,
      school.id,
      ids.Brian as string,
      ['I', 'II'].flatMap((term) => [mark(term, physics, 'I', 90), mark(term, physics, 'II', 85), mark(term, gp, 'I', 40)]),
    );
    // Twin: in term I only, Amina's means as marks, so Twin's term I card grades Amina's means.
    await makeMarks(t.database, school.id, ids.Twin as string, [
      mark('I', physics, 'I', 75),
      mark('I', physics, 'II', 60),
      mark('I', gp, 'I', 56),
    ]);
    ids.exam = exam.id;
  });

  const sheet = (query: Record<string, string | number> = {}) =>
    s5.get(
      `${avgMarksheetEndpoint.path}?${new URLSearchParams(Object.entries({ form: 'S5', year: YEAR, ...query }).map(([k, v]): [string, string] => [k, String(v)]))}`,
    );

  interface AvgLearner extends Learner {
    subjects: Record<
      string,
      {
        mean: number;
        terms: number;
        grade: string | null;
        points?: number | null;
        papers?: Array<{ paper: string; mean: number; terms: number; grade: string | null }>;
      }
    >;
    points: number | null;
  }

  it('means each paper over the terms taken, graded with letters, points and positions as the A-level cards', async () => {
    const model = ok(await sheet({ json: 1 }));
    expect(model.report).toMatchObject({ form: 'S5', level: 'alevel', terms: ['I', 'II'], gradeSetTerm: 'II' });
    expect(model.subjects.map((subject: { code: string; papers?: string[] }) => [subject.code, subject.papers])).toEqual([
      ['PHY', ['I', 'II']],
      ['GP', ['I']],
    ]);
    const rows = model.learners as AvgLearner[];
    const of = (name: string) => rows.find((row) => row.id === ids[name]) as AvgLearner;
    // Amina's Physics paper II: term I's 60 alone (ABS in term II is no 0): D2 and C5, a D (3 points).
    expect(of('Amina').subjects[physics.id]).toEqual({
      mean: 67.5,
      terms: 2,
      grade: 'D',
      points: 3,
      papers: [
        { paper: 'I', mean: 75, terms: 2, grade: 'D2' },
        { paper: 'II', mean: 60, terms: 1, grade: 'C5' },
      ],
    });
    // General Paper (50 + 62) / 2 = 56, a C6: a subsidiary credit, 1 point.
    expect(of('Amina').subjects[gp.id]).toMatchObject({ mean: 56, terms: 2, grade: 'C6', points: 1 });
    expect([of('Amina').points, of('Amina').total]).toEqual([4, 123.5]);
    expect([of('Brian').subjects[physics.id]?.grade, of('Brian').points]).toEqual(['A', 6]);
    // Positions by points: Brian first, Amina and Twin (the same means) share second.
    expect(rows.map((row) => [row.name.split(' ')[0], row.position])).toEqual([
      ['Brian', 1],
      ['Amina', 2],
      ['Twin', 2],
    ]);

    // The A-level card of term I grades Twin's marks, Amina's means, the same way.
    const card = ok(
      await s5.get(
        `${terminalReportEndpoint.path}?${new URLSearchParams({ form: 'S5', term: 'I', year: String(YEAR), json: '1', marktype_id: ids.exam as string })}`,
      ),
    );
    type CardSubject = {
      subject_id: string;
      grade: string | null;
      points: number | null;
      papers?: Array<{ paper: string; mark: number | null; grade: string | null }>;
    };
    type Card = { id: string; points: number | null; total: number | null; subjects: CardSubject[] };
    const twin = (card.learners as Card[]).find((each) => each.id === ids.Twin) as Card;
    expect(twin.points).toBe(of('Amina').points);
    expect(twin.total).toBe(of('Amina').total);
    for (const subject of [physics, gp]) {
      const onCard = twin.subjects.find((each) => each.subject_id === subject.id) as CardSubject;
      const onSheet = of('Amina').subjects[subject.id];
      expect([onSheet?.grade, onSheet?.points]).toEqual([onCard.grade, onCard.points]);
      expect(onSheet?.papers?.map((paper) => [paper.paper, paper.mean, paper.grade])).toEqual(
        onCard.papers?.map((paper) => [paper.paper, paper.mark, paper.grade]),
      );
    }
  });

  it('writes the workbook and prints the PDF with the paper means, letters, points and positions', async () => {
    const preview = ok(await sheet({ html: 1 }));
    expect(preview.html).toContain('<th>PHY PII</th>');
    expect(preview.html).toContain('<td>123.5</td>');
    const response = await sheet({ excel: 1 });
    expect(response.headers['content-disposition']).toContain(`avgmarksheet-S5-all-${YEAR}.xlsx`);
    const book = await workbookOf(response);
    const header = (book.getRow(9).values as unknown[]).slice(1);
    expect(header).toEqual([
      'No.',
      'Student ID',
      'Name',
      'Stream',
      'PHY PI',
      'PHY PII',
      'PHY Gr',
      'PHY Pts',
      'GP PI',
      'GP Gr',
      'GP Pts',
      'Total',
      'Avg',
      'Points',
      'Pos',
    ]);
    // Row 11: Amina, second after Brian.
    const amina = (book.getRow(11).values as unknown[]).slice(1);
    expect(amina).toEqual([2, 'S5/001', 'Amina Achan', undefined, 75, 60, 'D', 3, 56, 'C6', 1, 123.5, 61.75, 4, 2]);

    const pdf = await sheet();
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(`avgmarksheet-S5-all-${YEAR}.pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Kireka High');
    expect(text).toContain('PHY PII');
    const line = text.split('\n').find((each) => each.includes('Amina')) ?? '';
    expect(line.trim().split(/\s+/)).toEqual([
      '2',
      'S5/001',
      'Amina',
      'Achan',
      '75',
      '60',
      'D',
      '3',
      '56',
      'C6',
      '1',
      '123.5',
      '61.75',
      '4',
      '2',
    ]);
  });
});
