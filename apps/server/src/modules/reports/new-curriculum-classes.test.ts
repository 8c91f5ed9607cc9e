import { REPORT_MESSAGES, type ReportModel } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newMarkType, newSubject, ok } from '../settings/settings-fixtures.js';

/*
 * The old-curriculum report screens know the difference (issue 27 point 5): the terminal report
 * and the mark sheet of a class on the new curriculum that year (a secondary school's S1 to S4
 * by default) are refused with where its card is, never printed with divisions; S5 still
 * prints, a class the school keeps on the old curriculum prints again, a primary school is as
 * it was. The layout screen's sample card is of an old-curriculum class.
 */

let t: TestApp;
let head: Caller;
let primaryHead: Caller;
let s2: string;
let s5: string;
const YEAR = 2026;

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Two Curricula SS', schooltype: 'secondary' });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, user.email), school.tenantcode);
  const english = await newSubject(head, { category: 'english' });
  const bot = await newMarkType(head);
  for (const form of ['S2', 'S5']) ok(await head.post('/api/school/grades', gradeSet(english.id, { form, term: 'I', year: YEAR })));
  s2 = ok(await head.post('/api/school/students', { firstname: 'Grace', lastname: 'Akello', form: 'S2' })).id;
  s5 = ok(await head.post('/api/school/students', { firstname: 'Isaac', lastname: 'Okello', form: 'S5' })).id;
  for (const [learner, form] of [
    [s2, 'S2'],
    [s5, 'S5'],
  ] as const)
    await makeMarks(t.database, school.id, learner, [{ subjectId: english.id, marktypeId: bot.id, form, term: 'I', year: YEAR, mark: 71 }]);

  const primary = await makeTenant(t.database, { name: 'Two Curricula PS', schooltype: 'primary' });
  const primaryUser = await makeUser(t.database, { memberOf: [{ tenantId: primary.id, roles: ['headteacher'] }] });
  primaryHead = caller(t.app, await login(t.app, primaryUser.email), primary.tenantcode);
  const maths = await newSubject(primaryHead, { category: 'mathematics' });
  const eot = await newMarkType(primaryHead);
  ok(await primaryHead.post('/api/school/grades', gradeSet(maths.id, { form: 'P7', term: 'I', year: YEAR })));
  const p7 = ok(await primaryHead.post('/api/school/students', { firstname: 'Ruth', lastname: 'Nakato', form: 'P7' })).id;
  await makeMarks(t.database, primary.id, p7, [{ subjectId: maths.id, marktypeId: eot.id, form: 'P7', term: 'I', year: YEAR, mark: 64 }]);
});
afterAll(() => t?.close());

const queryOf = (form: string, more: Record<string, string> = {}) =>
  new URLSearchParams({ form, term: 'I', year: String(YEAR), ...more }).toString();
const terminalReport = (who: Caller, form: string, more: Record<string, string> = {}) =>
  who.get(`/api/school/terminalreport?${queryOf(form, more)}`);
const marksheet = (who: Caller, form: string, more: Record<string, string> = {}) =>
  who.get(`/api/school/marks/marksheet?${queryOf(form, more)}`);

/** A 422 naming the class, saying its card is the new curriculum's. */
function refusedAsNewCurriculum(response: { statusCode: number; body: string; json(): { errors?: Record<string, string[]> } }) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().errors).toEqual({ form: [REPORT_MESSAGES.newCurriculumClass] });
}

describe('a class on the new curriculum on the old-curriculum screens', () => {
  it('the terminal report of S2 is refused, naming the class, in every output and for one learner', async () => {
    for (const more of [{ json: '1' }, { html: '1' }, { pdf: '1' }, {}] as Array<Record<string, string>>)
      refusedAsNewCurriculum(await terminalReport(head, 'S2', more));
    refusedAsNewCurriculum(await terminalReport(head, 'S2', { json: '1', student_id: s2 }));
    // The class as typed in another case is the same class.
    refusedAsNewCurriculum(await terminalReport(head, 's2', { json: '1' }));
  });

  it('the mark sheet of S2 is refused the same, as a preview, a PDF and a workbook', async () => {
    for (const more of [{ html: '1' }, { pdf: '1' }, { excel: '1' }, {}] as Array<Record<string, string>>)
      refusedAsNewCurriculum(await marksheet(head, 'S2', more));
  });

  it('S5 (the old curriculum) still prints its card and mark sheet', async () => {
    const model: ReportModel = ok(await terminalReport(head, 'S5', { json: '1' }));
    expect(model.learners.map((learner) => learner.id)).toEqual([s5]);
    expect(model.report.level).toBe('alevel');
    expect(ok(await marksheet(head, 'S5', { html: '1' })).html).toContain('Okello');
  });

  it('the layout screen’s sample card is of an old-curriculum class (S5, not the newer marks’ S2)', async () => {
    const sample: ReportModel = ok(await head.get('/api/school/terminalreport/sample')).model;
    expect(sample.report).toMatchObject({ form: 'S5', term: 'I', year: YEAR });
  });

  it('a primary school is as it was: P7 prints', async () => {
    const model: ReportModel = ok(await terminalReport(primaryHead, 'P7', { json: '1' }));
    expect(model.report.level).toBe('primary');
    expect(model.learners).toHaveLength(1);
    expect(ok(await marksheet(primaryHead, 'P7', { html: '1' })).html).toContain('Nakato');
  });

  it('a school that keeps S2 on the old curriculum that year prints its S2 card and mark sheet again; another year’s S2 is still refused', async () => {
    ok(await head.put('/api/school/curricula', { year: YEAR, allow_zero: false, classes: [{ form: 'S2', curriculum: 'old' }] }));
    const model: ReportModel = ok(await terminalReport(head, 'S2', { json: '1', student_id: s2 }));
    expect(model.learners.map((learner) => learner.id)).toEqual([s2]);
    expect(model.report.level).toBe('olevel');
    expect(ok(await marksheet(head, 'S2', { html: '1' })).html).toContain('Akello');
    refusedAsNewCurriculum(
      await head.get(`/api/school/terminalreport?${new URLSearchParams({ form: 'S2', term: 'I', year: String(YEAR + 1), json: '1' })}`),
    );
  });
});
