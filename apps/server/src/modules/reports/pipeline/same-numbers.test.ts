import type { ReportModel, StudentResults } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../../test/test-app.js';
import { gradeSet, newMarkType, newSubject, ok } from '../../settings/settings-fixtures.js';
import { type SourceName, sourceReads } from './sources.js';

/*
 * One grading path (issue 25 points 2 to 4): the learner's page and the report card give the
 * same numbers for a mark type out of 50 and for S5 papers; the mark sheet and the comments
 * screens read only the sources they show, the card every one it prints.
 */

let t: TestApp;
let head: Caller;
let english: { id: string };
let physics: { id: string };
let bot: { id: string; label: string };
let s2: string;
let s5: string;
const YEAR = 2026;

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Same Numbers SS', schooltype: 'secondary' });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, user.email), school.tenantcode);
  // An older cohort: S2 on the old curriculum this year, graded by its grade set on the card and the page alike.
  ok(await head.put('/api/school/curricula', { year: YEAR, allow_zero: false, classes: [{ form: 'S2', curriculum: 'old' }] }));
  english = await newSubject(head, { category: 'english' });
  physics = await newSubject(head, { multiple_papers: true, multiple_paper_forms: 'S5,S6' });
  bot = await newMarkType(head);
  // BOT is out of 50: 40 is 80%.
  await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx.updateTable('mark_types').set({ outof: 50 }).where('id', '=', bot.id).execute(),
  );
  ok(await head.post('/api/school/grades', gradeSet(english.id, { form: 'S2', term: 'I', year: YEAR })));
  ok(await head.post('/api/school/grades', gradeSet(physics.id, { form: 'S5', term: 'I', year: YEAR })));
  s2 = ok(await head.post('/api/school/students', { firstname: 'Grace', lastname: 'Akello', form: 'S2' })).id;
  s5 = ok(await head.post('/api/school/students', { firstname: 'Isaac', lastname: 'Okello', form: 'S5' })).id;
  await makeMarks(t.database, school.id, s2, [{ subjectId: english.id, marktypeId: bot.id, form: 'S2', term: 'I', year: YEAR, mark: 40 }]);
  await makeMarks(
    t.database,
    school.id,
    s5,
    [
      ['I', 40],
      ['II', 31.3],
    ].map(([paper, mark]) => ({
      subjectId: physics.id,
      marktypeId: bot.id,
      form: 'S5',
      term: 'I',
      year: YEAR,
      paper: paper as string,
      mark: mark as number,
    })),
  );
});
afterAll(() => t?.close());

const card = async (form: string, studentId: string) => {
  const query = new URLSearchParams({ form, term: 'I', year: String(YEAR), marktype_id: bot.id, json: '1' });
  const model: ReportModel = ok(await head.get(`/api/school/terminalreport?${query}`));
  return model.learners.find((learner) => learner.id === studentId);
};
const page = async (studentId: string) => {
  const results: StudentResults = ok(await head.get(`/api/school/students/${studentId}/results`));
  return results.results[0]?.exams[0]?.subjects[0];
};

describe('the learner page and the report card give the same numbers', () => {
  it('a mark type out of 50: 40 is 80%, D1 on both', async () => {
    const onCard = (await card('S2', s2))?.subjects[0];
    const onPage = await page(s2);
    expect(onCard).toMatchObject({ total: 80, grade: 'D1' });
    expect(onPage).toMatchObject({ mark: 40, score: onCard?.grade });
  });

  it("S5 papers: each paper's grade and the subject's total (the papers' mean) as the card has them", async () => {
    const onCard = (await card('S5', s5))?.subjects[0];
    const onPage = await page(s5);
    // 40/50 is 80% (D1), 31.3/50 is 62.6% (C5): the mean 71.3.
    expect(onCard?.papers).toEqual([
      { paper: 'I', mark: 80, grade: 'D1' },
      { paper: 'II', mark: 62.6, grade: 'C5' },
    ]);
    expect(onCard?.total).toBe(71.3);
    expect(onPage?.total).toBe(onCard?.total);
    expect(onPage?.papers?.map((paper) => [paper.paper, paper.mark, paper.score])).toEqual([
      ['I', 40, 'D1'],
      ['II', 31.3, 'C5'],
    ]);
    expect(onPage?.score).toBe(onCard?.grade);
  });
});

describe('each screen reads only the sources it shows', () => {
  const readBy = async (url: string) => {
    const before = { ...sourceReads };
    ok(await head.get(url));
    return (Object.keys(sourceReads) as SourceName[]).filter((name) => sourceReads[name] > before[name]).sort();
  };
  const where = `form=S2&term=I&year=${YEAR}`;

  it('the mark sheet reads the grade key alone; the card every source it prints', async () => {
    expect(await readBy(`/api/school/marks/marksheet?${where}&html=1`)).toEqual(['gradeKey']);
    expect(await readBy(`/api/school/terminalreport?${where}&json=1`)).toEqual(
      ['attendance', 'badge', 'fees', 'footers', 'gradeKey', 'initials', 'photos', 'remarks', 'subjectComments', 'termDates'].sort(),
    );
  });

  it('the comments screens read none: no remarks, footers, attendance or photos', async () => {
    expect(await readBy(`/api/school/markcomments?${where}&subject_id=${english.id}`)).toEqual([]);
    expect(await readBy(`/api/school/remarks?${where}`)).toEqual([]);
  });
});
