import { defaultTermDates, localDay, TERMS } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Trx, withTenant } from '../db/tenant.js';
import { DEMO_TEACHER_EMAIL } from '../seed/demo.js';
import { AOI_MARK_TYPES, COMPETENCIES, PROJECT_MAX_SCORE, seedDemoCurriculum } from '../seed/demo-curriculum.js';
import { marksTerm, sits } from '../seed/demo-marks.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';

/*
 * The demo's new curriculum (issue 26 point 7): after the seed, demo-secondary's S1 to S4 have
 * three or four competencies per subject in every term, AOI scores of the marks term for every
 * learner (1 to 3, a few ABS), a project per subject in S3 and S4 with a score and comment for
 * each learner, and the demo teacher enters S2 English Language competency scores; the primary
 * school has none of it; seeding again adds nothing.
 */

let t: TestApp;
let teacher: Caller;
const MARKS = marksTerm(localDay(), defaultTermDates);
const YEAR = new Date().getFullYear();
const FORMS = ['S1', 'S2', 'S3', 'S4'];
const AOI_LABELS = AOI_MARK_TYPES.map((type) => type.label);

beforeAll(async () => {
  t = await buildTestApp({}, { demo: true });
  teacher = caller(t.app, await login(t.app, DEMO_TEACHER_EMAIL, t.config.demoPassword), 'demo-secondary');
});
afterAll(() => t?.close());

async function tenantOf(school: string): Promise<string> {
  return (await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', school).executeTakeFirstOrThrow()).id;
}

/** Work in a demo school's tenant, as the app does (row-level security on). */
async function inSchool<T>(school: string, work: (trx: Trx, tenantId: string) => Promise<T>): Promise<T> {
  const tenantId = await tenantOf(school);
  return withTenant(t.database.db, { tenantId }, (trx) => work(trx, tenantId));
}

/** Each class's subjects (its grade sets of the year), by class. */
const subjectsByClass = (trx: Trx) =>
  trx
    .selectFrom('grades as g')
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'g.tenant_id').onRef('s.id', '=', 'g.subject_id'))
    .select(['g.form', 's.id', 's.name'])
    .distinct()
    .where('g.year', '=', YEAR)
    .where('g.form', 'in', FORMS)
    .execute();

/** The term's AOI scores, with the learner, subject and competency. */
const aoiScores = (trx: Trx) =>
  trx
    .selectFrom('marks as m')
    .innerJoin('topics as c', (join) => join.onRef('c.tenant_id', '=', 'm.tenant_id').onRef('c.id', '=', 'm.topic_id'))
    .innerJoin('mark_types as k', (join) => join.onRef('k.tenant_id', '=', 'm.tenant_id').onRef('k.id', '=', 'm.marktype_id'))
    .innerJoin('students as l', (join) => join.onRef('l.tenant_id', '=', 'm.tenant_id').onRef('l.id', '=', 'm.student_id'))
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'm.tenant_id').onRef('s.id', '=', 'm.subject_id'))
    .select([
      'm.student_id',
      'l.studentid',
      'm.form',
      'm.stream',
      'l.stream as learner_stream',
      'c.form as topic_form',
      'c.term as topic_term',
    ])
    .select(['s.name as subject', 'k.label', 'm.topic_id', 'm.absent', 'm.paper', 'm.user_id'])
    .select(sql<number | null>`m.mark::float8`.as('mark'))
    .where('m.term', '=', MARKS.term)
    .where('m.year', '=', MARKS.year)
    .execute();

/** How many rows the new curriculum's tables hold in a school, and its AOI mark types. */
const counts = (trx: Trx) =>
  Promise.all([
    trx.selectFrom('topics').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    trx.selectFrom('marks').select(sql<number>`count(*)::int`.as('n')).where('topic_id', 'is not', null).executeTakeFirstOrThrow(),
    trx.selectFrom('projects').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    trx.selectFrom('project_scores').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    trx.selectFrom('mark_types').select(sql<number>`count(*)::int`.as('n')).where('label', 'in', AOI_LABELS).executeTakeFirstOrThrow(),
  ]).then((rows) => rows.map((row) => row.n));

describe('the secondary demo’s new curriculum', () => {
  it('has AOI 1 and AOI 2 for the activities of integration, assessments out of 3', async () => {
    const types = await inSchool('demo-secondary', (trx) =>
      trx
        .selectFrom('mark_types')
        .select(['label', 'category', 'outof', 'status'])
        .where('label', 'in', AOI_LABELS)
        .orderBy('label')
        .execute(),
    );
    expect(types).toEqual(AOI_LABELS.map((label) => ({ label, category: 'assesment', outof: 3, status: 'active' })));
  });

  it('gives every subject of S1 to S4 three or four competencies in each term, by the syllabus’s titles', async () => {
    await inSchool('demo-secondary', async (trx) => {
      const subjects = await subjectsByClass(trx);
      const topics = await trx.selectFrom('topics').select(['form', 'term', 'subject_id', 'title', 'remarks']).execute();
      expect(new Set(topics.map((topic) => topic.form))).toEqual(new Set(FORMS));
      // Every O-level subject of every class: the seven of the core and the six electives.
      expect(subjects).toHaveLength(4 * 13);
      for (const { form, id, name } of subjects) {
        for (const term of TERMS) {
          const titles = topics
            .filter((topic) => topic.form === form && topic.subject_id === id && topic.term === term)
            .map((topic) => topic.title);
          expect(titles.length, `${form} ${name} ${term}`).toBeGreaterThanOrEqual(3);
          expect(titles.length, `${form} ${name} ${term}`).toBeLessThanOrEqual(4);
          expect(new Set(titles).size).toBe(titles.length);
        }
      }
      const maths = subjects.find((subject) => subject.form === 'S1' && subject.name === 'Mathematics')!;
      expect(
        topics.filter((topic) => topic.form === 'S1' && topic.subject_id === maths.id && topic.term === 'I').map((topic) => topic.title),
      ).toEqual(expect.arrayContaining(['Number bases', 'Working with integers', 'Fractions, percentages and decimals']));
    });
  });

  it('scores every learner of S1 to S4 in every competency of the term of each subject they sit: 1 to 3, one decimal at most, a few ABS', async () => {
    await inSchool('demo-secondary', async (trx) => {
      const learners = await trx
        .selectFrom('students')
        .select(['id', 'studentid', 'form'])
        .where('status', '=', 'active')
        .where('form', 'in', FORMS)
        .execute();
      const topics = await trx.selectFrom('topics').select(['id', 'form', 'subject_id']).where('term', '=', MARKS.term).execute();
      const subjects = await subjectsByClass(trx);
      const scores = await aoiScores(trx);
      expect(learners).toHaveLength(4 * 2 * 40);
      // Each learner's scored competencies are exactly those of the subjects they sit.
      const scored = new Map<string, Set<string>>();
      for (const score of scores) scored.set(score.student_id, (scored.get(score.student_id) ?? new Set()).add(score.topic_id!));
      for (const learner of learners) {
        const sat = subjects.filter((subject) => subject.form === learner.form && sits(learner, subject.name)).map((subject) => subject.id);
        expect(sat, learner.studentid).toHaveLength(8);
        const expected = topics.filter((topic) => topic.form === learner.form && sat.includes(topic.subject_id)).map((topic) => topic.id);
        expect([...(scored.get(learner.id) ?? [])].sort(), learner.studentid).toEqual(expected.sort());
      }
      for (const score of scores) {
        expect([score.topic_form, score.topic_term, score.paper]).toEqual([score.form, MARKS.term, 'I']);
        expect(score.stream).toBe(score.learner_stream);
        expect(AOI_LABELS).toContain(score.label);
        expect(score.user_id).toBeTruthy();
      }
      // AOI 1 in every competency; AOI 2 too in each subject's first one: several activities, averaged.
      expect(scores.filter((score) => score.label === 'AOI 1').length).toBeGreaterThan(scores.length / 2);
      expect(scores.filter((score) => score.label === 'AOI 2').length).toBeGreaterThan(0);

      const absent = scores.filter((score) => score.absent);
      expect(absent.length).toBeGreaterThan(0);
      expect(absent.every((score) => score.mark === null)).toBe(true);
      expect(absent.length / scores.length).toBeLessThan(0.04);
      const numbers = scores.filter((score) => !score.absent).map((score) => score.mark as number);
      expect(numbers.every((mark) => mark >= 1 && mark <= 3 && Number.isInteger(Math.round(mark * 10 * 1e6) / 1e6))).toBe(true);
      // A realistic spread: mostly 1.5 to 3, some at the top and a few at the bottom, some whole.
      expect(numbers.filter((mark) => mark >= 1.5).length / numbers.length).toBeGreaterThan(0.85);
      expect(numbers.some((mark) => mark === 3) && numbers.some((mark) => mark < 1.5)).toBe(true);
      expect(numbers.filter((mark) => Number.isInteger(mark)).length / numbers.length).toBeGreaterThan(0.1);
      const mean = numbers.reduce((sum, mark) => sum + mark, 0) / numbers.length;
      expect(mean).toBeGreaterThan(1.9);
      expect(mean).toBeLessThan(2.6);
      expect(new Set(numbers).size).toBeGreaterThan(10);
    });
  });

  it('has one project per subject in S3 and S4 for the term, out of 10, and a score and comment for every learner who sits it', async () => {
    await inSchool('demo-secondary', async (trx) => {
      const subjects = (await subjectsByClass(trx)).filter((subject) => ['S3', 'S4'].includes(subject.form));
      const projects = await trx
        .selectFrom('projects')
        .select(['id', 'form', 'subject_id', 'term', 'year', 'title', 'max_score'])
        .execute();
      expect(projects.map((project) => `${project.form}|${project.subject_id}`).sort()).toEqual(
        subjects.map((subject) => `${subject.form}|${subject.id}`).sort(),
      );
      for (const project of projects) {
        expect([project.term, project.year, project.max_score]).toEqual([MARKS.term, MARKS.year, PROJECT_MAX_SCORE]);
        expect(project.title.length).toBeGreaterThan(10);
      }
      const learners = await trx.selectFrom('students').select(['id', 'studentid', 'form']).where('form', 'in', ['S3', 'S4']).execute();
      const scores = await trx
        .selectFrom('project_scores')
        .select(['project_id', 'student_id', 'comment', 'user_id', sql<number | null>`score::float8`.as('score')])
        .execute();
      const expected = projects.flatMap((project) => {
        const subject = subjects.find((row) => row.id === project.subject_id && row.form === project.form)!;
        return learners
          .filter((learner) => learner.form === project.form && sits(learner, subject.name))
          .map((learner) => `${project.id}|${learner.id}`);
      });
      expect(expected).toHaveLength(2 * 80 * 8);
      expect(scores.map((score) => `${score.project_id}|${score.student_id}`).sort()).toEqual(expected.sort());
      for (const score of scores) {
        expect(score.score).not.toBeNull();
        expect(score.score! >= 0 && score.score! <= PROJECT_MAX_SCORE && Number.isInteger(Math.round(score.score! * 10 * 1e6) / 1e6)).toBe(
          true,
        );
        expect(score.comment?.length).toBeGreaterThan(5);
        expect(score.user_id).toBeTruthy();
      }
      const values = scores.map((score) => score.score!);
      expect(new Set(values).size).toBeGreaterThan(20);
      expect(new Set(scores.map((score) => score.comment)).size).toBeGreaterThan(5);
    });
  });

  it('lets the demo teacher enter S2 English Language competency scores: their subject in both streams, the term’s competencies, the grid', async () => {
    const { english, topics, aoi, assigned } = await inSchool('demo-secondary', async (trx) => {
      const english = await trx.selectFrom('subjects').select('id').where('name', '=', 'English Language').executeTakeFirstOrThrow();
      const user = await trx.selectFrom('users').select('id').where('email', '=', DEMO_TEACHER_EMAIL).executeTakeFirstOrThrow();
      return {
        english,
        topics: await trx
          .selectFrom('topics')
          .select(['id', 'title'])
          .where('form', '=', 'S2')
          .where('subject_id', '=', english.id)
          .where('term', '=', MARKS.term)
          .execute(),
        aoi: await trx.selectFrom('mark_types').select(['id', 'label']).where('label', 'in', AOI_LABELS).orderBy('label').execute(),
        assigned: await trx
          .selectFrom('subject_teachers')
          .select(['stream'])
          .where('user_id', '=', user.id)
          .where('form', '=', 'S2')
          .where('subject_id', '=', english.id)
          .where('term', '=', MARKS.term)
          .where('year', '=', MARKS.year)
          .execute(),
      };
    });
    expect(assigned.map((row) => row.stream).sort()).toEqual(['A', 'B']);
    expect(topics.length).toBeGreaterThanOrEqual(3);
    expect(topics.map((topic) => topic.title)).toEqual(
      expect.arrayContaining([...COMPETENCIES['English Language']!.S2[TERMS.indexOf(MARKS.term)]!]),
    );

    // The grid of a competency without AOI 2 yet: AOI 1 filled, AOI 2 to enter.
    const place = { form: 'S2', stream: 'B', term: MARKS.term, year: MARKS.year, subject_id: english.id, paper: 'I' };
    const marktypes = aoi.map((type) => type.id);
    const grids = await Promise.all(
      topics.map((topic) => teacher.post('/api/school/marks/grid', { ...place, topic_id: topic.id, marktypes })),
    );
    for (const response of grids) expect(response.statusCode, response.body).toBe(200);
    type Grid = { students: Array<{ student: { id: string }; marktypes: Record<string, { mark: unknown }> }> };
    const answers: Grid[] = grids.map((response) => response.json());
    const [aoi1, aoi2] = aoi.map((type) => type.id) as [string, string];
    const index = answers.findIndex((grid) => grid.students.every((row) => !(aoi2 in row.marktypes)));
    expect(index, 'a competency with AOI 2 left to enter').toBeGreaterThanOrEqual(0);
    const open = answers[index]!;
    expect(open.students).toHaveLength(40);
    expect(open.students.filter((row) => aoi1 in row.marktypes)).toHaveLength(40);

    // The teacher enters an AOI 2 score, and the grid shows it.
    const learner = open.students[0]!.student.id;
    const saved = await teacher.post('/api/school/marks', {
      ...place,
      topic_id: topics[index]!.id,
      save_id: crypto.randomUUID(),
      marks: { [aoi2]: { [learner]: 2.5 } },
      base: {},
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const again = await teacher.post('/api/school/marks/grid', { ...place, topic_id: topics[index]!.id, marktypes });
    const row = (again.json() as Grid).students.find((entry) => entry.student.id === learner)!;
    expect(row.marktypes[aoi2]?.mark).toBe(2.5);
  });
});

describe('the demo’s new curriculum elsewhere, and again', () => {
  it('gives the primary school no competencies, scores, projects or AOI mark types', async () => {
    expect(await inSchool('demo-primary', counts)).toEqual([0, 0, 0, 0, 0]);
  });

  it('adds nothing when seeded again', async () => {
    const before = await inSchool('demo-secondary', counts);
    expect(before.every((n) => n > 0)).toBe(true);
    await inSchool('demo-secondary', (trx, tenantId) =>
      seedDemoCurriculum(trx, tenantId, { classes: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6'] }, MARKS, YEAR),
    );
    expect(await inSchool('demo-secondary', counts)).toEqual(before);
  });
});
