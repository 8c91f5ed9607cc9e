import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type NcReportModel, ncPartText, ncScoreText, ncTerminalReportEndpoint, REPORT_MESSAGES, SETTINGS_MESSAGES } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newRemarkType, newSubject, ok } from '../settings/settings-fixtures.js';

/*
 * The new-curriculum report card (issue 27 point 2) on both databases: a secondary school's S2
 * of its own with competencies scored under two AOIs (an ABS among them), an end-of-term exam,
 * a project with a score, remarks on competency and on generic skills and a class teacher's
 * remark. The numbers are the guide's (new-curriculum.md, "What is computed"): a competency is
 * the mean of its AOIs, the subject the mean of its competencies, formative score / 3 x 20,
 * summative exam % x 0.8, the grade by 80/70/60/50. The preview and the PDF (read back with
 * pdftotext) say the same; options in any combination; an old-curriculum class, a long label
 * and another school's ids are refused.
 */

const run = promisify(execFile);
const YEAR = 2026;

let t: TestApp;
let head: Caller;
let other: Caller;
let school: { id: string };
let akello: string;
let okello: string;
let s5: string;
let eot: string;
let otherEot: string;
let otherLearner: string;

async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ncreport-'));
  try {
    const file = path.join(folder, 'ncreport.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  const tenant = await makeTenant(t.database, { name: 'Competency SS', schooltype: 'secondary' });
  school = tenant;
  const user = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, user.email), tenant.tenantcode);
  const english = await newSubject(head, { name: 'English Language', category: 'english' });
  const maths = await newSubject(head, { name: 'Mathematics', category: 'mathematics' });
  const remark = await newRemarkType(head, { label: 'Class teacher' });
  akello = ok(await head.post('/api/school/students', { firstname: 'Grace', lastname: 'Akello', form: 'S2', stream: 'North' })).id;
  okello = ok(await head.post('/api/school/students', { firstname: 'Isaac', lastname: 'Okello', form: 'S2', stream: 'South' })).id;
  s5 = ok(await head.post('/api/school/students', { firstname: 'Ruth', lastname: 'Nakato', form: 'S5' })).id;

  const ids = { aoi1: newId(), aoi2: newId(), eot: newId(), t1: newId(), t2: newId(), t3: newId(), m1: newId(), project: newId() };
  eot = ids.eot;
  await withTenant(t.database.db, { tenantId: tenant.id }, async (trx) => {
    await trx
      .insertInto('mark_types')
      .values([
        { tenant_id: tenant.id, id: ids.aoi1, label: 'AOI 1', category: 'test', position: 1, outof: 3 },
        { tenant_id: tenant.id, id: ids.aoi2, label: 'AOI 2', category: 'test', position: 2, outof: 3 },
        { tenant_id: tenant.id, id: ids.eot, label: 'EOT', category: 'exam', position: 3, outof: 100 },
      ])
      .execute();
    const topic = (id: string, subject: string, title: string) => ({
      tenant_id: tenant.id,
      id,
      subject_id: subject,
      form: 'S2',
      term: 'I',
      title,
      remarks: null,
    });
    await trx
      .insertInto('topics')
      .values([
        topic(ids.t1, english.id, 'Reading for meaning'),
        topic(ids.t2, english.id, 'Writing a letter'),
        topic(ids.t3, english.id, 'Speaking in public'),
        topic(ids.m1, maths.id, 'Number bases'),
      ])
      .execute();
    // The card lists a subject's competencies in the order they were made.
    for (const [id, at] of [
      [ids.t1, '2026-02-01T08:00:00Z'],
      [ids.t2, '2026-02-02T08:00:00Z'],
      [ids.t3, '2026-02-03T08:00:00Z'],
      [ids.m1, '2026-02-01T08:00:00Z'],
    ] as const)
      await sql`UPDATE topics SET created_at = ${at}::timestamptz WHERE id = ${id}`.execute(trx);
    await trx
      .insertInto('projects')
      .values({
        tenant_id: tenant.id,
        id: ids.project,
        subject_id: english.id,
        form: 'S2',
        term: 'I',
        year: YEAR,
        title: 'Community survey',
        max_score: 10,
      })
      .execute();
    await trx
      .insertInto('project_scores')
      .values({ tenant_id: tenant.id, id: newId(), project_id: ids.project, student_id: akello, score: 8.5, comment: 'A careful survey' })
      .execute();
    const comment = (student: string, subject: string, kind: 'general' | 'skill', text: string) => ({
      tenant_id: tenant.id,
      id: newId(),
      student_id: student,
      subject_id: subject,
      form: 'S2',
      stream: null,
      term: 'I',
      year: YEAR,
      category: 'exam' as const,
      kind,
      comment: text,
    });
    await trx
      .insertInto('mark_comments')
      .values([
        comment(akello, english.id, 'general', 'Reads with understanding'),
        comment(akello, english.id, 'skill', 'Works well with others'),
      ])
      .execute();
    await trx
      .insertInto('remarks')
      .values({
        tenant_id: tenant.id,
        id: newId(),
        student_id: akello,
        remarktype_id: remark.id,
        form: 'S2',
        stream: null,
        term: 'I',
        year: YEAR,
        comment: 'A steady term',
      })
      .execute();
  });
  const mark = (subjectId: string, marktypeId: string, value: number | 'ABS', topicId?: string) => ({
    subjectId,
    marktypeId,
    form: 'S2',
    term: 'I',
    year: YEAR,
    mark: value,
    ...(topicId ? { topicId } : {}),
  });
  await makeMarks(t.database, tenant.id, akello, [
    mark(english.id, ids.aoi1, 3, ids.t1),
    mark(english.id, ids.aoi2, 2, ids.t1),
    mark(english.id, ids.aoi1, 2, ids.t2),
    mark(english.id, ids.aoi1, 'ABS', ids.t3),
    mark(english.id, ids.eot, 70),
    mark(maths.id, ids.aoi1, 1.4, ids.m1),
    mark(maths.id, ids.eot, 45),
  ]);
  await makeMarks(t.database, tenant.id, okello, [mark(english.id, ids.aoi1, 1.5, ids.t1), mark(english.id, ids.eot, 'ABS')]);
  await makeMarks(t.database, tenant.id, s5, [{ subjectId: english.id, marktypeId: ids.eot, form: 'S5', term: 'I', year: YEAR, mark: 60 }]);

  const otherTenant = await makeTenant(t.database, { name: 'Another SS', schooltype: 'secondary' });
  const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: otherTenant.id, roles: ['headteacher'] }] });
  other = caller(t.app, await login(t.app, otherUser.email), otherTenant.tenantcode);
  otherLearner = ok(await other.post('/api/school/students', { firstname: 'Paul', lastname: 'Mugisha', form: 'S2' })).id;
  otherEot = newId();
  await withTenant(t.database.db, { tenantId: otherTenant.id }, (trx) =>
    trx
      .insertInto('mark_types')
      .values({ tenant_id: otherTenant.id, id: otherEot, label: 'EOT', category: 'exam', position: 1, outof: 100 })
      .execute(),
  );
});
afterAll(() => t?.close());

const card = (who: Caller, more: Record<string, string> = {}, form = 'S2') =>
  who.get(`${ncTerminalReportEndpoint.path}?${new URLSearchParams({ form, term: 'I', year: String(YEAR), marktype_id: eot, ...more })}`);
const modelOf = async (more: Record<string, string> = {}): Promise<NcReportModel> => ok(await card(head, { json: '1', ...more }));

describe('the new-curriculum card', () => {
  it('answers the model with the guide’s numbers, each explained', async () => {
    const model = await modelOf({ topics: '1', summary: '1', comments: '1' });
    expect(model.report).toMatchObject({ label: 'END OF TERM', form: 'S2', exam: 'EOT', summary: true, topics: true, comments: true });
    expect(model.learners.map((learner) => learner.fullname)).toEqual(['Grace Akello', 'Isaac Okello']);
    const [grace, isaac] = model.learners as [NcReportModel['learners'][number], NcReportModel['learners'][number]];
    expect(grace.studentid).toBeTruthy();
    expect('lin' in grace).toBe(true);
    const [english, maths] = grace.subjects;
    // Reading: (3 + 2) / 2 = 2.5 Outstanding; Writing 2 Moderate; Speaking ABS: no score, never 0.
    expect(english?.topics.map((topic) => [topic.title, topic.score, topic.identifier])).toEqual([
      ['Reading for meaning', 2.5, 'Outstanding'],
      ['Writing a letter', 2, 'Moderate'],
      ['Speaking in public', null, null],
    ]);
    // English: (2.5 + 2) / 2 = 2.25 (shown 2.3) Moderate; 2.25 / 3 x 20 = 15; 70% x 0.8 = 56; 71 B.
    expect(english).toMatchObject({
      subject: 'English Language',
      score: 2.3,
      identifier: 'Moderate',
      formative: 15,
      summative: 56,
      total: 71,
      grade: 'B',
      comment: 'Reads with understanding',
      skills: 'Works well with others',
    });
    expect(english?.descriptor).toMatch(/^Outstanding: demonstrates a high level/);
    // Mathematics: 1.4 Basic; 1.4 / 3 x 20 = 9.33 (9.3); 45% x 0.8 = 36; 45.3 E.
    expect(maths).toMatchObject({
      subject: 'Mathematics',
      score: 1.4,
      identifier: 'Basic',
      formative: 9.3,
      summative: 36,
      total: 45.3,
      grade: 'E',
    });
    // Overall: (2.25 + 1.4) / 2 = 1.825 (1.8) Moderate; (71 + 45.33) / 2 = 58.17 (58.1) D.
    expect(grace.overall).toMatchObject({ score: 1.8, identifier: 'Moderate', total: 58.1, grade: 'D' });
    expect(grace.project).toEqual([
      { title: 'Community survey', subject: 'English Language', score: 8.5, max: 10, comment: 'A careful survey' },
    ]);
    expect(grace.remarks).toEqual([expect.objectContaining({ label: 'Class teacher', text: 'A steady term' })]);
    // Every number carries its explanation.
    expect(english?.explain.formative.code).toBe('nc.formative');
    expect(english?.explain.total.code).toBe('nc.total');
    expect(english?.topics[0]?.explain.score.code).toBe('nc.topic');
    expect(grace.overall.explain.total.code).toBe('nc.overallTotal');
    // Isaac: 1.5 Moderate, the exam ABS: no summative, no total, no grade (ABS is never 0).
    expect(isaac.subjects).toHaveLength(1);
    // A subject of the class he has nothing in this term: the card says so, never a row of zeros.
    expect(isaac.unscored).toEqual(['Mathematics']);
    expect(grace.unscored).toEqual([]);
    expect(isaac.subjects[0]).toMatchObject({
      score: 1.5,
      identifier: 'Moderate',
      formative: 10,
      summative: null,
      total: null,
      grade: null,
    });
    expect(isaac.subjects[0]?.explain.summative.code).toBe('nc.examAbsent');
    expect(isaac.project).toEqual([{ title: 'Community survey', subject: 'English Language', score: null, max: 10, comment: '' }]);
    // Both keys: identifiers with their ranges, the grades with the school's.
    expect(model.keys.identifiers.map((band) => [band.label, band.from, band.to])).toEqual([
      ['Outstanding', 2.5, 3],
      ['Moderate', 1.5, 2.49],
      ['Basic', 0, 1.49],
    ]);
    expect(model.keys.grades.map((band) => [band.grade, band.from, band.to])).toEqual([
      ['A', 80, 100],
      ['B', 70, 79],
      ['C', 60, 69],
      ['D', 50, 59],
      ['E', 0, 49],
    ]);
    // No positions, divisions or aggregates.
    expect(JSON.stringify(model)).not.toMatch(/"(position|division|aggregate)"/);
  });

  it("grades a subject by its class's own A..E grade set, and keeps the school's table where the set is D1..F9", async () => {
    const subjectsList = ok(await head.get('/api/school/subjects?per_page=100')).subjects as Array<{ id: string; name: string }>;
    const english = subjectsList.find((row) => row.name === 'English Language')?.id as string;
    const maths = subjectsList.find((row) => row.name === 'Mathematics')?.id as string;
    // S2 English's own table: A from 70 (Grace's 71 is an A here, a B by the school's 80).
    const letters = { A: [70, 100], B: [60, 69], C: [50, 59], D: [40, 49], E: [0, 39] } as const;
    const set = (subject_id: string, bands: Record<string, readonly [number, number]>) =>
      head.post('/api/school/grades', {
        form: 'S2',
        term: 'I',
        year: YEAR,
        subject_id,
        lower: Object.fromEntries(Object.entries(bands).map(([grade, [lower]]) => [grade, lower])),
        upper: Object.fromEntries(Object.entries(bands).map(([grade, [, upper]]) => [grade, upper])),
      });
    const saved = ok(await set(english, letters));
    // An old D1..F9 set kept on S2 Mathematics: not the school's letters, so the school's table stands.
    const old = ok(
      await set(maths, {
        D1: [80, 100],
        D2: [75, 79],
        C3: [70, 74],
        C4: [65, 69],
        C5: [60, 64],
        C6: [55, 59],
        P7: [50, 54],
        P8: [45, 49],
        F9: [0, 44],
      }),
    );
    try {
      const grace = (await modelOf()).learners[0];
      expect(grace?.subjects[0]).toMatchObject({ subject: 'English Language', total: 71, grade: 'A' });
      expect(grace?.subjects[0]?.descriptor).toMatch(/^Exceptional/);
      expect(grace?.subjects[1]).toMatchObject({ subject: 'Mathematics', total: 45.3, grade: 'E' });
    } finally {
      for (const row of [...saved.grades, ...old.grades]) ok(await head.delete(`/api/school/grades/${row.id}`));
    }
  });

  it('prints no positions unless the school switches them on; then the class ranked by the overall total', async () => {
    expect((await modelOf()).learners.map((learner) => learner.position)).toEqual([undefined, undefined]);
    const read = ok(await head.get('/api/school/gradingrules'));
    const switched = (positions: boolean, version: number) =>
      head.put('/api/school/gradingrules', {
        rules: { ...read.rules, newCurriculum: { ...read.rules.newCurriculum, positions } },
        version,
      });
    const on = ok(await switched(true, read.version));
    try {
      const [grace, isaac] = (await modelOf()).learners;
      // Grace has an overall total (58.1); Isaac none (his exam ABS): unranked, never last by a 0.
      expect(grace?.position).toMatchObject({ rank: 1, outOf: 1 });
      expect(isaac?.position).toBeNull();
      // One learner's card gives the position the class's does.
      expect((await modelOf({ student_id: akello })).learners[0]?.position).toMatchObject({ rank: 1, outOf: 1 });
      const html = (await card(head, { html: '1' })).body;
      expect(html).toContain('Position in class');
      expect(await pdfText((await card(head, { pdf: '1' })).rawPayload)).toContain('Position in class');
    } finally {
      ok(await switched(false, on.version));
    }
  });

  it('prints the remarks only with Show comments, an exam-only card with Disable Formative, one learner or one stream', async () => {
    const plain = await modelOf();
    expect(plain.learners[0]?.subjects[0]).toMatchObject({ comment: '', skills: '' });
    expect(plain.learners[0]?.remarks[0]?.text).toBe('');
    const examOnly = await modelOf({ noformative: '1', topics: '1', summary: '1' });
    const english = examOnly.learners[0]?.subjects[0];
    expect(english).toMatchObject({ score: null, identifier: null, formative: null, summative: 56, total: 70, grade: 'B' });
    expect(english?.explain.total.code).toBe('nc.totalExamOnly');
    expect(examOnly.learners[0]?.overall).toMatchObject({ score: null, total: 57.5, grade: 'D' });
    const one = await modelOf({ student_id: okello });
    expect(one.learners.map((learner) => learner.id)).toEqual([okello]);
    const north = await modelOf({ stream: 'North' });
    expect(north.learners.map((learner) => learner.id)).toEqual([akello]);
    const label = await modelOf({ label: 'MID TERM' });
    expect(label.report.label).toBe('MID TERM');
  });

  it('answers the preview with the same numbers and each option drawn or left out', async () => {
    const { html } = ok(await card(head, { html: '1', topics: '1', summary: '1', comments: '1' })) as { html: string };
    for (const text of [
      'Grace Akello',
      'Reading for meaning',
      'Outstanding',
      '2.3',
      '15',
      '56',
      '71',
      '45.3',
      '58.1',
      'Reads with understanding',
      'Works well with others',
      'A steady term',
      'Community survey',
      'Not valid without the school stamp',
      'Summary of performance',
      'Overall achievement',
    ])
      expect(html).toContain(text);
    expect(html).toMatch(/Exceptional: demonstrates/);
    // Every number of the model is in the preview, as the card prints it.
    const model = await modelOf({ topics: '1', summary: '1', comments: '1' });
    for (const learner of model.learners) {
      const own = html.slice(html.indexOf(`data-learner="${learner.studentid}"`));
      for (const subject of learner.subjects) {
        if (subject.score !== null) expect(own).toContain(`<summary>${ncScoreText(subject.score)}</summary>`);
        for (const value of [subject.formative, subject.summative, subject.total])
          if (value !== null) expect(own, `${learner.fullname} ${subject.subject}`).toContain(`<summary>${ncPartText(value)}</summary>`);
        for (const topic of subject.topics)
          if (topic.score !== null) expect(own).toContain(`<summary>${ncScoreText(topic.score)}</summary>`);
        if (subject.grade) expect(own).toContain(`<summary>${subject.grade}</summary>`);
      }
      if (learner.overall.total !== null) expect(own).toContain(`<summary>${ncPartText(learner.overall.total)}</summary>`);
    }
    expect(html).toContain('No competency scores or exam mark this term: Mathematics');
    const { html: bare } = ok(await card(head, { html: '1' })) as { html: string };
    expect(bare).not.toContain('Reading for meaning');
    expect(bare).not.toContain('Summary of performance');
    expect(bare).not.toContain('Reads with understanding');
    expect(bare).toContain('2.3');
    // An exam-only card: the exam %, grade and the descriptor's name in the table; no competency rows, no score.
    const { html: examOnly } = ok(await card(head, { html: '1', noformative: '1', topics: '1', summary: '1' })) as { html: string };
    expect(examOnly).toContain('Exam /100');
    expect(examOnly).toContain('<td>Outstanding</td>');
    expect(examOnly).not.toContain('Reading for meaning');
    expect(examOnly).not.toContain('Av. score');
    // Every option combination answers.
    for (const summary of ['0', '1'])
      for (const topics of ['0', '1'])
        for (const noformative of ['0', '1'])
          for (const comments of ['0', '1']) {
            const response = await card(head, { html: '1', summary, topics, noformative, comments });
            expect(response.statusCode, response.body).toBe(200);
          }
  });

  it('draws the PDF through the document pool, its text searchable', async () => {
    const response = await card(head, { pdf: '1', topics: '1', summary: '1', comments: '1' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(String(response.headers['content-disposition'])).toContain('ncreport-S2-all-2026-I.pdf');
    const text = await pdfText(response.rawPayload);
    for (const words of [
      'Grace Akello',
      'Isaac Okello',
      'Reading for meaning',
      'Writing a letter',
      'Number bases',
      'Outstanding',
      'Moderate',
      'Basic',
      '71',
      '45.3',
      'Overall achievement',
      'Not valid without the school stamp',
      'Community survey',
    ])
      expect(text).toContain(words);
    expect(text).toMatch(/English Language\s+15\s+56\s+71\s+B/);
    expect(text).toMatch(/Mathematics\s+9\.3\s+36\s+45\.3\s+E/);
    expect(text).toContain('No competency scores or exam mark this term: Mathematics');
    const defaulted = await card(head, {});
    expect(defaulted.headers['content-type']).toBe('application/pdf');
    const stream = await card(head, { pdf: '1', stream: 'North' });
    expect(String(stream.headers['content-disposition'])).toContain('ncreport-S2-North-2026-I.pdf');
  });

  it('refuses a label over 60 characters, a missing mark type, and an old-curriculum class naming it', async () => {
    const long = await card(head, { json: '1', label: 'X'.repeat(61) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.label).toEqual([REPORT_MESSAGES.labelTooLong]);
    const noType = await card(head, { json: '1', marktype_id: '' });
    expect(noType.statusCode).toBe(422);
    expect(noType.json().errors.marktype_id).toEqual([SETTINGS_MESSAGES.markTypeRequired]);
    for (const more of [{ json: '1' }, { html: '1' }, { pdf: '1' }] as Array<Record<string, string>>) {
      const old = await card(head, more, 'S5');
      expect(old.statusCode, old.body).toBe(422);
      expect(old.json().errors).toEqual({ form: [REPORT_MESSAGES.oldCurriculumClass] });
    }
    // S2 set to the old curriculum for the year: its card is the terminal report's.
    ok(await head.put('/api/school/curricula', { year: YEAR, allow_zero: false, classes: [{ form: 'S2', curriculum: 'old' }] }));
    try {
      const kept = await card(head, { json: '1' });
      expect(kept.statusCode, kept.body).toBe(422);
      expect(kept.json().errors).toEqual({ form: [REPORT_MESSAGES.oldCurriculumClass] });
    } finally {
      ok(await head.put('/api/school/curricula', { year: YEAR, allow_zero: false, classes: [{ form: 'S2', curriculum: 'new' }] }));
    }
  });

  it('refuses another school’s learner and mark type, and shows another school nothing of ours', async () => {
    const learner = await card(head, { json: '1', student_id: otherLearner });
    expect(learner.statusCode).toBe(422);
    expect(learner.json().errors.student_id).toEqual([REPORT_MESSAGES.learnerUnknown]);
    const type = await card(head, { json: '1', marktype_id: otherEot });
    expect(type.statusCode).toBe(422);
    expect(type.json().errors.marktype_id).toEqual([REPORT_MESSAGES.markTypeUnknown]);
    const theirs = await card(other, { json: '1', student_id: akello, marktype_id: otherEot });
    expect(theirs.statusCode).toBe(422);
    expect(theirs.body).not.toContain('Akello');
    expect(school.id).toBeTruthy();
  });
});
