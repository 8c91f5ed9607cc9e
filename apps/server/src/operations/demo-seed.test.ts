import { createHash } from 'node:crypto';
import { TENANT_HEADER } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import type { Database } from '../db/connect.js';
import { withTenant } from '../db/tenant.js';
import { DEMO_ADMIN_EMAIL, DEMO_TEACHER_EMAIL, type DemoSummary, seedDemo } from '../seed/demo.js';
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

let database: TestDatabase;
let app: FastifyInstance;
let config: Config;
let firstRun: DemoSummary;
let secondRun: DemoSummary;
let before: Record<string, TableSnapshot>;
let after: Record<string, TableSnapshot>;
let peopleBefore: Awaited<ReturnType<typeof people>>;
let peopleAfter: Awaited<ReturnType<typeof people>>;

beforeAll(async () => {
  config = testConfig();
  database = await openTestDatabase();
  app = await buildApp(config, database, { logger: false });
  firstRun = await seedDemo(database, config.demoPassword);
  before = await snapshot(database);
  peopleBefore = await people(database);
  secondRun = await seedDemo(database, config.demoPassword);
  after = await snapshot(database);
  peopleAfter = await people(database);
}, 60_000);
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
    expect(before.users?.count).toBe(2);
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

  it('answers the same summary both times', () => {
    expect(secondRun).toEqual(firstRun);
    expect(firstRun.tenants).toEqual(['demo-primary', 'demo-secondary', 'demo-shop']);
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
      expect(profile.json().permissions).toEqual({ mark: ['create'], remark: ['manage'] });
      expect(profile.json().permissions.student).toBeUndefined();
    }
    expect((await get('/api/users/profile', token, 'demo-shop')).statusCode).toBe(403);
    expect((await get('/api/users', token, 'demo-primary')).statusCode).toBe(403);
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
