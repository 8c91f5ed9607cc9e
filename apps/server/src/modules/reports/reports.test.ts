import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { markTypes, proportions, REPORT_MESSAGES, type ReportLearner, type ReportModel, TENANT_HEADER } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newSubject, ok, type Row } from '../settings/settings-fixtures.js';
import { fixtureLogo } from './pdf/fixture.js';

/*
 * Report cards through the API (issue 15), on both databases: a P7 class whose marks are entered
 * through the marks API, its report model (`json=1`), preview (`html=1`) and PDF; what another
 * school and bad input get.
 */

let t: TestApp;
let head: Caller;
let other: Caller;
let schoolId: string;
let subjects: Row[];
let bot: Row;
let eot: Row;
let learners: Record<string, string>;
const YEAR = new Date().getFullYear();

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
  const otherUser = await makeUser(t.database, { name: 'Other Head', memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  subjects = [
    await newSubject(head, { name: 'English', category: 'english', position: 1 }),
    await newSubject(head, { name: 'Mathematics', category: 'mathematics', position: 2 }),
    await newSubject(head, { name: 'Science', category: 'science', position: 3 }),
    await newSubject(head, { name: 'Social Studies', category: 'humanity', position: 4 }),
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
});
afterAll(() => t?.close());

const report = (by: Caller, query: Record<string, string | number> = {}) => {
  const search = new URLSearchParams(
    Object.entries({ form: 'P7', term: 'I', year: YEAR, ...query }).map(([key, value]): [string, string] => [key, String(value)]),
  );
  return by.get(`/api/school/terminalreport?${search}`);
};
const byName = (model: ReportModel, first: string) => model.learners.find((learner) => learner.fullname.startsWith(first)) as ReportLearner;

describe('the report model (json=1) of a class whose marks came through the marks API', () => {
  it('gives each learner the expected totals, aggregates, divisions and positions', async () => {
    const model: ReportModel = ok(await report(head, { json: 1 }));
    expect(model.report).toMatchObject({ form: 'P7', term: 'I', year: YEAR, level: 'primary', label: 'END OF TERM', category: 'exam' });
    expect(model.markTypes.map((type) => type.label)).toEqual(['BOT', 'EOT']);
    expect(
      model.learners.map((learner) => [
        learner.fullname,
        learner.aggregate,
        learner.division,
        learner.position.class,
        learner.position.stream,
      ]),
    ).toEqual([
      ['Amina Okello', 4, 'I', 1, 1],
      ['Brian Okello', 12, 'I', 2, 2],
      ['Carol Okello', 16, 'II', 3, 1],
      // David missed the Science EOT: graded on the BOT he sat, re-weighted (the default missed-test rule): 60, C5, aggregate 20.
      ['David Okello', 20, 'II', 4, 2],
    ]);
    const english = byName(model, 'Amina').subjects[0];
    // Raw marks under the mark types by default (issue 24 point 3): 80 and 85 as entered, the total weighted.
    expect(english).toMatchObject({ subject: 'English', total: 83, grade: 'D1', marks: { BOT: 80, EOT: 85 } });
    expect(byName(model, 'David').subjects[2]).toMatchObject({ subject: 'Science', total: 60, grade: 'C5', marks: { EOT: 'ABS' } });
    expect(byName(model, 'Carol').explain.division?.code).toBe('primary.division');
    expect(byName(model, 'Carol').position).toEqual({ stream: 1, class: 3, of: 4, streamOf: 2 });
  });

  it('prints one stream or one learner, still ranked in the whole class', async () => {
    const west: ReportModel = ok(await report(head, { json: 1, stream: 'West' }));
    expect(west.learners.map((learner) => learner.fullname)).toEqual(['Carol Okello', 'David Okello']);
    const one: ReportModel = ok(await report(head, { json: 1, student_id: learners.Brian as string }));
    expect(one.learners.map((learner) => [learner.fullname, learner.position.class])).toEqual([['Brian Okello', 2]]);
  });

  it('reports one exam: the EOT marks alone, with the label given', async () => {
    const model: ReportModel = ok(await report(head, { json: 1, marktype_id: eot.id, label: 'MOCK EXAMINATIONS', rawmark: 1 }));
    expect(model.report.label).toBe('MOCK EXAMINATIONS');
    expect(byName(model, 'Amina').subjects[0]).toMatchObject({ marks: { EOT: 85 }, total: 85, grade: 'D1' });
  });
});

describe('the preview (html=1)', () => {
  it('is one document with every learner, their marks and divisions, each number explaining itself', async () => {
    const { html } = ok(await report(head, { html: 1 }));
    for (const name of ['Amina Okello', 'Brian Okello', 'Carol Okello', 'David Okello']) expect(html).toContain(name);
    expect(html).toContain('Kitante Primary');
    expect(html).toMatch(/data-explain="division"><summary>II<\/summary>/);
    expect(html).not.toContain('<script');
  });
});

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'report-'));
  try {
    const file = path.join(folder, 'report.pdf');
    await writeFile(file, bytes);
    return (await promisify(execFile)('pdftotext', ['-layout', file, '-'])).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('the PDF', () => {
  it('is named report-<class>-<stream>-<year>-<term>.pdf and reads back with every learner, their marks and divisions', async () => {
    const response = await report(head, { stream: 'East' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="report-P7-East-${YEAR}-I.pdf"`);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Kitante Primary');
    for (const name of ['Amina Okello', 'Brian Okello']) expect(text).toContain(name);
    expect(text).not.toContain('Carol Okello');
    expect(text).toMatch(/Division:?\s+I\b/);
    expect(text).toMatch(/English.*\b83\b.*D1/);
    expect(text.split('\f').filter((page) => page.trim()).length).toBe(2);
  });

  it('a whole class is "all" streams, and its progress can be followed by its token', async () => {
    const token = `test-${crypto.randomUUID()}`;
    const response = await report(head, { progress: token });
    expect(response.headers['content-disposition']).toBe(`attachment; filename="report-P7-all-${YEAR}-I.pdf"`);
    expect(ok(await head.get(`/api/school/terminalreport/progress?token=${token}`))).toEqual({ done: 4, total: 4 });
    // Another school's member asking for the same token learns nothing.
    expect((await other.get(`/api/school/terminalreport/progress?token=${token}`)).statusCode).toBe(404);
  });
});

describe('comments and remarks on the cards', () => {
  it('a subject comment and the remarks of the report’s remark types show in the model, the preview and the PDF, markup as text', async () => {
    const english = subjects[0] as Row;
    const classTeacher = ok(
      await head.post('/api/school/remarktypes', { label: "Class teacher's comment", category: 'exam', position: 1 }),
    );
    const headTeacher = ok(await head.post('/api/school/remarktypes', { label: "Head teacher's comment", category: 'exam', position: 2 }));
    ok(await head.post('/api/school/remarktypes', { label: 'Mid-term note', category: 'mid term', position: 3 }));
    const amina = learners.Amina as string;
    await withTenant(t.database.db, { tenantId: schoolId }, async (trx) => {
      const place = { tenant_id: schoolId, student_id: amina, form: 'P7', stream: 'East', term: 'I', year: YEAR };
      await trx
        .insertInto('mark_comments')
        .values({ ...place, id: newId(), subject_id: english.id, category: 'exam', comment: 'Reads <b>very</b> well.' })
        .execute();
      await trx
        .insertInto('remarks')
        .values([
          { ...place, id: newId(), remarktype_id: classTeacher.id, comment: 'A careful and polite pupil.' },
          { ...place, id: newId(), remarktype_id: headTeacher.id, comment: 'Promoted to S1.' },
        ])
        .execute();
    });
    const model: ReportModel = ok(await report(head, { json: 1, student_id: amina }));
    const [card] = model.learners;
    expect(card?.subjects[0]?.comment).toBe('Reads <b>very</b> well.');
    expect(card?.remarks).toEqual([
      { remarktype_id: classTeacher.id, label: "Class teacher's comment", text: 'A careful and polite pupil.' },
      { remarktype_id: headTeacher.id, label: "Head teacher's comment", text: 'Promoted to S1.' },
    ]);
    const { html } = ok(await report(head, { html: 1, student_id: amina }));
    expect(html).toContain('Reads &lt;b&gt;very&lt;/b&gt; well.');
    expect(html).not.toContain('<b>very</b>');
    expect(html).toContain('A careful and polite pupil.');
    const text = await pdfText((await report(head, { student_id: amina })).rawPayload);
    expect(text).toContain('Reads <b>very</b> well.');
    expect(text).toMatch(/Class teacher's comment:\s+A careful and polite pupil\./);
    expect(text).toMatch(/Head teacher's comment:\s+Promoted to S1\./);
    expect(text).not.toContain('Mid-term note');
  });
});

describe('the layout screen’s sample card', () => {
  it('is one learner of the class with the latest marks; a school without marks has none yet', async () => {
    const sample: ReportModel = ok(await head.get('/api/school/terminalreport/sample')).model;
    expect(sample.learners).toHaveLength(1);
    expect(sample.report).toMatchObject({ form: 'P7', term: 'I', year: YEAR });
    expect(Object.values(learners)).toContain(sample.learners[0]?.id);
    expect(ok(await other.get('/api/school/terminalreport/sample'))).toEqual({ model: null });
  });
});

describe('what cannot make a report', () => {
  it('a class without learners, a class without marks, a custom report without mark types: 422 with the reason', async () => {
    const empty = await report(head, { form: 'P3', json: 1 });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.form).toEqual([REPORT_MESSAGES.noLearners]);
    const noMarks = await report(head, { term: 'II', json: 1 });
    expect(noMarks.statusCode).toBe(422);
    expect(noMarks.json().errors.marktype_id).toEqual([REPORT_MESSAGES.noMarks]);
    const custom = await report(head, { category: 'custom', json: 1 });
    expect(custom.json().errors.marktype_id).toEqual([REPORT_MESSAGES.customNeedsMarkTypes]);
  });

  it.each([
    ['a term outside I..III', { term: 'IV' }],
    ['a year that is not one', { year: 'next' }],
    ['an unknown report type', { category: 'weekly' }],
    ['a mark type id that is not one', { marktype_id: 'BOT' }],
    ['a NUL byte in the stream', { stream: 'East\u0000' }],
    ['a label of 61 characters', { label: 'x'.repeat(61) }],
    ['a huge class name', { form: 'P'.repeat(5000) }],
  ])('%s: 422, never 500', async (_, query) => {
    const response = await report(head, { json: 1, ...query });
    expect(response.statusCode, response.body).toBe(422);
  });

  it('a mark type of the school that does not exist, and a learner of another class: 422', async () => {
    expect((await report(head, { json: 1, marktype_id: newId() })).json().errors.marktype_id).toEqual([REPORT_MESSAGES.markTypeUnknown]);
    expect((await report(head, { json: 1, student_id: newId() })).json().errors.student_id).toEqual([REPORT_MESSAGES.learnerUnknown]);
  });
});

describe('mark type ids in capitals (issue 23 item 5)', () => {
  const capitals = (id: string) => id.toUpperCase();

  it('the report (json=1) answers a mark type id in capitals as it answers the id in small letters', async () => {
    const queries: Array<Record<string, string>> = [
      { marktype_id: eot.id, label: 'MOCK EXAMINATIONS' },
      { category: 'custom', marktype_ids: `${bot.id},${eot.id}` },
      { student_id: learners.Brian as string },
    ];
    for (const query of queries) {
      const small: ReportModel = ok(await report(head, { json: 1, ...query }));
      const shouted = Object.fromEntries(
        Object.entries(query).map(([key, value]) => [key, key.endsWith('_id') || key.endsWith('_ids') ? capitals(value) : value]),
      );
      expect(ok(await report(head, { json: 1, ...shouted }))).toEqual(small);
    }
  });

  it('the mark sheet answers a mark type id in capitals as it answers the id in small letters', async () => {
    const sheet = (marktypeIds: string) =>
      head.get(`/api/school/marks/marksheet?form=P7&term=I&year=${YEAR}&category=custom&marktype_ids=${marktypeIds}&html=1`);
    const small = ok(await sheet(`${bot.id},${eot.id}`));
    expect(small.html).toContain('Amina Okello');
    expect(ok(await sheet(`${capitals(bot.id)},${capitals(eot.id)}`))).toEqual(small);
  });
});

describe('another school', () => {
  it('sees none of these learners or marks', async () => {
    const theirs = await report(other, { json: 1 });
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json().errors.form).toEqual([REPORT_MESSAGES.noLearners]);
    const ourLearner = await report(other, { json: 1, student_id: learners.Amina as string });
    expect(ourLearner.statusCode).toBe(422);
    expect(ourLearner.body).not.toContain('Amina');
    expect(schoolId).toBeTruthy();
  });
});

/**
 * A card a head teacher signs (issue 24 point 3): a school that set nothing up beyond its
 * subjects, mark types, grade sets and marks, one stream, prints the signature lines, the key
 * with the division rule and X, raw marks under BOT, MOT and EOT, the LIN, next term's dates
 * (the default calendar) and the fees balance (the learner's statement), no position in stream.
 */
describe('the card of a school that set nothing up', () => {
  let school: { id: string; tenantcode: string };
  let headToken: string;
  let teacherToken: string;
  let otherToken: string;
  let otherCode: string;
  let mine: Caller;
  let teacher: Caller;
  let lin: Record<string, string>;
  const cardOf = (query: Record<string, string | number> = {}) => report(mine, { form: 'P6', ...query });

  beforeAll(async () => {
    school = await makeTenant(t.database, { name: 'Nakasero Primary' });
    const elsewhere = await makeTenant(t.database, { name: 'Far Away Primary' });
    otherCode = elsewhere.tenantcode;
    const headUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    const teacherUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
    headToken = await login(t.app, headUser.email);
    teacherToken = await login(t.app, teacherUser.email);
    otherToken = await login(t.app, otherUser.email);
    mine = caller(t.app, headToken, school.tenantcode);
    teacher = caller(t.app, teacherToken, school.tenantcode);
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.updateTable('tenants').set({ address: 'P.O. Box 7, Kampala' }).where('id', '=', school.id).execute(),
    );
    const subjectRows = [
      await newSubject(mine, { name: 'English', category: 'english', position: 1 }),
      await newSubject(mine, { name: 'Mathematics', category: 'mathematics', position: 2 }),
      await newSubject(mine, { name: 'Science', category: 'science', position: 3 }),
      await newSubject(mine, { name: 'Social Studies', category: 'humanity', position: 4 }),
    ];
    const types = [
      ok(await mine.post(markTypes.path, { label: 'BOT', category: 'test', position: 1 })),
      ok(await mine.post(markTypes.path, { label: 'MOT', category: 'test', position: 2 })),
      ok(await mine.post(markTypes.path, { label: 'EOT', category: 'exam', position: 3 })),
    ];
    for (const subject of subjectRows)
      ok(await mine.post('/api/school/grades', gradeSet(subject.id, { form: 'P6', term: 'I', year: YEAR })));
    const rows = [
      { firstname: 'Grace', lin: 'U0012345' },
      { firstname: 'Henry', lin: null },
    ].map((learner, index) => ({
      tenant_id: school.id,
      id: newId(),
      studentid: `P6/00${index + 1}`,
      firstname: learner.firstname,
      lastname: 'Mukasa',
      form: 'P6',
      stream: 'A',
      lin: learner.lin,
    }));
    lin = Object.fromEntries(rows.map((row) => [row.firstname, row.id]));
    await withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
      await trx.insertInto('students').values(rows).execute();
      // Grace's statement: 450,000 invoiced, 300,000 paid: 150,000 owed. Henry has none.
      const line = {
        tenant_id: school.id,
        student_id: rows[0]?.id as string,
        journal_id: null,
        date: `${YEAR}-02-03`,
        term: 'I',
        year: YEAR,
      };
      await trx
        .insertInto('statement_lines')
        .values([
          { ...line, id: newId(), particulars: 'Fees', category: 'invoice', amount: '450000.00' },
          { ...line, id: newId(), particulars: 'Paid', category: 'receipt', amount: '300000.00' },
        ])
        .execute();
    });
    // Grace: BOT 72, MOT 64, EOT 88 in every subject; Henry 50, 55, 60.
    for (const subject of subjectRows) {
      const byType = (values: [number, number]) => ({ [lin.Grace as string]: values[0], [lin.Henry as string]: values[1] });
      ok(
        await mine.post('/api/school/marks', {
          form: 'P6',
          stream: 'A',
          term: 'I',
          year: YEAR,
          subject_id: subject.id,
          paper: 'I',
          save_id: crypto.randomUUID(),
          marks: { [types[0]?.id]: byType([72, 50]), [types[1]?.id]: byType([64, 55]), [types[2]?.id]: byType([88, 60]) },
          base: {},
        }),
      );
    }
  });

  it('the model: raw marks under BOT, MOT, EOT, the LIN, the key, next term, the fees balance, signatures, one stream', async () => {
    const model: ReportModel = ok(await cardOf({ json: 1 }));
    expect(model.markTypes.map((type) => type.heading)).toEqual(['BOT', 'MOT', 'EOT']);
    const grace = byName(model, 'Grace');
    expect(grace.subjects[0]?.marks).toEqual({ BOT: 72, MOT: 64, EOT: 88 });
    expect(grace.lin).toBe('U0012345');
    expect(byName(model, 'Henry').lin).toBeNull();
    expect(grace.feesBalance).toBe('150000.00');
    expect(byName(model, 'Henry').feesBalance).toBeNull();
    expect(model.nextTerm).toEqual({ term: 'II', year: YEAR, starts: `${YEAR}-05-01`, ends: `${YEAR}-08-31` });
    expect(model.signatures).toEqual(["Class teacher's signature", "Head teacher's signature"]);
    expect(model.streams).toBe(1);
    expect(model.key).toContain('X: no mark in a counted subject, not graded');
    expect(model.school.address).toBe('P.O. Box 7, Kampala');
  });

  it('the PDF reads back with all of it, and no position in stream', async () => {
    const response = await cardOf({ student_id: lin.Grace as string });
    expect(response.statusCode, response.body).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Nakasero Primary');
    expect(text).toContain('P.O. Box 7, Kampala');
    expect(text).toMatch(/LIN:\s+U0012345/);
    expect(text).toMatch(/Subject\s+BOT\s+MOT\s+EOT\s+Total/);
    expect(text).toMatch(/English\s+72\s+64\s+88\b/);
    expect(text).toContain('Division I: aggregate 4–12');
    expect(text).toContain('X: no mark in a counted subject');
    expect(text).toMatch(/ABS: a test missed/);
    expect(text).toMatch(new RegExp(`Next term begins:\\s+1 May ${YEAR}`));
    expect(text).toMatch(/Fees balance:\s+150,000/);
    expect(text).toContain("Class teacher's signature");
    expect(text).toContain("Head teacher's signature");
    expect(text).toContain('Position in class');
    expect(text).not.toContain('Position in stream');
  });

  it('weighted parts only when the layout chooses them, headed "BOT 20%"', async () => {
    const { layout, version } = ok(await mine.get('/api/school/reportlayout'));
    ok(await mine.put('/api/school/reportlayout', { layout: { ...layout, markValues: 'weighted' }, version }));
    const before: ReportModel = ok(await cardOf({ json: 1 }));
    for (const subject of before.learners[0]?.subjects ?? [])
      for (const type of before.markTypes)
        ok(
          await mine.post(proportions.path, {
            form: 'P6',
            term: 'I',
            year: YEAR,
            subject_id: subject.subject_id,
            marktype_id: type.id,
            percentage: type.label === 'EOT' ? 60 : 20,
          }),
        );
    const model: ReportModel = ok(await cardOf({ json: 1 }));
    expect(model.markTypes.map((type) => type.heading)).toEqual(['BOT 20%', 'MOT 20%', 'EOT 60%']);
    // 72 × 20% = 14.4, 64 × 20% = 12.8, 88 × 60% = 52.8: the parts of the total 80.
    expect(byName(model, 'Grace').subjects[0]).toMatchObject({ marks: { BOT: 14.4, MOT: 12.8, EOT: 52.8 }, total: 80 });
    const text = await pdfText((await cardOf({ student_id: lin.Grace as string })).rawPayload);
    // Each head on two lines in its narrow column: "BOT" over "20%".
    expect(text).toMatch(/BOT\s+MOT\s+EOT\s+Total[^\n]*\n\s+20%\s+20%\s+60%/);
    expect(text).toMatch(/English\s+14\.4\s+12\.8\s+52\.8\s+80\b/);
    const saved = ok(await mine.get('/api/school/reportlayout'));
    ok(await mine.put('/api/school/reportlayout', { layout: { ...saved.layout, markValues: 'raw' }, version: saved.version }));
    expect((ok(await cardOf({ json: 1 })) as ReportModel).markTypes.map((type) => type.heading)).toEqual(['BOT', 'MOT', 'EOT']);
  });

  /** The badge form as the browser sends it: one multipart file in the field `logo`. */
  async function sendLogo(token: string, tenantcode: string, bytes: Buffer, type = 'image/png', field = 'logo') {
    const form = new FormData();
    form.set(field, new Blob([new Uint8Array(bytes)], { type }), 'badge.png');
    const request = new Request('http://x', { method: 'PUT', body: form });
    return t.app.inject({
      method: 'PUT',
      url: '/api/school/logo',
      headers: {
        authorization: `Bearer ${token}`,
        [TENANT_HEADER]: tenantcode,
        'content-type': request.headers.get('content-type') as string,
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }
  const logoFiles = () => {
    const folder = path.join(t.app.config.dataDir, 'photos', school.id);
    return existsSync(folder) ? readdirSync(folder) : [];
  };

  it('the badge: uploaded, shown on the preview and the PDF, served to the school alone, replaced and removed', async () => {
    expect((await mine.get('/api/school/logo')).statusCode).toBe(404);
    const before = await cardOf({ student_id: lin.Grace as string });
    expect(before.rawPayload.includes('/Subtype /Image')).toBe(false);

    expect(ok(await sendLogo(headToken, school.tenantcode, await fixtureLogo()))).toEqual({ logo: true });
    const served = await mine.get('/api/school/logo');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toContain('no-store');
    expect((ok(await cardOf({ json: 1 })) as ReportModel).school.logo).toBe('/api/school/logo');
    expect(ok(await cardOf({ html: 1 })).html).toMatch(/<img class="logo" src="data:image\/jpeg;base64,/);
    expect((await cardOf({ student_id: lin.Grace as string })).rawPayload.includes('/Subtype /Image')).toBe(true);

    // Another school reads its own (none), never this one's; its upload does not touch this one.
    const them = caller(t.app, otherToken, otherCode);
    expect((await them.get('/api/school/logo')).statusCode).toBe(404);
    expect(ok(await sendLogo(otherToken, otherCode, await fixtureLogo()))).toEqual({ logo: true });
    expect(ok(await them.delete('/api/school/logo'))).toEqual({ logo: false });
    expect((await mine.get('/api/school/logo')).statusCode).toBe(200);

    // A new badge replaces the file; removing it leaves none.
    const first = logoFiles();
    expect(first).toHaveLength(1);
    ok(await sendLogo(headToken, school.tenantcode, await fixtureLogo()));
    expect(logoFiles()).toHaveLength(1);
    expect(logoFiles()).not.toEqual(first);
    expect(ok(await mine.delete('/api/school/logo'))).toEqual({ logo: false });
    expect(logoFiles()).toHaveLength(0);
    expect((await mine.get('/api/school/logo')).statusCode).toBe(404);
    expect((ok(await cardOf({ json: 1 })) as ReportModel).school.logo).toBeNull();
  });

  it('the badge refused: not a picture (422 naming it), no file (422), a member who may not change settings (403), nothing saved', async () => {
    const text = await sendLogo(headToken, school.tenantcode, Buffer.from('just some words, not a picture'), 'image/png');
    expect(text.statusCode, text.body).toBe(422);
    expect(text.json().errors.logo).toEqual([REPORT_MESSAGES.logoNotImage]);
    const wrongField = await sendLogo(headToken, school.tenantcode, await fixtureLogo(), 'image/png', 'photo');
    expect(wrongField.statusCode).toBe(422);
    expect(Object.keys(wrongField.json().errors)).toContain('logo');
    const json = await mine.put('/api/school/logo', { logo: 'x'.repeat(10_000) });
    expect(json.statusCode).toBe(422);
    const nul = await mine.put('/api/school/logo', { logo: 'a\u0000b' });
    expect(nul.statusCode).toBe(422);
    expect((await sendLogo(teacherToken, school.tenantcode, await fixtureLogo())).statusCode).toBe(403);
    expect((await teacher.delete('/api/school/logo')).statusCode).toBe(403);
    expect(logoFiles()).toHaveLength(0);
    expect((await mine.get('/api/school/logo')).statusCode).toBe(404);
    // A member without the ability still reads the badge the cards print.
    ok(await sendLogo(headToken, school.tenantcode, await fixtureLogo()));
    expect((await teacher.get('/api/school/logo')).statusCode).toBe(200);
    ok(await mine.delete('/api/school/logo'));
  });
});
