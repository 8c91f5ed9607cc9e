import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  defaultTermDates,
  localDay,
  PROGRESS_REPORT_WORDS,
  type ProgressReportModel,
  progressReportEndpoint,
  REPORT_MESSAGES,
  type ReportModel,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { DEMO_ADMIN_EMAIL } from '../../seed/demo.js';
import { marksTerm, termBefore } from '../../seed/demo-marks.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * The progressive report through the API (issue 28 point 4), on both databases, on the demo
 * (which has last term's results as well as this term's): a P7 learner's two terms, each the
 * numbers of that term's report card for the same learner (the terminal report's model), the
 * changes read in their directions, the preview with its trend line, the PDF read back with
 * pdftotext; a learner of another class or school refused, a new-curriculum class refused, a
 * learner without marks an empty report saying why.
 */

let t: TestApp;
let admin: Caller;
const NOW = marksTerm(localDay(), defaultTermDates);
const LAST = termBefore(NOW);
let p7: { id: string; studentid: string; stream: string | null };
let p6: { id: string };
let secondaryLearner: { id: string; form: string };

const tenantOf = async (code: string) =>
  (await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', code).executeTakeFirstOrThrow()).id;
const inSchool = async <T>(code: string, work: Parameters<typeof withTenant<T>>[2]) =>
  withTenant(t.database.db, { tenantId: await tenantOf(code) }, work);

beforeAll(async () => {
  t = await buildTestApp({}, { demo: true });
  admin = caller(t.app, await login(t.app, DEMO_ADMIN_EMAIL, t.config.demoPassword));
  const learners = await inSchool('demo-primary', (trx) =>
    trx
      .selectFrom('students')
      .select(['id', 'studentid', 'form', 'stream'])
      .where('form', 'in', ['P6', 'P7'])
      .orderBy('studentid')
      .execute(),
  );
  p7 = learners.find((learner) => learner.form === 'P7')!;
  p6 = learners.find((learner) => learner.form === 'P6')!;
  secondaryLearner = await inSchool('demo-secondary', (trx) =>
    trx.selectFrom('students').select(['id', 'form']).where('form', '=', 'S2').orderBy('studentid').executeTakeFirstOrThrow(),
  );
}, 120_000);
afterAll(() => t?.close());

const primary = () => admin.in('demo-primary');
const url = (query: Record<string, string>) => `${progressReportEndpoint.path}?${new URLSearchParams(query)}`;

async function progress(query: Record<string, string>): Promise<ProgressReportModel> {
  const response = await primary().get(url({ ...query, json: '1' }));
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function card(term: { term: string; year: number }, studentId: string): Promise<ReportModel['learners'][number]> {
  const response = await primary().get(
    `/api/school/terminalreport?form=P7&term=${term.term}&year=${term.year}&student_id=${studentId}&json=1`,
  );
  expect(response.statusCode, response.body).toBe(200);
  const model: ReportModel = response.json();
  return model.learners.find((learner) => learner.id === studentId)!;
}

describe('the progressive report (GET /api/school/progressreport)', () => {
  it('shows the learner’s terms oldest first, each with the numbers of that term’s report card, and the change between them', async () => {
    const model = await progress({ form: 'P7', stream: p7.stream ?? '', student_id: p7.id });
    expect(model.report.title).toBe('PROGRESSIVE REPORT');
    expect(model.learner).toMatchObject({ id: p7.id, studentid: p7.studentid, form: 'P7' });
    expect(model.empty).toBeNull();
    expect(model.terms.map((term) => `${term.term} ${term.year}`)).toEqual([`${LAST.term} ${LAST.year}`, `${NOW.term} ${NOW.year}`]);
    for (const [index, at] of [LAST, NOW].entries()) {
      const term = model.terms[index]!;
      const printed = await card(at, p7.id);
      expect(term.markTypes).toEqual(['BOT', 'MOT', 'EOT']);
      expect(term.form).toBe('P7');
      expect([term.total, term.aggregate, term.division], `${at.term}`).toEqual([printed.total, printed.aggregate, printed.division]);
      // The card prints the average as the school rounds it; the report keeps it unrounded (rounding is for display).
      expect(term.average).toBeCloseTo(printed.average as number, 2);
      // The position in the whole class that term, as the card prints it ("x out of n").
      expect([term.position, term.outOf]).toEqual([printed.position.class, printed.position.of]);
      expect(term.outOf).toBeGreaterThan(40);
      for (const subject of printed.subjects) {
        const row = model.subjects.find((each) => each.subject_id === subject.subject_id);
        expect(row?.terms[index], subject.subject).toMatchObject({ mark: subject.total, grade: subject.grade });
      }
    }
    // The change is read in each measure's direction: an aggregate is better lower, an average higher.
    const [then, now] = model.terms as [ProgressReportModel['terms'][number], ProgressReportModel['terms'][number]];
    expect(then.change.average).toBeNull();
    const aggregate = now.change.aggregate!;
    expect(aggregate).toMatchObject({ from: then.aggregate, to: now.aggregate });
    expect(aggregate.direction).toBe(aggregate.to < aggregate.from ? 'improved' : aggregate.to > aggregate.from ? 'dropped' : 'same');
    const average = now.change.average!;
    expect(average.direction).toBe(average.to > average.from ? 'improved' : average.to < average.from ? 'dropped' : 'same');
    expect(average.difference).toBeCloseTo(average.to - average.from, 9);
    expect(model.trend.map((point) => point.value)).toEqual([then.average, now.average]);
  });

  it('previews the report with its table and trend line, titled so it is not taken for the termly card', async () => {
    const response = await primary().get(url({ form: 'P7', student_id: p7.id, html: '1' }));
    expect(response.statusCode, response.body).toBe(200);
    const html: string = response.json().html;
    expect(html).toContain('PROGRESSIVE REPORT');
    expect(html).toContain(p7.studentid);
    // The trend line of the charts module: its SVG (a line through the two terms) and its table beside it.
    expect(html).toMatch(/<figure[^>]*data-chart="Trend of the average mark"[\s\S]*<polyline points="[\d.]+,[\d.]+ [\d.]+,[\d.]+"/);
    expect(html).toContain(`P7 Term ${LAST.term} ${LAST.year}`);
    expect(html).toContain('Mathematics');
  });

  it('prints the PDF through the document pool: the title, the learner, the terms and subjects as text', async () => {
    const response = await primary().get(url({ form: 'P7', student_id: p7.id }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/pdf');
    expect(response.headers['content-disposition']).toContain(`progressreport-P7-all-${p7.studentid.replace(/[^A-Za-z0-9_-]+/g, '_')}.pdf`);
    const dir = await mkdtemp(path.join(tmpdir(), 'progress-pdf-'));
    try {
      const file = path.join(dir, 'report.pdf');
      await writeFile(file, response.rawPayload);
      const { stdout } = await promisify(execFile)('pdftotext', ['-layout', file, '-']);
      expect(stdout).toContain('PROGRESSIVE REPORT');
      expect(stdout).toContain(p7.studentid);
      expect(stdout).toContain(`P7 Term ${NOW.term} ${NOW.year}`);
      expect(stdout).toContain('Mathematics');
      expect(stdout).toContain(PROGRESS_REPORT_WORDS.trend);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a learner of another class or stream, or of another school, and a query without a learner (422 on student_id)', async () => {
    const refused = async (query: Record<string, string>, field: string, message: string, school = primary()) => {
      const response = await school.get(url({ ...query, json: '1' }));
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().errors[field]).toEqual([message]);
    };
    await refused({ form: 'P7', student_id: p6.id }, 'student_id', REPORT_MESSAGES.learnerNotInClass);
    const otherStream = p7.stream === 'East' ? 'West' : 'East';
    await refused({ form: 'P7', stream: otherStream, student_id: p7.id }, 'student_id', REPORT_MESSAGES.learnerNotInClass);
    // demo-secondary's learner asked of demo-primary: not a learner of this school.
    await refused({ form: 'P7', student_id: secondaryLearner.id }, 'student_id', REPORT_MESSAGES.learnerUnknown);
    await refused({ form: 'P7', student_id: newId() }, 'student_id', REPORT_MESSAGES.learnerUnknown);
    await refused({ form: 'P7', student_id: '' }, 'student_id', REPORT_MESSAGES.learnerRequired);
    const garbage = await primary().get(url({ form: 'P7', student_id: 'not-an-id', json: '1' }));
    expect(garbage.statusCode).toBe(422);
    expect(Object.keys(garbage.json().errors)).toEqual(['student_id']);
  });

  it('refuses a class on the new curriculum (S2): its learners’ results are competencies, on the new curriculum’s card', async () => {
    const response = await admin.in('demo-secondary').get(url({ form: 'S2', student_id: secondaryLearner.id, json: '1' }));
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors.form).toEqual([REPORT_MESSAGES.newCurriculumClass]);
  });

  it('answers an empty report that says why for a learner without marks yet', async () => {
    const id = newId();
    const tenantId = await tenantOf('demo-primary');
    await inSchool('demo-primary', (trx) =>
      trx
        .insertInto('students')
        .values({ tenant_id: tenantId, id, studentid: 'MPS/NEW1', firstname: 'Nakato', lastname: 'Newcomer', form: 'P7', stream: 'East' })
        .execute(),
    );
    const model = await progress({ form: 'P7', stream: 'East', student_id: id });
    expect(model.terms).toEqual([]);
    expect(model.subjects).toEqual([]);
    expect(model.empty).toBe(PROGRESS_REPORT_WORDS.noMarks);
    expect(model.learner.name).toBe('Nakato Newcomer');
    const html = (await primary().get(url({ form: 'P7', student_id: id, html: '1' }))).json().html;
    expect(html).toContain(PROGRESS_REPORT_WORDS.noMarks);
  });
});
