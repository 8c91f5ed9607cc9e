import { defaultTermDates, localDay, MARK_MESSAGES, type MyAssignments, TERMS } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../db/tenant.js';
import { DEMO_TEACHER_EMAIL } from '../seed/demo.js';
import { marksTerm } from '../seed/demo-marks.js';
import { DEMO_STAFF, staffEmail } from '../seed/demo-staff.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';

/*
 * What the demo's accounts are assigned (issue 13 point 6), as they see it through the API
 * (`GET /api/school/assignments/mine`): the demo teacher holds exactly P5 Mathematics and P5
 * East's class in the primary school, and S2 English Language in the secondary one; the staff
 * hold the rest.
 */

/** The seed fills the current year. */
const YEAR = new Date().getFullYear();
/**
 * What the demo teacher's role lets them enter: a teacher enters marks and comments where
 * assigned, since the default teacher role no longer manages remarks (issue 23 item 8).
 */
const TEACHER_REACH = { marks: 'assigned', subjectComments: 'assigned', reportComments: 'assigned' } as const;

let t: TestApp;
let teacher: Caller;
let subjectIds: Record<string, Record<string, string>>;

/** The school's subject ids by name, read under its tenant. */
async function subjectsOf(tenantcode: string): Promise<Record<string, string>> {
  const tenant = await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', tenantcode).executeTakeFirstOrThrow();
  const rows = await withTenant(t.database.db, { tenantId: tenant.id }, (trx) =>
    trx.selectFrom('subjects').select(['id', 'name']).execute(),
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.id]));
}

const mine = async (who: Caller, term: string): Promise<MyAssignments> => {
  const response = await who.get(`/api/school/assignments/mine?term=${term}&year=${YEAR}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

beforeAll(async () => {
  t = await buildTestApp({}, { demo: true });
  teacher = caller(t.app, await login(t.app, DEMO_TEACHER_EMAIL, t.config.demoPassword));
  subjectIds = { 'demo-primary': await subjectsOf('demo-primary'), 'demo-secondary': await subjectsOf('demo-secondary') };
});
afterAll(() => t?.close());

describe('the demo teacher’s assignments', () => {
  it('in the primary school: Mathematics in P5 East and West, and class teacher of P5 East, every term', async () => {
    const maths = subjectIds['demo-primary']!.Mathematics!;
    expect(maths).toBeDefined();
    for (const term of TERMS) {
      expect(await mine(teacher.in('demo-primary'), term)).toEqual({
        term,
        year: YEAR,
        reach: TEACHER_REACH,
        subjects: ['East', 'West'].map((stream) => ({
          subject_id: maths,
          subject: { name: 'Mathematics' },
          form: 'P5',
          stream,
          term,
          year: YEAR,
        })),
        classes: [{ form: 'P5', stream: 'East', term, year: YEAR, category: 'primary' }],
      });
    }
  });

  it('in the secondary school: English Language in S2 A and B, and no class, every term', async () => {
    const english = subjectIds['demo-secondary']!['English Language']!;
    expect(english).toBeDefined();
    for (const term of TERMS) {
      expect(await mine(teacher.in('demo-secondary'), term)).toEqual({
        term,
        year: YEAR,
        reach: TEACHER_REACH,
        subjects: ['A', 'B'].map((stream) => ({
          subject_id: english,
          subject: { name: 'English Language' },
          form: 'S2',
          stream,
          term,
          year: YEAR,
        })),
        classes: [],
      });
    }
  });

  it('holds nothing in another year', async () => {
    const response = await teacher.in('demo-primary').get(`/api/school/assignments/mine?term=I&year=${YEAR + 1}`);
    expect(response.json()).toMatchObject({ subjects: [], classes: [] });
  });
});

describe('a demo staff member’s assignments', () => {
  it('are theirs: subjects (and maybe a class) in their school, other than the demo teacher’s', async () => {
    for (const school of ['demo-primary', 'demo-secondary'] as const) {
      const member = DEMO_STAFF[school]!.staff[1]!;
      const staff = caller(t.app, await login(t.app, staffEmail(member.name), t.config.demoPassword), school);
      const theirs = await mine(staff, 'II');
      const demoTeachers = await mine(teacher.in(school), 'II');
      expect(theirs.subjects.length, member.name).toBeGreaterThan(0);
      expect(theirs).not.toEqual(demoTeachers);
      // Each of their subjects is one they teach, and none is a place the demo teacher holds.
      expect(theirs.subjects.every((row) => member.subjects.includes(row.subject?.name ?? ''))).toBe(true);
      const held = new Set(demoTeachers.subjects.map((row) => `${row.subject_id}|${row.form}|${row.stream}`));
      expect(theirs.subjects.filter((row) => held.has(`${row.subject_id}|${row.form}|${row.stream}`))).toEqual([]);
      // A member of one demo school has no place in the other.
      expect((await staff.in(school === 'demo-primary' ? 'demo-secondary' : 'demo-primary').get('/api/users/profile')).statusCode).toBe(
        403,
      );
    }
  });
});

describe('what the demo teacher may enter', () => {
  it('P5 Mathematics marks, and not P6’s: the assignments are what the marks grid keeps to', async () => {
    const school = teacher.in('demo-primary');
    const { term, year } = marksTerm(localDay(), defaultTermDates);
    const types = (await school.get('/api/school/marktypes?per_page=100')).json().marktypes as Array<{ id: string; label: string }>;
    const eot = types.find((type) => type.label === 'EOT')?.id as string;
    const grid = { stream: 'East', term, year, paper: 'I', subject_id: subjectIds['demo-primary']!.Mathematics, marktypes: [eot] };
    const p5 = await school.post('/api/school/marks/grid', { ...grid, form: 'P5' });
    expect(p5.statusCode, p5.body).toBe(200);
    const [first] = p5.json().students as Array<{ student: { id: string } }>;
    const { marktypes: _types, ...where } = grid;
    const saved = await school.post('/api/school/marks', {
      ...where,
      form: 'P5',
      save_id: crypto.randomUUID(),
      marks: { [eot]: { [first!.student.id]: 64 } },
      base: {},
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const p6 = await school.post('/api/school/marks/grid', { ...grid, form: 'P6' });
    expect(p6.statusCode).toBe(403);
    expect(p6.json().message).toBe(MARK_MESSAGES.notAssigned);
  });
});
