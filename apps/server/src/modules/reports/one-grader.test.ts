import { markTypes, proportions, type ReportLearner, type ReportModel, type StudentResults } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newRemarkType, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * One grader (issue 23 items 1 to 4), on both databases: the report card (json=1) and the
 * learner's page grade the same marks the same way (a mark type out of 50, S5 papers); a total of
 * exactly 60 or 55 takes its band; a learner absent from one exam never ranks above a complete
 * one; a learner with no mark at all is X.
 */

let t: TestApp;
const YEAR = 2026;

interface School {
  id: string;
  head: Caller;
}

async function newSchool(schooltype: 'primary' | 'secondary'): Promise<School> {
  const tenant = await makeTenant(t.database, { schooltype });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles: ['headteacher'] }] });
  return { id: tenant.id, head: caller(t.app, await login(t.app, user.email), tenant.tenantcode) };
}

async function addLearner(tenantId: string, firstname: string, form: string): Promise<string> {
  const id = newId();
  await withTenant(t.database.db, { tenantId }, (trx) =>
    trx
      .insertInto('students')
      .values({ tenant_id: tenantId, id, studentid: `${form}/${firstname}`, firstname, lastname: 'Achan', form })
      .execute(),
  );
  return id;
}

const card = (school: School, query: Record<string, string | number>) =>
  school.head.get(
    `/api/school/terminalreport?${new URLSearchParams(Object.entries({ term: 'I', year: YEAR, json: 1, ...query }).map(([k, v]): [string, string] => [k, String(v)]))}`,
  );
const page = (school: School, learner: string) => school.head.get(`/api/school/students/${learner}/results`);
const named = (model: ReportModel, first: string) => model.learners.find((each) => each.fullname.startsWith(first)) as ReportLearner;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

describe('a primary class', () => {
  let school: School;
  let subjects: Row[];
  let bot: Row;
  let mot: Row;
  let eot: Row;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    school = await newSchool('primary');
    const { head } = school;
    subjects = [
      await newSubject(head, { name: 'English', category: 'english', position: 1 }),
      await newSubject(head, { name: 'Mathematics', category: 'mathematics', position: 2 }),
      await newSubject(head, { name: 'Science', category: 'science', position: 3 }),
      await newSubject(head, { name: 'Social Studies', category: 'humanity', position: 4 }),
    ];
    bot = ok(await head.post(markTypes.path, { label: 'BOT', category: 'test', position: 1, outof: 50 }));
    mot = ok(await head.post(markTypes.path, { label: 'MOT', category: 'test', position: 2 }));
    eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 3 }));
    for (const subject of subjects) {
      ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P7', term: 'I', year: YEAR })));
      for (const [type, percentage] of [
        [bot, 20],
        [mot, 20],
        [eot, 60],
      ] as const) {
        ok(
          await head.post(proportions.path, {
            form: 'P7',
            term: 'I',
            year: YEAR,
            subject_id: subject.id,
            marktype_id: type.id,
            percentage,
          }),
        );
      }
    }
    for (const name of ['Edge', 'Complete', 'Absent', 'Nothing']) ids[name] = await addLearner(school.id, name, 'P7');
    /** Marks of a learner: per subject BOT (out of 50), MOT, EOT. */
    const write = (learner: string, bySubject: Array<[number | 'ABS', number | 'ABS', number | 'ABS']>) =>
      makeMarks(
        t.database,
        school.id,
        ids[learner] as string,
        bySubject.flatMap((values, index) =>
          [bot, mot, eot].map((type, at) => ({
            subjectId: (subjects[index] as Row).id,
            marktypeId: type.id,
            form: 'P7',
            term: 'I',
            year: YEAR,
            mark: values[at] as number | 'ABS',
          })),
        ),
      );
    // Edge: English BOT 29/50 (58%), MOT 68, EOT 58 at 20/20/60 = 60 exactly (C5); Social
    // Studies 26.5/50 (53%), 51, 57 = 55 exactly (C6). BOT 40/50 in Mathematics is 80%: D1.
    await write('Edge', [
      [29, 68, 58],
      [40, 80, 80],
      [40, 80, 80],
      [26.5, 51, 57],
    ]);
    await write('Complete', [
      [41, 82, 82],
      [41, 82, 82],
      [41, 82, 82],
      [41, 82, 82],
    ]);
    // 90s in three subjects, absent from every Social Studies exam: Division X.
    await write('Absent', [
      [45, 90, 90],
      [45, 90, 90],
      [45, 90, 90],
      ['ABS', 'ABS', 'ABS'],
    ]);
  });

  it('totals exactly on a band edge take that band, and the division follows (item 1)', async () => {
    const model: ReportModel = ok(await card(school, { form: 'P7' }));
    const edge = named(model, 'Edge');
    expect(edge.subjects.map((subject) => [subject.subject, subject.total, subject.grade])).toEqual([
      ['English', 60, 'C5'],
      ['Mathematics', 80, 'D1'],
      ['Science', 80, 'D1'],
      ['Social Studies', 55, 'C6'],
    ]);
    // 5 + 1 + 1 + 6 = 13: Division II, not the III a floating-point 54.99 (P7) would make.
    expect([edge.aggregate, edge.division]).toEqual([13, 'II']);
    expect(JSON.stringify(edge.subjects[0]?.explain)).not.toMatch(/57\.99|59\.99/);
  });

  it('the learner’s page grades a mark out of 50 as the card does (item 2)', async () => {
    const results: StudentResults = ok(await page(school, ids.Edge as string));
    const botExam = results.results[0]?.exams.find((exam) => exam.marktype_id === bot.id);
    const maths = botExam?.subjects.find((subject) => subject.subject === 'Mathematics');
    expect(maths).toMatchObject({ mark: 40, score: 'D1' });
    const botCard: ReportModel = ok(await card(school, { form: 'P7', marktype_id: bot.id }));
    const cardGrades = named(botCard, 'Edge').subjects.map((subject) => [subject.subject, subject.grade]);
    expect(botExam?.subjects.map((subject) => [subject.subject, subject.score])).toEqual(cardGrades);
  });

  it('ranks by aggregate: four D1s first, the learner absent from an exam after every complete result (item 3)', async () => {
    const model: ReportModel = ok(await card(school, { form: 'P7' }));
    const rank = (first: string) => [named(model, first).position.class, named(model, first).position.of];
    expect([rank('Complete'), rank('Edge'), rank('Absent'), rank('Nothing')]).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
      [null, 3],
    ]);
    expect(named(model, 'Absent').explain.position.class.code).toBe('position.incompleteAfter');
  });

  it('the school chooses: incomplete results unranked, or ranks by average; rules saved before positions existed keep the default (item 3)', async () => {
    const { rules, version } = ok(await school.head.get('/api/school/gradingrules'));
    expect(rules.positions).toEqual({ basis: 'result', incomplete: 'after' });
    const saved = ok(
      await school.head.put('/api/school/gradingrules', {
        rules: { ...rules, positions: { basis: 'result', incomplete: 'unranked' } },
        version,
      }),
    );
    const model: ReportModel = ok(await card(school, { form: 'P7' }));
    expect(['Complete', 'Edge', 'Absent'].map((first) => [named(model, first).position.class, named(model, first).position.of])).toEqual([
      [1, 2],
      [2, 2],
      [null, 2],
    ]);
    expect(
      (await school.head.put('/api/school/gradingrules', { rules: { ...rules, positions: { basis: 'best' } }, version: saved.version }))
        .statusCode,
    ).toBe(422);
    // A row saved before the rule existed (no `positions`) reads with the default, not the guide's whole defaults.
    const { positions: _dropped, ...older } = { ...rules, olevel: { ...rules.olevel, bestCount: 7 } };
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .updateTable('report_settings')
        .set({ grading_rules: JSON.stringify(older) })
        .where('tenant_id', '=', school.id)
        .execute(),
    );
    const reread = ok(await school.head.get('/api/school/gradingrules'));
    expect([reread.rules.olevel.bestCount, reread.rules.positions]).toEqual([7, { basis: 'result', incomplete: 'after' }]);
  });

  it('a learner with no mark at all is X, like one absent from every exam (item 4)', async () => {
    const model: ReportModel = ok(await card(school, { form: 'P7' }));
    expect([named(model, 'Nothing').aggregate, named(model, 'Nothing').division]).toEqual([null, 'X']);
    expect([named(model, 'Absent').aggregate, named(model, 'Absent').division]).toEqual([null, 'X']);
  });
});

describe('an S5 class written in papers', () => {
  it('the learner’s page shows the card’s paper grades, subject total and letter (item 2)', async () => {
    const school = await newSchool('secondary');
    const { head } = school;
    const physics = await newSubject(head, {
      name: 'Physics',
      category: 'science',
      position: 1,
      multiple_papers: true,
      multiple_paper_forms: 'S5,S6',
    });
    const gp = await newSubject(head, { name: 'General Paper', category: 'general', position: 2 });
    const eot: Row = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
    for (const subject of [physics, gp])
      ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'S5', term: 'I', year: YEAR })));
    const learner = await addLearner(school.id, 'Paper', 'S5');
    await makeMarks(t.database, school.id, learner, [
      { subjectId: physics.id, marktypeId: eot.id, form: 'S5', term: 'I', year: YEAR, mark: 62, paper: 'I' },
      { subjectId: physics.id, marktypeId: eot.id, form: 'S5', term: 'I', year: YEAR, mark: 81, paper: 'II' },
      { subjectId: gp.id, marktypeId: eot.id, form: 'S5', term: 'I', year: YEAR, mark: 70 },
    ]);
    const model: ReportModel = ok(await card(school, { form: 'S5', marktype_id: eot.id }));
    const onCard = named(model, 'Paper').subjects.find((subject) => subject.subject === 'Physics');
    const results: StudentResults = ok(await page(school, learner));
    const onPage = results.results[0]?.exams[0]?.subjects.find((subject) => subject.subject === 'Physics');
    expect(onCard).toMatchObject({ total: 71.5, grade: 'D' });
    expect(onPage).toMatchObject({ total: onCard?.total, score: onCard?.grade });
    expect(onPage?.papers?.map((paper) => [paper.paper, paper.score])).toEqual(onCard?.papers?.map((paper) => [paper.paper, paper.grade]));
  });
});

describe('the missed-test rule and the rounding rule (issue 24 point 4)', () => {
  let school: School;
  let subjects: Row[];
  let classType: Row;
  let version = 0;
  let saved: Record<string, unknown>;

  /** Saves the school's rules with `missed` and `rounding` as given. */
  async function choose(rules: { missed?: string; rounding?: string }) {
    const answer = ok(await school.head.put('/api/school/gradingrules', { rules: { ...saved, ...rules }, version }));
    version = answer.version;
    return answer;
  }
  const model = async (): Promise<ReportModel> => ok(await card(school, { form: 'P7' }));
  const subjectOf = (learner: ReportLearner, name: string) => learner.subjects.find((subject) => subject.subject === name);
  /** The automatic class teacher's comment suggested to a learner on Report comments. */
  async function suggested(first: string): Promise<string | undefined> {
    const answer = ok(await school.head.get(`/api/school/remarks?form=P7&term=I&year=${YEAR}&category=exam`));
    const learner = answer.students.find((student: { firstname: string }) => student.firstname === first);
    return learner?.suggestions[`rt_${classType.id}`];
  }

  beforeAll(async () => {
    school = await newSchool('primary');
    const { head } = school;
    subjects = [
      await newSubject(head, { name: 'English', category: 'english', position: 1 }),
      await newSubject(head, { name: 'Mathematics', category: 'mathematics', position: 2 }),
      await newSubject(head, { name: 'Science', category: 'science', position: 3 }),
      await newSubject(head, { name: 'Social Studies', category: 'humanity', position: 4 }),
    ];
    const types = [
      ok(await head.post(markTypes.path, { label: 'BOT', category: 'test', position: 1 })),
      ok(await head.post(markTypes.path, { label: 'MOT', category: 'test', position: 2 })),
      ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 3 })),
    ] as Row[];
    for (const subject of subjects) {
      ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P7', term: 'I', year: YEAR })));
      for (const [type, percentage] of [
        [types[0], 20],
        [types[1], 30],
        [types[2], 50],
      ] as const) {
        ok(
          await head.post(proportions.path, {
            form: 'P7',
            term: 'I',
            year: YEAR,
            subject_id: subject.id,
            marktype_id: (type as Row).id,
            percentage,
          }),
        );
      }
    }
    const write = async (first: string, bySubject: Array<[number | 'ABS', number | 'ABS', number | 'ABS']>) =>
      makeMarks(
        t.database,
        school.id,
        await addLearner(school.id, first, 'P7'),
        bySubject.flatMap((values, index) =>
          types.map((type, at) => ({
            subjectId: (subjects[index] as Row).id,
            marktypeId: type.id,
            form: 'P7',
            term: 'I',
            year: YEAR,
            mark: values[at] as number | 'ABS',
          })),
        ),
      );
    // Missed: English BOT 60, MOT absent, EOT 70; 85 (D1) elsewhere.
    await write('Missed', [
      [60, 'ABS', 70],
      [85, 85, 85],
      [85, 85, 85],
      [85, 85, 85],
    ]);
    // Steady: 78 (D2) everywhere, aggregate 8.
    await write('Steady', [
      [78, 78, 78],
      [78, 78, 78],
      [78, 78, 78],
      [78, 78, 78],
    ]);
    // Edge: English 59.8, 60, 60 at 20/30/50 is 59.96 exactly; Mathematics 59.5 in each exam is 59.5.
    await write('Edge', [
      [59.8, 60, 60],
      [59.5, 59.5, 59.5],
      [85, 85, 85],
      [85, 85, 85],
    ]);
    classType = await newRemarkType(head, { label: "Class teacher's comment", position: 1 });
    for (const [score, upper, comment] of [
      [4, 7, 'Excellent, {name}.'],
      [8, 12, 'Very good, {name}.'],
    ] as const) {
      ok(await head.post('/api/school/autoreportcomments', { form: 'P7', remarktype_id: classType.id, score, upper, comment }));
    }
    const current = ok(await head.get('/api/school/gradingrules'));
    saved = current.rules;
    version = current.version;
  });

  it('by default a learner who missed MOT is graded on BOT and EOT re-weighted: (12 + 35) / 70 x 100 = 67.14, C4, first', async () => {
    const { rules } = ok(await school.head.get('/api/school/gradingrules'));
    expect([rules.missed, rules.rounding]).toEqual(['reweight', 'none']);
    const missed = named(await model(), 'Missed');
    expect(subjectOf(missed, 'English')).toMatchObject({ total: 67.14, grade: 'C4', missed: ['MOT'], marks: { MOT: 'ABS' } });
    expect(subjectOf(missed, 'Mathematics')?.missed).toEqual([]);
    expect(subjectOf(missed, 'English')?.explain.total.code).toBe('subjectTotal.reweighted');
    // 4 + 1 + 1 + 1 = 7: Division I, ahead of the steady D2s (8).
    expect([missed.aggregate, missed.division, missed.position.class]).toEqual([7, 'I', 1]);
    expect(await suggested('Missed')).toBe('Excellent, Missed.');
  });

  it('`zero`: the missed MOT counts 0: 12 + 0 + 35 = 47, P7; aggregate 10, behind the steady learner, the comment follows', async () => {
    await choose({ missed: 'zero' });
    const all = await model();
    const missed = named(all, 'Missed');
    expect(subjectOf(missed, 'English')).toMatchObject({ total: 47, grade: 'P7', missed: ['MOT'] });
    expect([missed.aggregate, missed.division, missed.position.class, named(all, 'Steady').position.class]).toEqual([10, 'I', 2, 1]);
    expect(await suggested('Missed')).toBe('Very good, Missed.');
  });

  it('`none`: no English total, Division X, after every complete result, and no automatic comment', async () => {
    await choose({ missed: 'none' });
    const all = await model();
    const missed = named(all, 'Missed');
    expect(subjectOf(missed, 'English')).toMatchObject({ total: null, grade: null, missed: [] });
    expect([missed.aggregate, missed.division, missed.position.class, missed.position.of]).toEqual([null, 'X', 3, 3]);
    expect(missed.explain.position.class.code).toBe('position.incompleteAfter');
    expect(await suggested('Missed')).toBeUndefined();
  });

  it('rounding on a band edge: none grades 59.96 as C6; one decimal prints 60 C5; whole prints 60 C5 and 59.5 as 60 C5', async () => {
    await choose({ missed: 'reweight', rounding: 'none' });
    const marks = (learner: ReportLearner) =>
      ['English', 'Mathematics'].map((name) => {
        const subject = subjectOf(learner, name);
        return [name, subject?.total, subject?.grade];
      });
    let edge = named(await model(), 'Edge');
    expect(marks(edge)).toEqual([
      ['English', 59.96, 'C6'],
      ['Mathematics', 59.5, 'C6'],
    ]);
    // C6 + C6 + D1 + D1 = 14.
    expect(edge.aggregate).toBe(14);

    await choose({ rounding: 'oneDecimal' });
    edge = named(await model(), 'Edge');
    expect(marks(edge)).toEqual([
      ['English', 60, 'C5'],
      ['Mathematics', 59.5, 'C6'],
    ]);
    expect(subjectOf(edge, 'English')?.explain.total.code).toBe('subjectTotal.rounded');
    expect(edge.aggregate).toBe(13);

    await choose({ rounding: 'whole' });
    edge = named(await model(), 'Edge');
    expect(marks(edge)).toEqual([
      ['English', 60, 'C5'],
      ['Mathematics', 60, 'C5'],
    ]);
    // 5 + 5 + 1 + 1 = 12: Division I; the total is of the marks printed, 60 + 60 + 85 + 85.
    expect([edge.aggregate, edge.division, edge.total]).toEqual([12, 'I', 290]);
    // The re-weighted 67.14 is printed 67, still C4.
    expect(subjectOf(named(await model(), 'Missed'), 'English')).toMatchObject({ total: 67, grade: 'C4' });
  });

  it('an unknown rule is refused in words and nothing is saved; rules saved before the two rules read with the defaults', async () => {
    const refused = await school.head.put('/api/school/gradingrules', { rules: { ...saved, missed: 'average', rounding: 2 }, version });
    expect(refused.statusCode).toBe(422);
    expect(JSON.stringify(refused.json())).toContain('Choose how a missed mark type counts from the list');
    expect(JSON.stringify(refused.json())).toContain('Choose how the subject mark is rounded from the list');
    const { rules: kept } = ok(await school.head.get('/api/school/gradingrules'));
    expect([kept.missed, kept.rounding]).toEqual(['reweight', 'whole']);
    const { missed: _missed, rounding: _rounding, ...older } = kept;
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .updateTable('report_settings')
        .set({ grading_rules: JSON.stringify(older) })
        .where('tenant_id', '=', school.id)
        .execute(),
    );
    const { rules } = ok(await school.head.get('/api/school/gradingrules'));
    expect([rules.missed, rules.rounding]).toEqual(['reweight', 'none']);
    expect(subjectOf(named(await model(), 'Missed'), 'English')).toMatchObject({ total: 67.14, grade: 'C4', missed: ['MOT'] });
  });
});
