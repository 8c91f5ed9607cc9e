import { createHash } from 'node:crypto';
import { defaultTermDates, localDay, TENANT_HEADER, TERMS, type TermDates } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import type { Database } from '../db/connect.js';
import { newId } from '../db/ids.js';
import type { Trx } from '../db/tenant.js';
import { withTenant } from '../db/tenant.js';
import {
  DEMO_ADMIN_EMAIL,
  DEMO_CASHIER_EMAIL,
  DEMO_STAFF_EMAILS,
  DEMO_TEACHER_EMAIL,
  type DemoSummary,
  demoAccounts,
  seedDemo,
} from '../seed/demo.js';
import { eotForms, lastTermExams, marksTerm, schoolDays, TARGET_FORMS, termBefore } from '../seed/demo-marks.js';
import { A_LEVEL_COMBINATIONS, CLASS_TEACHER_REMARK, HEAD_TEACHER_REMARK, O_LEVEL_CORE } from '../seed/demo-settings.js';
import { DEMO_STAFF, staffEmail } from '../seed/demo-staff.js';
import { makeTenant } from '../test/factories.js';
import { testConfig, tokenOf } from '../test/test-app.js';
import { openTestDatabase, type TestDatabase } from '../test/test-database.js';

/**
 * The demo seed (run on every start of an empty embedded database, and by `mustard seed-demo`):
 * a second run changes nothing at all, and the demo is what the README promises.
 */

interface TableSnapshot {
  count: number;
  digest: string;
}

/** Every table the app role can read, tenant tables read tenant by tenant under RLS. */
async function snapshot(database: Database): Promise<Record<string, TableSnapshot>> {
  const db = database.db;
  const { rows: tables } = await sql<{ table_name: string; tenant_scoped: boolean }>`
    SELECT t.table_name,
      EXISTS (SELECT 1 FROM information_schema.columns c
        WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'tenant_id') AS tenant_scoped
    FROM information_schema.tables t
    WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE'
    ORDER BY t.table_name
  `.execute(db);
  const tenantIds = (await db.selectFrom('tenants').select('id').execute()).map((row) => row.id);
  const result: Record<string, TableSnapshot> = {};
  for (const { table_name: table, tenant_scoped: tenantScoped } of tables) {
    const rows: unknown[] = [];
    if (tenantScoped) {
      for (const tenantId of tenantIds) {
        const part = await withTenant(db, { tenantId }, (trx) => sql`SELECT * FROM ${sql.table(table)}`.execute(trx));
        rows.push(...part.rows);
      }
    } else {
      rows.push(...(await sql`SELECT * FROM ${sql.table(table)}`.execute(db)).rows);
    }
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    result[table] = { count: rows.length, digest: createHash('sha256').update(lines.join('\n')).digest('hex') };
  }
  return result;
}

/** The same facts in a readable form, so a failure shows what changed. */
async function people(database: Database) {
  const db = database.db;
  const users = await db.selectFrom('users').select(['email', 'name', 'password_hash', 'is_admin']).orderBy('email').execute();
  const tenants = await db.selectFrom('tenants').select(['id', 'tenantcode']).orderBy('tenantcode').execute();
  const perTenant: Record<string, unknown> = {};
  for (const tenant of tenants) {
    perTenant[tenant.tenantcode] = await withTenant(db, { tenantId: tenant.id }, async (trx) => ({
      memberships: (
        await trx
          .selectFrom('memberships')
          .innerJoin('membership_roles', (join) =>
            join
              .onRef('membership_roles.tenant_id', '=', 'memberships.tenant_id')
              .onRef('membership_roles.membership_id', '=', 'memberships.id'),
          )
          .innerJoin('roles', (join) =>
            join.onRef('roles.tenant_id', '=', 'membership_roles.tenant_id').onRef('roles.id', '=', 'membership_roles.role_id'),
          )
          .select(['memberships.id', 'memberships.user_id', 'roles.name'])
          .orderBy('memberships.id')
          .orderBy('roles.name')
          .execute()
      ).map((row) => `${row.id} ${row.user_id} ${row.name}`),
      students: (
        await trx.selectFrom('students').select(['id', 'studentid', 'firstname', 'lastname', 'othername']).orderBy('studentid').execute()
      ).map((row) => `${row.studentid} ${row.id} ${row.firstname} ${row.othername ?? ''} ${row.lastname}`),
    }));
  }
  return { users, perTenant };
}

/** The staff assignment tables (issue 13), all of which the demo fills. */
const STAFF_TABLES = ['subject_teachers', 'class_teachers', 'deputies', 'grade_footers', 'report_footers', 'subject_papers'];
/** The marks tables (issue 14) the demo fills; a cell's history starts with the first real change. */
const MARK_TABLES = ['marks', 'attendances', 'mark_targets', 'publish_marks'];
const SCHOOLS = ['demo-primary', 'demo-secondary'] as const;
/** The year the seed fills: the current one. */
const YEAR = new Date().getFullYear();

let database: TestDatabase;
let app: FastifyInstance;
let config: Config;
let secondRun: DemoSummary;
let before: Record<string, TableSnapshot>;
let after: Record<string, TableSnapshot>;
let peopleBefore: Awaited<ReturnType<typeof people>>;
let peopleAfter: Awaited<ReturnType<typeof people>>;

// The first run is the run's seeded demo (test-database.ts: seedDemo on an empty database, once per
// run, which this file's copy starts from); the second is this file's own.
beforeAll(async () => {
  config = testConfig();
  database = await openTestDatabase({ demo: true });
  app = await buildApp(config, database, { logger: false });
  before = await snapshot(database);
  peopleBefore = await people(database);
  secondRun = await seedDemo(database, config.demoPassword);
  after = await snapshot(database);
  peopleAfter = await people(database);
}, 180_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

async function signIn(email: string, password = config.demoPassword) {
  const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email, password } } });
  expect(response.statusCode).toBe(200);
  return { body: response.json(), token: tokenOf(response) };
}

function get(url: string, token: string, tenantcode: string) {
  return app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: tenantcode } });
}

describe('seeding the demo twice', () => {
  it('the snapshot covers the seeded tables', () => {
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['tenants', 'users', 'memberships', 'membership_roles', 'roles', 'students']),
    );
    expect(before.tenants?.count).toBe(3);
    const staff = Object.values(DEMO_STAFF).reduce((sum, roster) => sum + roster.staff.length, 0);
    expect(staff).toBeGreaterThanOrEqual(16);
    // The administrator, the teacher and the shop's cashier, and the staff.
    expect(before.users?.count).toBe(3 + staff);
    expect(before.students?.count).toBe(7 * 2 * 40 + 6 * 2 * 40);
  });

  it('changes no table: the same row counts and the same rows', () => {
    expect(Object.fromEntries(Object.entries(after).map(([table, s]) => [table, s.count]))).toEqual(
      Object.fromEntries(Object.entries(before).map(([table, s]) => [table, s.count])),
    );
    expect(after).toEqual(before);
  });

  it('keeps every learner, membership and password hash as it was', () => {
    expect(peopleAfter).toEqual(peopleBefore);
  });

  it('answers the summary the start prints, the second time as the first', () => {
    expect(secondRun).toEqual({ tenants: ['demo-primary', 'demo-secondary', 'demo-shop'], accounts: demoAccounts(config.demoPassword) });
    // The staff in one line, so the start's list of accounts stays short.
    expect(secondRun.accounts.map((account) => account.email)).toEqual([
      DEMO_ADMIN_EMAIL,
      DEMO_TEACHER_EMAIL,
      DEMO_CASHIER_EMAIL,
      DEMO_STAFF_EMAILS,
    ]);
    expect(secondRun.accounts.every((account) => account.password === config.demoPassword)).toBe(true);
  });

  it('adds no staff assignment, mark, attendance or target the second time, and the first time added some to every such table', () => {
    for (const table of [...STAFF_TABLES, ...MARK_TABLES]) {
      expect(before[table]?.count, table).toBeGreaterThan(0);
      expect(after[table], table).toEqual(before[table]);
    }
  });
});

describe('the demo', () => {
  it('has a primary school, a secondary school and a shop', async () => {
    const tenants = await database.db
      .selectFrom('tenants')
      .select(['tenantcode', 'category', 'schooltype'])
      .orderBy('tenantcode')
      .execute();
    expect(tenants).toEqual([
      { tenantcode: 'demo-primary', category: 'School', schooltype: 'primary' },
      { tenantcode: 'demo-secondary', category: 'School', schooltype: 'secondary' },
      { tenantcode: 'demo-shop', category: 'Retail', schooltype: 'primary' },
    ]);
  });

  it('lets the administrator sign in with the demo password, in all three tenants, and nowhere else', async () => {
    const { body, token } = await signIn(DEMO_ADMIN_EMAIL);
    // The password is published: a tenant administrator of the demo, never of the platform.
    expect(body.isadmin).toBe(false);
    const other = await makeTenant(database, { name: 'A Real School Elsewhere' });
    const tenants = await get('/api/tenants?per_page=100', token, 'demo-primary');
    expect(tenants.json().tenants.map((t: { tenantcode: string }) => t.tenantcode)).not.toContain(other.tenantcode);
    expect((await get(`/api/tenants/${other.id}`, token, 'demo-primary')).statusCode).toBe(404);
    expect(body.tenants.map((t: { tenantcode: string }) => t.tenantcode).sort()).toEqual(['demo-primary', 'demo-secondary', 'demo-shop']);
    for (const tenantcode of ['demo-primary', 'demo-secondary', 'demo-shop']) {
      const profile = await get('/api/users/profile', token, tenantcode);
      expect(profile.statusCode).toBe(200);
      expect(profile.json().roles.map((role: { name: string }) => role.name)).toEqual(['superadmin']);
    }
  });

  it('refuses the administrator with another password', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: DEMO_ADMIN_EMAIL, password: `${config.demoPassword}x` } },
    });
    expect(response.statusCode).toBe(401);
  });

  it('makes the teacher a teacher of both schools, with marks and remarks only', async () => {
    const { body, token } = await signIn(DEMO_TEACHER_EMAIL);
    expect(body.isadmin).toBe(false);
    expect(body.tenants.map((t: { tenantcode: string }) => t.tenantcode).sort()).toEqual(['demo-primary', 'demo-secondary']);
    for (const tenantcode of ['demo-primary', 'demo-secondary']) {
      const profile = await get('/api/users/profile', token, tenantcode);
      expect(profile.statusCode).toBe(200);
      expect(profile.json().roles.map((role: { name: string }) => role.name)).toEqual(['teacher']);
      // Writing remarks within his assignments; managing them (the head teacher's remarks, deleting, attendance) is the head's.
      expect(profile.json().permissions).toEqual({ mark: ['create'], remark: ['create'] });
      expect(profile.json().permissions.student).toBeUndefined();
    }
    expect((await get('/api/users/profile', token, 'demo-shop')).statusCode).toBe(403);
    expect((await get('/api/users', token, 'demo-primary')).statusCode).toBe(403);
  });

  it('lets the teacher write his class’s class teacher remark, but not its head teacher’s remark, nor delete P7’s remarks (issue 23 item 8)', async () => {
    const { token } = await signIn(DEMO_TEACHER_EMAIL);
    const post = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: 'demo-primary' } });
    const tenant = await database.db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
    const teacher = await database.db.selectFrom('users').select('id').where('email', '=', DEMO_TEACHER_EMAIL).executeTakeFirstOrThrow();
    const seen = await withTenant(database.db, { tenantId: tenant.id }, async (trx) => ({
      mine: await trx
        .selectFrom('class_teachers')
        .select(['form', 'stream', 'term', 'year'])
        .where('user_id', '=', teacher.id)
        .orderBy('term')
        .executeTakeFirstOrThrow(),
      types: await trx.selectFrom('remark_types').select(['id', 'label']).execute(),
      p7Remarks: Number(
        (await trx.selectFrom('remarks').select(sql<number>`count(*)`.as('n')).where('form', '=', 'P7').executeTakeFirstOrThrow()).n,
      ),
    }));
    const typeId = (label: string) => seen.types.find((type) => type.label === label)?.id as string;
    const learner = await withTenant(database.db, { tenantId: tenant.id }, (trx) =>
      trx
        .selectFrom('students')
        .select('id')
        .where('form', '=', seen.mine.form)
        .where('stream', '=', seen.mine.stream)
        .executeTakeFirstOrThrow(),
    );
    const remark = (label: string, text: string) =>
      post('/api/school/remarks', {
        ...seen.mine,
        category: 'exam',
        comment: { [`rt_${typeId(label)}`]: { [`s_${learner.id}`]: text } },
        base: {},
      });
    expect(seen.p7Remarks).toBeGreaterThan(0);
    expect((await remark(HEAD_TEACHER_REMARK, 'Promoted.')).statusCode).toBe(403);
    expect((await remark(CLASS_TEACHER_REMARK, 'A careful worker.')).json()).toMatchObject({ saved: 1 });
    // Back as seeded, for the tests that count the demo's remarks.
    await withTenant(database.db, { tenantId: tenant.id }, async (trx) => {
      await trx.deleteFrom('remarks').where('student_id', '=', learner.id).execute();
      await trx.deleteFrom('comment_history').where('student_id', '=', learner.id).execute();
    });
    const { term, year } = seen.mine;
    const deleting = await post('/api/remark/delete', { form: 'P7', stream: '', term, year, remarktype_id: typeId(HEAD_TEACHER_REMARK) });
    expect(deleting.statusCode).toBe(403);
    const p7After = await withTenant(database.db, { tenantId: tenant.id }, (trx) =>
      trx.selectFrom('remarks').select(sql<number>`count(*)`.as('n')).where('form', '=', 'P7').executeTakeFirstOrThrow(),
    );
    expect(Number(p7After.n)).toBe(seen.p7Remarks);
  });

  it('shows the primary school’s learners per class P1 to P7 on the home page, as the students table has them', async () => {
    const { token } = await signIn(DEMO_ADMIN_EMAIL);
    const response = await get('/api/home/mustard', token, 'demo-primary');
    expect(response.statusCode).toBe(200);
    const counts: Record<string, number> = response.json().students;
    expect(Object.keys(counts)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7']);

    const tenant = await database.db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
    const rows = await withTenant(database.db, { tenantId: tenant.id }, (trx) =>
      trx
        .selectFrom('students')
        .select(['form', sql<number>`count(*)::int`.as('n')])
        .where('status', '=', 'active')
        .groupBy('form')
        .execute(),
    );
    expect(counts).toEqual(Object.fromEntries(rows.map((row) => [row.form, row.n])));
    expect(Object.values(counts)).toEqual([80, 80, 80, 80, 80, 80, 80]);
  });
});

/** Work in a demo school's tenant, as the app does (row-level security on). */
async function inSchool<T>(tenantcode: string, work: (trx: Trx) => Promise<T>): Promise<T> {
  const tenant = await database.db.selectFrom('tenants').select('id').where('tenantcode', '=', tenantcode).executeTakeFirstOrThrow();
  return withTenant(database.db, { tenantId: tenant.id }, work);
}

/** A school's classes and streams (where its learners are) and the subjects each class takes (its grade sets of the year). */
async function shapeOf(trx: Trx) {
  const places = await trx.selectFrom('students').select(['form', 'stream']).distinct().orderBy('form').orderBy('stream').execute();
  const studies = await trx.selectFrom('grades').select(['form', 'subject_id']).distinct().where('year', '=', YEAR).execute();
  return { places: places.map((place) => ({ form: place.form, stream: place.stream ?? '' })), studies };
}

const ids = async (emails: string[]) =>
  (await database.db.selectFrom('users').select('id').where('email', 'in', emails).execute()).map((row) => row.id);

describe('the demo staff (issue 13 point 6)', () => {
  it('gives every class, stream and subject of each school one subject teacher in every term, and every member some', async () => {
    for (const school of SCHOOLS) {
      // Read before the tenant's transaction: the embedded database has one connection.
      const staff = await ids(DEMO_STAFF[school]!.staff.map((member) => staffEmail(member.name)));
      await inSchool(school, async (trx) => {
        const { places, studies } = await shapeOf(trx);
        const expected = places
          .flatMap(({ form, stream }) =>
            studies
              .filter((study) => study.form === form)
              .flatMap((study) => TERMS.map((term) => `${form}|${stream}|${study.subject_id}|${term}`)),
          )
          .sort();
        const rows = await trx
          .selectFrom('subject_teachers')
          .select(['user_id', 'form', 'stream', 'subject_id', 'term'])
          .where('year', '=', YEAR)
          .execute();
        expect(places.length, school).toBeGreaterThanOrEqual(12);
        expect(expected.length, school).toBeGreaterThan(0);
        expect(rows.map((row) => `${row.form}|${row.stream}|${row.subject_id}|${row.term}`).sort(), school).toEqual(expected);
        const teaching = new Set(rows.map((row) => row.user_id));
        expect(
          staff.filter((id) => !teaching.has(id)),
          school,
        ).toEqual([]);
      });
    }
  });

  it('gives every class and stream one primary class teacher in every term, the new intake a co-teacher too', async () => {
    for (const school of SCHOOLS) {
      await inSchool(school, async (trx) => {
        const { places } = await shapeOf(trx);
        const rows = await trx
          .selectFrom('class_teachers')
          .select(['user_id', 'form', 'stream', 'term', 'category'])
          .where('year', '=', YEAR)
          .execute();
        const primaries = rows.filter((row) => row.category === 'primary').map((row) => `${row.form}|${row.stream}|${row.term}`);
        expect(primaries.sort(), school).toEqual(
          places.flatMap(({ form, stream }) => TERMS.map((term) => `${form}|${stream}|${term}`)).sort(),
        );
        const coTeachers = rows.filter((row) => row.category === 'co-teacher');
        expect(coTeachers.length, school).toBeGreaterThan(0);
        for (const co of coTeachers) {
          const primary = rows.find(
            (row) => row.category === 'primary' && row.form === co.form && row.stream === co.stream && row.term === co.term,
          );
          expect(primary?.user_id).not.toBe(co.user_id);
        }
      });
    }
  });

  it('has a deputy head teacher over every class, one per section', async () => {
    const sections = {
      'demo-primary': [
        ['P1', 'P2', 'P3'],
        ['P4', 'P5', 'P6', 'P7'],
      ],
      'demo-secondary': [
        ['S1', 'S2', 'S3', 'S4'],
        ['S5', 'S6'],
      ],
    };
    for (const school of SCHOOLS) {
      const rows = await inSchool(school, (trx) =>
        trx.selectFrom('deputies').select(['user_id', 'form', 'stream']).orderBy('form').execute(),
      );
      expect(rows.every((row) => row.stream === null)).toBe(true);
      const byDeputy = new Map<string, string[]>();
      for (const row of rows) byDeputy.set(row.user_id, [...(byDeputy.get(row.user_id) ?? []), row.form]);
      expect([...byDeputy.values()], school).toEqual(sections[school]);
    }
  });

  it('puts the grading key under each class’s grades, and next term, fees and the head teacher at the foot of its report', async () => {
    for (const school of SCHOOLS) {
      await inSchool(school, async (trx) => {
        const { places } = await shapeOf(trx);
        const classes = [...new Set(places.map((place) => place.form))];
        const grading = await trx.selectFrom('grade_footers').select(['form', 'stream', 'details']).orderBy('form').execute();
        expect(grading.map((row) => row.form)).toEqual(classes);
        for (const row of grading) {
          expect(row.stream).toBeNull();
          expect(row.details).toMatch(/^D1 80-100, D2 75-79, C3 70-74, .*, F9 0-34$/);
        }
        const footers = await trx
          .selectFrom('report_footers')
          .select(['title', 'form', 'term', 'category', 'position', 'remarks'])
          .where('year', '=', YEAR)
          .orderBy('form')
          .orderBy('term')
          .orderBy('position')
          .execute();
        expect(footers.map((row) => `${row.form}|${row.term}|${row.title}`)).toEqual(
          classes
            .flatMap((form) => TERMS.map((term) => `${form}|${term}|`))
            .flatMap((at) => ['Next term begins', 'Fees for next term', 'Head teacher'].map((title) => `${at}${title}`)),
        );
        expect(footers.every((row) => row.category === 'exam' && row.remarks)).toBe(true);
        const remark = (form: string, term: string, title: string) =>
          footers.find((row) => row.form === form && row.term === term && row.title === title)?.remarks;
        // Term I's next term is Term II, starting 1 May; Term III's is Term I of the next year.
        expect(remark(classes[0]!, 'I', 'Next term begins')).toMatch(new RegExp(`^[A-Z][a-z]+day, 1 May ${YEAR}$`));
        expect(remark(classes[0]!, 'III', 'Next term begins')).toMatch(new RegExp(`^[A-Z][a-z]+day, 1 February ${YEAR + 1}$`));
        expect(remark(classes[0]!, 'II', 'Head teacher')).toBe(DEMO_STAFF[school]!.headTeacher);
      });
    }
    const fees = async (school: string, form: string) =>
      inSchool(school, (trx) =>
        trx.selectFrom('report_footers').select('remarks').where('form', '=', form).where('title', '=', 'Fees for next term').execute(),
      );
    expect(new Set((await fees('demo-primary', 'P1')).map((row) => row.remarks))).toEqual(new Set(['UGX 450,000']));
    expect(new Set((await fees('demo-secondary', 'S6')).map((row) => row.remarks))).toEqual(new Set(['UGX 1,100,000']));
  });

  it('writes the A-level subjects’ papers in S5 and S6 only: Physics 3, Mathematics 2, General Paper 1', async () => {
    const papers = await inSchool('demo-secondary', (trx) =>
      trx
        .selectFrom('subject_papers as p')
        .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'p.tenant_id').onRef('s.id', '=', 'p.subject_id'))
        .select(['p.form', 'p.term', 's.name', 'p.papers'])
        .where('p.year', '=', YEAR)
        .execute(),
    );
    expect(new Set(papers.map((row) => row.form))).toEqual(new Set(['S5', 'S6']));
    for (const form of ['S5', 'S6']) {
      for (const term of TERMS) {
        const of = (name: string) => papers.find((row) => row.form === form && row.term === term && row.name === name)?.papers;
        expect([of('Physics'), of('Mathematics'), of('General Paper')], `${form} ${term}`).toEqual([3, 2, 1]);
      }
    }
    expect(papers.every((row) => row.papers >= 1 && row.papers <= 6)).toBe(true);
    expect(await inSchool('demo-primary', (trx) => trx.selectFrom('subject_papers').select('id').execute())).toEqual([]);
  });

  it('makes each staff member a teacher of their school alone, signing in with the demo password', async () => {
    for (const school of SCHOOLS) {
      const roster = DEMO_STAFF[school]!.staff;
      const users = await database.db
        .selectFrom('users')
        .select(['id', 'email', 'name', 'is_admin'])
        .where(
          'email',
          'in',
          roster.map((member) => staffEmail(member.name)),
        )
        .orderBy('email')
        .execute();
      expect(users.map((user) => [user.email, user.name, user.is_admin])).toEqual(
        roster.map((member) => [staffEmail(member.name), member.name, false]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
      const roles = await inSchool(school, (trx) =>
        trx
          .selectFrom('memberships')
          .innerJoin('membership_roles', (join) =>
            join
              .onRef('membership_roles.tenant_id', '=', 'memberships.tenant_id')
              .onRef('membership_roles.membership_id', '=', 'memberships.id'),
          )
          .innerJoin('roles', (join) =>
            join.onRef('roles.tenant_id', '=', 'membership_roles.tenant_id').onRef('roles.id', '=', 'membership_roles.role_id'),
          )
          .select(['memberships.user_id', 'roles.name'])
          .where(
            'memberships.user_id',
            'in',
            users.map((user) => user.id),
          )
          .execute(),
      );
      expect(roles).toHaveLength(users.length);
      expect(roles.every((row) => row.name === 'teacher')).toBe(true);
      const { body } = await signIn(staffEmail(roster.at(-1)!.name));
      expect(body.isadmin).toBe(false);
      expect(body.tenants.map((t: { tenantcode: string }) => t.tenantcode)).toEqual([school]);
    }
    expect(staffEmail('Grace Namubiru')).toBe('grace.namubiru@mustard.demo');
  });

  it('gives the demo teacher P5 Mathematics and P5 East’s class, and S2 English Language, in place of the staff', async () => {
    const [teacherId] = await ids([DEMO_TEACHER_EMAIL]);
    const holders = (school: string, form: string, subject: string) =>
      inSchool(school, (trx) =>
        trx
          .selectFrom('subject_teachers as a')
          .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'a.tenant_id').onRef('s.id', '=', 'a.subject_id'))
          .select(['a.user_id', 'a.stream', 'a.term'])
          .where('a.form', '=', form)
          .where('s.name', '=', subject)
          .where('a.year', '=', YEAR)
          .orderBy('a.term')
          .orderBy('a.stream')
          .execute(),
      );
    const everyStream = (streams: string[]) => TERMS.flatMap((term) => streams.map((stream) => ({ user_id: teacherId, stream, term })));
    expect(await holders('demo-primary', 'P5', 'Mathematics')).toEqual(everyStream(['East', 'West']));
    expect(await holders('demo-secondary', 'S2', 'English Language')).toEqual(everyStream(['A', 'B']));
    const classes = (school: string) =>
      inSchool(school, (trx) =>
        trx
          .selectFrom('class_teachers')
          .select(['form', 'stream', 'term', 'category'])
          .where('user_id', '=', teacherId!)
          .orderBy('term')
          .execute(),
      );
    expect(await classes('demo-primary')).toEqual(TERMS.map((term) => ({ form: 'P5', stream: 'East', term, category: 'primary' })));
    expect(await classes('demo-secondary')).toEqual([]);
  });
});

/** The demo's marks term, as the seed decides it: today's term, or the one before while today's has not begun. */
const MARKS = marksTerm(localDay(), defaultTermDates);

/** A school's marks of the marks term, with the subject's name, the mark type's label and the learner's class. */
const marksOf = (trx: Trx) =>
  trx
    .selectFrom('marks as m')
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'm.tenant_id').onRef('s.id', '=', 'm.subject_id'))
    .innerJoin('mark_types as t', (join) => join.onRef('t.tenant_id', '=', 'm.tenant_id').onRef('t.id', '=', 'm.marktype_id'))
    .innerJoin('students as l', (join) => join.onRef('l.tenant_id', '=', 'm.tenant_id').onRef('l.id', '=', 'm.student_id'))
    .select(['m.student_id', 'l.studentid', 'm.form', 'm.stream', 'l.form as learner_form', 'l.stream as learner_stream'])
    .select(['s.name as subject', 't.label', 'm.paper', 'm.absent', 'm.user_id', 'm.topic_id'])
    .select(sql<number | null>`m.mark::float8`.as('mark'))
    .where('m.term', '=', MARKS.term)
    .where('m.year', '=', MARKS.year)
    // The exams' marks: the competencies' scores (1 to 3) are demo-curriculum.test.ts's.
    .where('m.topic_id', 'is', null)
    .execute();

/** Each school's marks of the term, read once. */
const schoolMarks = new Map<string, ReturnType<typeof marksOf>>();
const marksIn = (school: string) => {
  if (!schoolMarks.has(school)) schoolMarks.set(school, inSchool(school, marksOf));
  return schoolMarks.get(school)!;
};

const activeLearners = (trx: Trx) =>
  trx.selectFrom('students').select(['id', 'studentid', 'form', 'stream']).where('status', '=', 'active').execute();

describe('the demo marks (issue 14 point 8)', () => {
  it('are of the current term once it has begun, else of the term before: never of a term not yet begun', () => {
    const defaults = (year: number) => defaultTermDates(year);
    expect(marksTerm('2026-11-23', defaults)).toEqual({ term: 'III', year: 2026 });
    expect(marksTerm('2026-02-01', defaults)).toEqual({ term: 'I', year: 2026 });
    expect(marksTerm('2026-05-01', defaults)).toEqual({ term: 'II', year: 2026 });
    // After Term III the current term is Term I of next year, not begun: Term III it is.
    expect(marksTerm('2026-12-20', defaults)).toEqual({ term: 'III', year: 2026 });
    expect(marksTerm('2027-01-15', defaults)).toEqual({ term: 'III', year: 2026 });
    // A school's own calendar: Term II from 11 May; on 5 May it has not begun.
    const own = (year: number): TermDates[] =>
      year === 2026
        ? [
            { term: 'I', starts: '2026-02-02', ends: '2026-04-24' },
            { term: 'II', starts: '2026-05-11', ends: '2026-08-07' },
            { term: 'III', starts: '2026-09-07', ends: '2026-11-27' },
          ]
        : defaultTermDates(year);
    expect(marksTerm('2026-05-05', own)).toEqual({ term: 'I', year: 2026 });
    expect(marksTerm('2026-05-11', own)).toEqual({ term: 'II', year: 2026 });
    expect(schoolDays('2026-11-23', '2026-11-29')).toBe(5);
    expect(eotForms(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'])).toEqual(['P1', 'P2', 'P3', 'P4', 'P7']);
    expect(eotForms(['S1', 'S2', 'S3', 'S4', 'S5', 'S6'])).toEqual(['S1', 'S2', 'S3', 'S4', 'S6']);
  });

  it('gives every active learner of P5 BOT and MOT in every subject, Mathematics entered by the demo teacher, and no EOT yet', async () => {
    const [teacherId] = await ids([DEMO_TEACHER_EMAIL]);
    await inSchool('demo-primary', async (trx) => {
      const learners = (await activeLearners(trx)).filter((learner) => learner.form === 'P5');
      const subjects = (await trx.selectFrom('subjects').select('name').execute()).map((row) => row.name).sort();
      expect(learners).toHaveLength(80);
      expect(subjects).toHaveLength(6);
      const marks = (await marksOf(trx)).filter((mark) => mark.form === 'P5');
      const cells = marks.map((mark) => `${mark.studentid}|${mark.subject}|${mark.label}|${mark.paper}`).sort();
      expect(cells).toEqual(
        learners
          .flatMap((learner) => subjects.flatMap((subject) => ['BOT', 'MOT'].map((label) => `${learner.studentid}|${subject}|${label}|I`)))
          .sort(),
      );
      for (const mark of marks) {
        expect(mark.stream).toBe(mark.learner_stream);
        expect(mark.topic_id).toBeNull();
      }
      const maths = marks.filter((mark) => mark.subject === 'Mathematics');
      expect(maths).toHaveLength(160);
      expect(new Set(maths.map((mark) => mark.user_id))).toEqual(new Set([teacherId]));
      // Every other subject by its teacher from the staff seed.
      expect(marks.every((mark) => mark.user_id)).toBe(true);
    });
  });

  it('has a realistic spread: numbers from 0 to 100 with at most a half mark, about 1% ABS, and no ABS with a number', async () => {
    for (const school of SCHOOLS) {
      const marks = await marksIn(school);
      const absent = marks.filter((mark) => mark.absent);
      expect(absent.length, school).toBeGreaterThan(0);
      expect(absent.every((mark) => mark.mark === null)).toBe(true);
      expect(absent.length / marks.length, school).toBeLessThan(0.03);
      const numbers = marks.filter((mark) => !mark.absent).map((mark) => mark.mark as number);
      expect(numbers.every((mark) => mark >= 0 && mark <= 100 && Number.isInteger(mark * 2))).toBe(true);
      expect(numbers.filter((mark) => Number.isInteger(mark)).length / numbers.length).toBeGreaterThan(0.8);
      const mean = numbers.reduce((sum, mark) => sum + mark, 0) / numbers.length;
      const spread = Math.sqrt(numbers.reduce((sum, mark) => sum + (mark - mean) ** 2, 0) / numbers.length);
      expect(mean, school).toBeGreaterThan(45);
      expect(mean, school).toBeLessThan(72);
      expect(spread, school).toBeGreaterThan(10);
      // Some distinctions and some failures.
      expect(numbers.some((mark) => mark >= 85) && numbers.some((mark) => mark < 35)).toBe(true);
      // Full marks are rare, not a pile of clamped scores.
      expect(numbers.filter((mark) => mark === 100).length / numbers.length, school).toBeLessThan(0.002);
    }
  });

  it('has EOT in the first half of each school’s classes and the candidate classes only, and BOT and MOT in every class', async () => {
    const classes = { 'demo-primary': ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'], 'demo-secondary': ['S1', 'S2', 'S3', 'S4', 'S5', 'S6'] };
    for (const school of SCHOOLS) {
      const marks = await marksIn(school);
      const formsWith = (label: string) => [...new Set(marks.filter((mark) => mark.label === label).map((mark) => mark.form))].sort();
      expect(formsWith('EOT'), school).toEqual(eotForms(classes[school]));
      expect(formsWith('BOT'), school).toEqual(classes[school]);
      expect(formsWith('MOT'), school).toEqual(classes[school]);
    }
  });

  it('in the secondary school: the O-level core and one elective, A-level combinations with General Paper, every paper of a subject', async () => {
    await inSchool('demo-secondary', async (trx) => {
      const marks = (await marksOf(trx)).filter((mark) => mark.label === 'BOT');
      const learners = await activeLearners(trx);
      const sat = new Map<string, Set<string>>();
      for (const mark of marks) sat.set(mark.studentid, (sat.get(mark.studentid) ?? new Set()).add(mark.subject));
      const combinations = A_LEVEL_COMBINATIONS.map(({ subjects }) => [...subjects, 'General Paper'].sort().join(','));
      for (const learner of learners) {
        const subjects = [...(sat.get(learner.studentid) ?? [])];
        if (/^S[1-4]$/.test(learner.form)) {
          expect(subjects, learner.studentid).toHaveLength(O_LEVEL_CORE.length + 1);
          expect(subjects).toEqual(expect.arrayContaining([...O_LEVEL_CORE]));
        } else {
          expect(combinations, learner.studentid).toContain(subjects.sort().join(','));
        }
      }
      // Physics in S5: papers I to III for each learner sitting it; a subject of one paper, I.
      const physics = marks.filter((mark) => mark.form === 'S5' && mark.subject === 'Physics');
      expect(physics.length).toBeGreaterThan(0);
      const papers = new Map<string, string[]>();
      for (const mark of physics) papers.set(mark.studentid, [...(papers.get(mark.studentid) ?? []), mark.paper].sort());
      expect(new Set([...papers.values()].map((list) => list.join(',')))).toEqual(new Set(['I,II,III']));
      expect(new Set(marks.filter((mark) => mark.subject === 'General Paper').map((mark) => mark.paper))).toEqual(new Set(['I']));
      expect(new Set(marks.filter((mark) => mark.form === 'S2').map((mark) => mark.paper))).toEqual(new Set(['I']));
      // Every mark entered by the subject teacher of its class and stream.
      const teachers = await trx
        .selectFrom('subject_teachers as a')
        .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'a.tenant_id').onRef('s.id', '=', 'a.subject_id'))
        .select(['a.user_id', 'a.form', 'a.stream', 's.name'])
        .where('a.term', '=', MARKS.term)
        .where('a.year', '=', MARKS.year)
        .execute();
      const teacherOf = new Map(teachers.map((row) => [`${row.form}|${row.stream}|${row.name}`, row.user_id]));
      for (const mark of marks) expect(mark.user_id).toBe(teacherOf.get(`${mark.form}|${mark.stream}|${mark.subject}`));
    });
  });

  it('records every active learner’s attendance of the term, never more days than the term has', async () => {
    const dates = defaultTermDates(MARKS.year).find((term) => term.term === MARKS.term)!;
    for (const school of SCHOOLS) {
      await inSchool(school, async (trx) => {
        const learners = await activeLearners(trx);
        const rows = await trx
          .selectFrom('attendances')
          .select(['student_id', 'form', 'stream', 'days', 'total_days', 'user_id'])
          .where('term', '=', MARKS.term)
          .where('year', '=', MARKS.year)
          .execute();
        expect(rows.map((row) => row.student_id).sort(), school).toEqual(learners.map((learner) => learner.id).sort());
        expect(rows.every((row) => row.total_days === schoolDays(dates.starts, dates.ends) && row.days <= row.total_days)).toBe(true);
        expect(rows.every((row) => row.days >= row.total_days - 15 && row.user_id)).toBe(true);
        expect(new Set(rows.map((row) => row.days)).size).toBeGreaterThan(5);
      });
    }
  });

  it('sets targets from 50 to 90 in Mathematics and English for the candidate classes, P7 and S4', async () => {
    for (const school of SCHOOLS) {
      await inSchool(school, async (trx) => {
        const learners = (await activeLearners(trx)).filter((learner) => TARGET_FORMS.includes(learner.form));
        const targets = await trx
          .selectFrom('mark_targets as g')
          .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'g.tenant_id').onRef('s.id', '=', 'g.subject_id'))
          .select(['g.student_id', 'g.form', 's.name', sql<number>`g.target::float8`.as('target')])
          .where('g.term', '=', MARKS.term)
          .where('g.year', '=', MARKS.year)
          .execute();
        expect(learners.length, school).toBe(80);
        expect(targets).toHaveLength(learners.length * 2);
        expect(new Set(targets.map((target) => target.form))).toEqual(new Set(learners.map((learner) => learner.form)));
        expect(new Set(targets.map((target) => target.name))).toEqual(
          new Set(school === 'demo-primary' ? ['Mathematics', 'English'] : ['Mathematics', 'English Language']),
        );
        expect(targets.every((target) => target.target >= 50 && target.target <= 90)).toBe(true);
        expect(new Set(targets.map((target) => target.target)).size).toBeGreaterThan(3);
      });
    }
  });

  it('publishes BOT of the term, and every exam of last term (ended), nothing else', async () => {
    for (const school of SCHOOLS) {
      const published = await inSchool(school, (trx) =>
        trx
          .selectFrom('publish_marks as p')
          .innerJoin('mark_types as t', (join) => join.onRef('t.tenant_id', '=', 'p.tenant_id').onRef('t.id', '=', 'p.marktype_id'))
          .select(['p.term', 'p.year', 't.label'])
          .execute(),
      );
      const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
      expect(published.sort(byLabel), school).toEqual(
        [
          { term: MARKS.term, year: MARKS.year, label: 'BOT' },
          ...['BOT', 'EOT', 'MOT'].map((label) => ({ term: LAST.term, year: LAST.year, label })),
        ].sort(byLabel),
      );
    }
  });

  it('adds nothing to the shop', async () => {
    const shop = await database.db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-shop').executeTakeFirstOrThrow();
    const counts = await withTenant(database.db, { tenantId: shop.id }, async (trx) => [
      (await trx.selectFrom('marks').select('id').execute()).length,
      (await trx.selectFrom('attendances').select('id').execute()).length,
    ]);
    expect(counts).toEqual([0, 0]);
  });
});

/** Last term: the term before the marks term, ended, its results all in (issue 28 point 9). */
const LAST = termBefore(MARKS);

describe('last term’s results in the demo (issue 28 point 9)', () => {
  it('is the term before the marks term: Term I’s is Term III of the year before', () => {
    expect(termBefore({ term: 'III', year: 2026 })).toEqual({ term: 'II', year: 2026 });
    expect(termBefore({ term: 'II', year: 2026 })).toEqual({ term: 'I', year: 2026 });
    expect(termBefore({ term: 'I', year: 2026 })).toEqual({ term: 'III', year: 2025 });
    // Every exam in the old curriculum's classes; S1 to S4 (new curriculum) their summative exam.
    expect(lastTermExams('P5')).toEqual(['BOT', 'MOT', 'EOT']);
    expect(lastTermExams('S6')).toEqual(['BOT', 'MOT', 'EOT']);
    expect(lastTermExams('S2')).toEqual(['EOT']);
  });

  const lastMarks = (trx: Trx) =>
    trx
      .selectFrom('marks as m')
      .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'm.tenant_id').onRef('s.id', '=', 'm.subject_id'))
      .innerJoin('mark_types as t', (join) => join.onRef('t.tenant_id', '=', 'm.tenant_id').onRef('t.id', '=', 'm.marktype_id'))
      .innerJoin('students as l', (join) => join.onRef('l.tenant_id', '=', 'm.tenant_id').onRef('l.id', '=', 'm.student_id'))
      .select([
        'l.studentid',
        'm.form',
        'm.stream',
        'l.stream as learner_stream',
        's.name as subject',
        't.label',
        'm.paper',
        'm.absent',
        'm.user_id',
      ])
      .select(sql<number | null>`m.mark::float8`.as('mark'))
      .where('m.term', '=', LAST.term)
      .where('m.year', '=', LAST.year)
      .where('m.topic_id', 'is', null)
      .execute();

  it('gives every active learner of P5 BOT, MOT and EOT of last term in every subject, by the subject teachers', async () => {
    await inSchool('demo-primary', async (trx) => {
      const learners = (await activeLearners(trx)).filter((learner) => learner.form === 'P5');
      const subjects = (await trx.selectFrom('subjects').select('name').execute()).map((row) => row.name).sort();
      const marks = (await lastMarks(trx)).filter((mark) => mark.form === 'P5');
      expect(marks.map((mark) => `${mark.studentid}|${mark.subject}|${mark.label}|${mark.paper}`).sort()).toEqual(
        learners
          .flatMap((learner) =>
            subjects.flatMap((subject) => ['BOT', 'MOT', 'EOT'].map((label) => `${learner.studentid}|${subject}|${label}|I`)),
          )
          .sort(),
      );
      expect(marks.every((mark) => mark.user_id && mark.stream === mark.learner_stream)).toBe(true);
    });
  });

  it('has every exam in every class (EOT only in S1 to S4), marks of their own: learners improved or dropped', async () => {
    const classes = { 'demo-primary': ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'], 'demo-secondary': ['S1', 'S2', 'S3', 'S4', 'S5', 'S6'] };
    for (const school of SCHOOLS) {
      const [marks, now] = await Promise.all([inSchool(school, lastMarks), marksIn(school)]);
      for (const label of ['BOT', 'MOT', 'EOT'])
        expect([...new Set(marks.filter((mark) => mark.label === label).map((mark) => mark.form))].sort(), `${school} ${label}`).toEqual(
          classes[school].filter((form) => lastTermExams(form).includes(label)),
        );
      const absent = marks.filter((mark) => mark.absent);
      expect(absent.length / marks.length, school).toBeLessThan(0.03);
      expect(absent.every((mark) => mark.mark === null)).toBe(true);
      // Not this term's marks again: the same cell differs in most learners.
      const thisTerm = new Map(now.map((mark) => [`${mark.studentid}|${mark.subject}|${mark.label}|${mark.paper}`, mark.mark]));
      const both = marks.filter((mark) => thisTerm.has(`${mark.studentid}|${mark.subject}|${mark.label}|${mark.paper}`));
      expect(both.length, school).toBeGreaterThan(1000);
      const same = both.filter((mark) => thisTerm.get(`${mark.studentid}|${mark.subject}|${mark.label}|${mark.paper}`) === mark.mark);
      expect(same.length / both.length, school).toBeLessThan(0.3);
    }
  });

  it('records last term’s attendance for every active learner', async () => {
    const dates = defaultTermDates(LAST.year).find((term) => term.term === LAST.term)!;
    for (const school of SCHOOLS) {
      const rows = await inSchool(school, (trx) =>
        trx
          .selectFrom('attendances')
          .select(['student_id', 'total_days'])
          .where('term', '=', LAST.term)
          .where('year', '=', LAST.year)
          .execute(),
      );
      const learners = await inSchool(school, activeLearners);
      expect(rows.map((row) => row.student_id).sort(), school).toEqual(learners.map((learner) => learner.id).sort());
      expect(rows.every((row) => row.total_days === schoolDays(dates.starts, dates.ends))).toBe(true);
    }
  });
});

describe('seeding the demo again after the school changed its staff', () => {
  it('keeps a place the school gave someone else, or to one teacher for the whole class, and puts back only what was removed', async () => {
    const [teacherId] = await ids([DEMO_TEACHER_EMAIL]);
    const [other] = await ids([staffEmail(DEMO_STAFF['demo-primary']!.staff[2]!.name)]);
    const state = () =>
      inSchool('demo-primary', async (trx) => ({
        maths: await trx
          .selectFrom('subject_teachers as a')
          .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'a.tenant_id').onRef('s.id', '=', 'a.subject_id'))
          .select(['a.user_id', 'a.stream', 'a.term'])
          .where('a.form', '=', 'P5')
          .where('s.name', '=', 'Mathematics')
          .orderBy('a.term')
          .orderBy('a.stream')
          .execute(),
        mathsId: (await trx.selectFrom('subjects').select('id').where('name', '=', 'Mathematics').executeTakeFirstOrThrow()).id,
        footers: (await trx.selectFrom('report_footers').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n,
      }));
    const { footers, mathsId } = await state();
    const primary = await database.db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
    await inSchool('demo-primary', async (trx) => {
      await trx
        .updateTable('subject_teachers')
        .set({ user_id: other! })
        .where('user_id', '=', teacherId!)
        .where('stream', '=', 'West')
        .where('term', '=', 'I')
        .execute();
      // Term II: one teacher for P5 Mathematics in every stream (no stream).
      await trx.deleteFrom('subject_teachers').where('user_id', '=', teacherId!).where('term', '=', 'II').execute();
      await trx
        .insertInto('subject_teachers')
        .values({
          tenant_id: primary.id,
          id: newId(),
          user_id: other!,
          subject_id: mathsId,
          form: 'P5',
          stream: null,
          term: 'II',
          year: YEAR,
        })
        .execute();
      await trx.deleteFrom('report_footers').where('form', '=', 'P7').where('term', '=', 'III').execute();
    });
    await seedDemo(database, config.demoPassword);
    const now = await state();
    expect(now.footers).toBe(footers);
    expect(now.maths.filter((row) => row.term === 'I')).toEqual([
      { user_id: teacherId, stream: 'East', term: 'I' },
      { user_id: other, stream: 'West', term: 'I' },
    ]);
    expect(now.maths.filter((row) => row.term === 'II')).toEqual([{ user_id: other, stream: null, term: 'II' }]);
    expect(now.maths.filter((row) => row.term === 'III')).toEqual([
      { user_id: teacherId, stream: 'East', term: 'III' },
      { user_id: teacherId, stream: 'West', term: 'III' },
    ]);
  });
});
