import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { cumulativeReportEndpoint, markTypes, proportions, REPORT_MESSAGES, terminalReportEndpoint } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * The cumulative report through the API (issue 28 point 3), on both databases: a P6 class of its
 * own with BOT, MOT and EOT marks (entered through the marks API) weighted 20/30/50 by the
 * school's proportions. Its numbers are the terminal report's of the same mark types (the
 * combined column is the card's mark), worked out here: the combined mark is graded, never the
 * grades averaged; the preview and the PDF (read back with pdftotext) title the combined column
 * with the Label; a learner of another class or school, another school's mark type and no mark
 * type ticked are refused with a 422 naming the field.
 */

let t: TestApp;
let head: Caller;
let other: Caller;
let subjects: Row[];
let bot: Row;
let mot: Row;
let eot: Row;
let otherType: Row;
let learners: Record<string, string>;
let otherLearner: string;
let p5Learner: string;
let schoolId: string;
const YEAR = new Date().getFullYear();

const PEOPLE = [
  ['Amina', 'East', 'F'],
  ['Brian', 'East', 'M'],
  ['Carol', 'West', 'F'],
  ['David', 'West', 'M'],
] as const;
type Mark = number | 'ABS';

/** Saves one subject's BOT, MOT and EOT marks of the class through the marks API, per stream. */
async function enter(subject: Row, marks: Record<string, [Mark, Mark, Mark]>) {
  for (const stream of ['East', 'West']) {
    const names = PEOPLE.filter((person) => person[1] === stream).map((person) => person[0] as string);
    const of = (at: number) =>
      Object.fromEntries(
        Object.entries(marks)
          .filter(([name]) => names.includes(name))
          .map(([name, values]) => [learners[name] as string, values[at] as Mark]),
      );
    ok(
      await head.post('/api/school/marks', {
        form: 'P6',
        stream,
        term: 'I',
        year: YEAR,
        subject_id: subject.id,
        paper: 'I',
        save_id: crypto.randomUUID(),
        marks: { [bot.id]: of(0), [mot.id]: of(1), [eot.id]: of(2) },
        base: {},
      }),
    );
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Kasubi Primary' });
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
  bot = ok(await head.post(markTypes.path, { label: 'BOT', category: 'test', position: 1 }));
  mot = ok(await head.post(markTypes.path, { label: 'MOT', category: 'test', position: 2 }));
  eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 3 }));
  otherType = ok(await other.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  for (const subject of subjects) {
    ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P6', term: 'I', year: YEAR })));
    for (const [type, percentage] of [
      [bot, 20],
      [mot, 30],
      [eot, 50],
    ] as const)
      ok(
        await head.post(proportions.path, { form: 'P6', term: 'I', year: YEAR, subject_id: subject.id, marktype_id: type.id, percentage }),
      );
  }
  schoolId = school.id;
  const rows = PEOPLE.map(([firstname, stream, gender], index) => ({
    tenant_id: school.id,
    id: newId(),
    studentid: `P6/00${index + 1}`,
    firstname,
    lastname: 'Ssali',
    form: 'P6',
    stream,
    gender,
  }));
  const p5 = { tenant_id: school.id, id: newId(), studentid: 'P5/001', firstname: 'Esther', lastname: 'Ssali', form: 'P5', stream: 'East' };
  const theirs = { tenant_id: elsewhere.id, id: newId(), studentid: 'P6/001', firstname: 'Faith', lastname: 'Other', form: 'P6' };
  await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx
      .insertInto('students')
      .values([...rows, p5])
      .execute(),
  );
  await withTenant(t.database.db, { tenantId: elsewhere.id }, (trx) => trx.insertInto('students').values(theirs).execute());
  learners = Object.fromEntries(rows.map((row) => [row.firstname, row.id]));
  p5Learner = p5.id;
  otherLearner = theirs.id;
  const [english, maths, science, sst] = subjects as [Row, Row, Row, Row];
  // Amina's English: 20% of 60 + 30% of 70 + 50% of 80 = 12 + 21 + 40 = 73, C3.
  // Brian's English: 20 + 10.2 + 37 = 67.2, C4 (its grades D1, F9, C3 would average 4.33).
  // Carol missed the MOT of English: 20% of 60 and 50% of 80 re-weighted over 70% = 74.28..., C3.
  await enter(english, { Amina: [60, 70, 80], Brian: [100, 34, 74], Carol: [60, 'ABS', 80], David: [30, 30, 30] });
  await enter(maths, { Amina: [80, 80, 90], Brian: [50, 60, 55], Carol: [70, 70, 70], David: [40, 45, 50] });
  await enter(science, { Amina: [75, 80, 85], Brian: [60, 65, 58], Carol: [66, 64, 62], David: [35, 40, 45] });
  await enter(sst, { Amina: [70, 70, 70], Brian: [90, 80, 85], Carol: [55, 50, 60], David: [50, 50, 50] });
});
afterAll(() => t?.close());

const run = promisify(execFile);

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'cumulative-'));
  try {
    const file = path.join(folder, 'cumulative.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const get = (by: Caller, path: string, query: Record<string, string | number> = {}) => {
  const search = new URLSearchParams(
    Object.entries({ form: 'P6', term: 'I', year: YEAR, ...query }).map(([key, value]): [string, string] => [key, String(value)]),
  );
  return by.get(`${path}?${search}`);
};
const allThree = () => [bot.id, mot.id, eot.id].join(',');

interface Subject {
  subject_id: string;
  subject: string;
  marks: Record<string, number | 'ABS' | null>;
  total: number | null;
  grade: string | null;
  points: number | null;
  missed: string[];
}
interface Learner {
  id: string;
  fullname: string;
  subjects: Subject[];
  total: number | null;
  average: number | null;
  aggregate: number | null;
  division: string | null;
  position: { class: number | null; stream: number | null };
}
interface Model {
  report: { label: string; combined?: string; separate: boolean; level: string };
  markTypes: Array<{ label: string }>;
  learners: Learner[];
}

const learnerOf = (model: Model, name: string) => model.learners.find((each) => each.fullname.startsWith(name)) as Learner;
const subjectOf = (learner: Learner, name: string) => learner.subjects.find((each) => each.subject === name) as Subject;

describe('GET /api/school/cummulativereport', () => {
  it('answers the terminal report’s model of the ticked mark types, the combined column graded from the combined mark', async () => {
    const model: Model = ok(await get(head, cumulativeReportEndpoint.path, { json: 1, marktype_ids: allThree(), label: 'AVERAGE' }));
    expect(model.report).toMatchObject({ label: 'CUMULATIVE REPORT', combined: 'AVERAGE', separate: true, level: 'primary' });
    expect(model.markTypes.map((type) => type.label)).toEqual(['BOT', 'MOT', 'EOT']);
    const amina = learnerOf(model, 'Amina');
    expect(subjectOf(amina, 'English')).toMatchObject({ marks: { BOT: 60, MOT: 70, EOT: 80 }, total: 73, grade: 'C3', points: 3 });
    // The combined 67.2 is graded (C4), never the mean of its grades D1, F9 and C3.
    expect(subjectOf(learnerOf(model, 'Brian'), 'English')).toMatchObject({ total: 67.2, grade: 'C4', points: 4 });
    const carol = subjectOf(learnerOf(model, 'Carol'), 'English');
    expect(carol).toMatchObject({ marks: { MOT: 'ABS' }, grade: 'C3', missed: ['MOT'] });
    expect(carol.total).toBeCloseTo(52 / 0.7, 1);

    // Every number as the terminal report of the same class and mark types has it.
    const card: Model = ok(await get(head, terminalReportEndpoint.path, { json: 1, marktype_ids: allThree(), separate: 1 }));
    expect(model.learners.map((each) => each.id)).toEqual(card.learners.map((each) => each.id));
    for (const learner of model.learners) {
      const theirs = card.learners.find((each) => each.id === learner.id) as Learner;
      const { total, average, aggregate, division, position } = theirs;
      expect(learner, learner.fullname).toMatchObject({ total, average, aggregate, division, position });
      for (const subject of learner.subjects) {
        const same = theirs.subjects.find((each) => each.subject_id === subject.subject_id) as Subject;
        expect(subject, `${learner.fullname} ${subject.subject}`).toMatchObject({
          marks: same.marks,
          total: same.total,
          grade: same.grade,
        });
      }
      // At primary the points are the grade values: the four counted subjects' add up to the aggregate.
      if (learner.aggregate !== null)
        expect(learner.subjects.reduce((sum, subject) => sum + (subject.points ?? 0), 0)).toBe(learner.aggregate);
    }
  });

  it('combines two of the three weighted mark types as the card does: their mean, the proportions left aside', async () => {
    const ticked = [bot.id, eot.id].join(',');
    const model: Model = ok(await get(head, cumulativeReportEndpoint.path, { json: 1, marktype_ids: ticked }));
    const card: Model = ok(await get(head, terminalReportEndpoint.path, { json: 1, marktype_ids: ticked }));
    expect(model.report.combined).toBe('TOTAL');
    expect(model.markTypes.map((type) => type.label)).toEqual(['BOT', 'EOT']);
    expect(subjectOf(learnerOf(model, 'Amina'), 'English')).toMatchObject({ marks: { BOT: 60, EOT: 80 }, total: 70, grade: 'C3' });
    for (const learner of model.learners) {
      const theirs = card.learners.find((each) => each.id === learner.id) as Learner;
      expect(learner.subjects.map((each) => [each.total, each.grade])).toEqual(theirs.subjects.map((each) => [each.total, each.grade]));
    }
  });

  it('previews the cards with the Label over the combined column, and grade points beside the grade', async () => {
    const answer = ok(await get(head, cumulativeReportEndpoint.path, { html: 1, marktype_ids: allThree(), label: 'FINAL' }));
    const html = answer.html as string;
    expect(html).toContain('CUMULATIVE REPORT');
    expect(html).toContain('<th>BOT</th><th>MOT</th><th>EOT</th><th>FINAL</th><th>Grade</th><th>Points</th>');
    expect(html).toContain('Amina Ssali');
    expect(html).toContain('Aggregate');
  });

  it('prints the PDF through the document pool as report-<class>-<stream>-<year>-<term>.pdf, the Label the column’s title', async () => {
    const pdf = await get(head, cumulativeReportEndpoint.path, { stream: 'East', marktype_ids: allThree(), label: 'FINAL', pdf: 1 });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`report-P6-East-${YEAR}-I.pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('CUMULATIVE REPORT');
    expect(text).toMatch(/BOT\s+MOT\s+EOT\s+FINAL\s+Grade\s+Points/);
    expect(text).toContain('Amina Ssali');
    expect(text).toContain('Brian Ssali');
    expect(text).not.toContain('Carol Ssali');
    expect(text).toMatch(/English\s+60\s+70\s+80\s+73\s+C3\s+3/);
  });

  it('prints one learner’s card, and refuses a learner of another class or school (422 on student_id)', async () => {
    const one: Model = ok(
      await get(head, cumulativeReportEndpoint.path, { json: 1, marktype_ids: allThree(), student_id: learners.Amina as string }),
    );
    expect(one.learners.map((each) => each.fullname)).toEqual(['Amina Ssali']);
    for (const student_id of [p5Learner, otherLearner]) {
      const answer = await get(head, cumulativeReportEndpoint.path, { json: 1, marktype_ids: allThree(), student_id });
      expect(answer.statusCode, answer.body).toBe(422);
      expect(answer.json().errors.student_id).toEqual([REPORT_MESSAGES.learnerUnknown]);
      expect(answer.body).not.toContain('Faith');
    }
  });

  it('refuses another school’s mark type and a request with no mark type ticked, naming the field', async () => {
    const theirs = await get(head, cumulativeReportEndpoint.path, { json: 1, marktype_ids: `${bot.id},${otherType.id}` });
    expect(theirs.statusCode, theirs.body).toBe(422);
    expect(theirs.json().errors.marktype_id).toEqual([REPORT_MESSAGES.markTypeUnknown]);
    expect(theirs.body).not.toContain('Other Primary');
    const untickedQueries: Array<Record<string, string | number>> = [{ json: 1 }, { json: 1, marktype_ids: '' }, { html: 1 }];
    for (const query of untickedQueries) {
      const none = await get(head, cumulativeReportEndpoint.path, query);
      expect(none.statusCode, none.body).toBe(422);
      expect(none.json().errors.marktype_ids).toEqual([REPORT_MESSAGES.cumulativeNeedsMarkTypes]);
    }
    // The other school has no such class: nothing of this school's answered.
    const elsewhere = await get(other, cumulativeReportEndpoint.path, { json: 1, marktype_ids: otherType.id });
    expect(elsewhere.statusCode, elsewhere.body).toBe(422);
    expect(elsewhere.body).not.toContain('Amina');
  });

  it('refuses (422 on form) a class on the new curriculum that year', async () => {
    const set = (curriculum: 'new' | 'old') =>
      withTenant(t.database.db, { tenantId: schoolId }, async (trx) => {
        if (curriculum === 'old') await trx.deleteFrom('class_curricula').where('year', '=', YEAR).where('form', '=', 'P6').execute();
        else await trx.insertInto('class_curricula').values({ tenant_id: schoolId, year: YEAR, form: 'P6', curriculum }).execute();
      });
    await set('new');
    try {
      const answer = await get(head, cumulativeReportEndpoint.path, { json: 1, marktype_ids: allThree() });
      expect(answer.statusCode, answer.body).toBe(422);
      expect(answer.json().errors.form).toEqual([REPORT_MESSAGES.newCurriculumClass]);
    } finally {
      await set('old');
    }
  });
});
