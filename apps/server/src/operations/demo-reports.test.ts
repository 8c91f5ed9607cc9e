import { defaultTermDates, localDay, REPORT_MESSAGES, type ReportModel } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '../seed/demo.js';
import { marksTerm, termBefore } from '../seed/demo-marks.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';

/*
 * The demo prints full report cards the moment it is seeded (issue 15 point 8): P7 with PLE
 * divisions, S4 with UCE divisions (where the school keeps it on the old curriculum: by default
 * it is on the new one, issue 27 point 5), S6 with UACE letters and points, for the marks term.
 */

let t: TestApp;
let admin: Caller;
const { term, year } = marksTerm(localDay(), defaultTermDates);

beforeAll(async () => {
  t = await buildTestApp({}, { demo: true });
  admin = caller(t.app, await login(t.app, DEMO_ADMIN_EMAIL, t.config.demoPassword));
});
afterAll(() => t?.close());

async function model(school: string, form: string, at = { term, year }): Promise<ReportModel> {
  const response = await admin.in(school).get(`/api/school/terminalreport?form=${form}&term=${at.term}&year=${at.year}&json=1`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const counts = (values: Array<string | number | null>) => {
  const tally = new Map<string | number | null, number>();
  for (const value of values) tally.set(value, (tally.get(value) ?? 0) + 1);
  return tally;
};

describe('the demo report cards', () => {
  it('P7: every learner with BOT, MOT and EOT, a total in every subject, and divisions spread as in a real class', async () => {
    const p7 = await model('demo-primary', 'P7');
    expect(p7.report.level).toBe('primary');
    expect(p7.markTypes.map((type) => type.label)).toEqual(['BOT', 'MOT', 'EOT']);
    expect(p7.warnings).toEqual([]);
    expect(p7.learners.length).toBeGreaterThan(40);
    const divisions = counts(p7.learners.map((learner) => learner.division));
    for (const division of ['I', 'II', 'III']) expect(divisions.get(division) ?? 0, division).toBeGreaterThan(0);
    // A few learners missed an exam (ABS): X, but not most of the class.
    expect((divisions.get('X') ?? 0) / p7.learners.length).toBeLessThan(0.2);
    const ranked = p7.learners.filter((learner) => learner.position.class !== null);
    expect(ranked.length).toBeGreaterThan(p7.learners.length * 0.9);
  });

  it('P7 last term (issue 28 point 9): a full card of its own, BOT, MOT and EOT, some learners up and some down since', async () => {
    const [last, now] = [await model('demo-primary', 'P7', termBefore({ term, year })), await model('demo-primary', 'P7')];
    expect(last.markTypes.map((type) => type.label)).toEqual(['BOT', 'MOT', 'EOT']);
    expect(last.warnings).toEqual([]);
    const divisions = counts(last.learners.map((learner) => learner.division));
    for (const division of ['I', 'II', 'III']) expect(divisions.get(division) ?? 0, division).toBeGreaterThan(0);
    const before = new Map(last.learners.map((learner) => [learner.id, learner.aggregate]));
    const changes = now.learners
      .map((learner) => [before.get(learner.id), learner.aggregate] as const)
      .filter((pair): pair is readonly [number, number] => typeof pair[0] === 'number' && typeof pair[1] === 'number');
    expect(changes.length).toBeGreaterThan(60);
    // Lower is better for an aggregate: some improved, some dropped.
    expect(changes.filter(([then, since]) => since < then).length).toBeGreaterThan(5);
    expect(changes.filter(([then, since]) => since > then).length).toBeGreaterThan(5);
  });

  it('S4 is on the new curriculum: its old-curriculum card is refused, saying where its card is', async () => {
    const response = await admin.in('demo-secondary').get(`/api/school/terminalreport?form=S4&term=${term}&year=${year}&json=1`);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toEqual({ form: [REPORT_MESSAGES.newCurriculumClass] });
  });

  it('S4 kept on the old curriculum: UCE aggregates of the best eight and divisions I to IV', async () => {
    const curricula = await admin
      .in('demo-secondary')
      .put('/api/school/curricula', { year, allow_zero: false, classes: [{ form: 'S4', curriculum: 'old' }] });
    expect(curricula.statusCode, curricula.body).toBe(200);
    const s4 = await model('demo-secondary', 'S4');
    expect(s4.report.level).toBe('olevel');
    const divisions = counts(s4.learners.map((learner) => learner.division));
    for (const division of ['I', 'II', 'III']) expect(divisions.get(division) ?? 0, division).toBeGreaterThan(0);
    expect(
      s4.learners.map((learner) => learner.aggregate).filter((aggregate) => aggregate !== null && (aggregate < 8 || aggregate > 72)),
    ).toEqual([]);
  });

  it('S6: A-level letters from the papers and points out of 20', async () => {
    const s6 = await model('demo-secondary', 'S6');
    expect(s6.report.level).toBe('alevel');
    const letters = new Set(
      s6.learners.flatMap((learner) =>
        learner.subjects.filter((subject) => subject.papers && subject.papers.length > 1).map((subject) => subject.grade),
      ),
    );
    for (const letter of ['A', 'B', 'C']) expect(letters.has(letter), letter).toBe(true);
    const points = s6.learners.map((learner) => learner.points ?? -1);
    expect(Math.max(...points)).toBeLessThanOrEqual(20);
    expect(Math.max(...points)).toBeGreaterThan(10);
    expect(s6.learners.every((learner) => learner.subjects.some((subject) => subject.subject === 'General Paper'))).toBe(true);
  });
});
