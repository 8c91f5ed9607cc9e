import { TENANT_MESSAGES } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../cli.js';
import { withTenant } from '../db/tenant.js';
import { DEMO_TENANT_CODES, isDemoEmail } from '../modules/tenants/demo-confinement.js';
import { seedDemo } from '../seed/demo.js';
import { removeDemo, removedText } from '../seed/demo-removal.js';
import { addMembership, makeStudents, makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, caller, login, type TestApp } from '../test/test-app.js';

/**
 * `mustard remove-demo` and `reset-demo` (issue 24 point 5), on both databases: the demo's tenants
 * and accounts go, in one transaction, and nothing else; the demo can then be seeded afresh.
 * The commands themselves, on a data directory, are in cli.test.ts.
 */
let t: TestApp;
const PASSWORD = 'Mustard@2026';

// The run's seeded demo (test-database.ts); seeding it again after the removal is the last test's subject.
beforeAll(async () => {
  t = await buildTestApp({}, { demo: true });
}, 60_000);
afterAll(() => t.close());

async function learnersIn(tenantId: string): Promise<number> {
  const row = await withTenant(t.database.db, { tenantId }, (trx) =>
    trx.selectFrom('students').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  );
  return row.n;
}

describe('removing the demo', () => {
  it('deletes the demo tenants with all they hold and the demo accounts; a school beside it and its people stay', async () => {
    const school = await makeTenant(t.database, { name: 'Kabojja Junior School' });
    await makeStudents(t.database, school.id, 'P1', 3);
    const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const demoPrimary = await t.database.db
      .selectFrom('tenants')
      .select('id')
      .where('tenantcode', '=', 'demo-primary')
      .executeTakeFirstOrThrow();
    // A real person who had joined a demo school to try it.
    await addMembership(t.database, head.id, { tenantId: demoPrimary.id, roles: ['teacher'] });
    expect(await learnersIn(demoPrimary.id)).toBeGreaterThan(0);

    const removed = await removeDemo(t.database);
    expect(removed.tenants).toEqual([...DEMO_TENANT_CODES].sort());
    expect(removed.accounts).toBeGreaterThan(10);
    expect(removedText(removed)).toBe(
      `Removed the demo: tenants demo-primary, demo-secondary, demo-shop and ${removed.accounts} demo accounts.`,
    );

    const tenants = await t.database.db.selectFrom('tenants').select('tenantcode').execute();
    expect(tenants.map((row) => row.tenantcode)).toEqual([school.tenantcode]);
    const users = await t.database.db.selectFrom('users').select('email').execute();
    expect(users.map((row) => row.email)).toEqual([head.email]);
    expect(users.filter((row) => isDemoEmail(row.email))).toEqual([]);
    expect(await learnersIn(demoPrimary.id)).toBe(0);
    expect(await learnersIn(school.id)).toBe(3);
    // The school's head still signs in and works there.
    const api = caller(t.app, await login(t.app, head.email), school.tenantcode);
    expect((await api.get('/api/home/mustard')).json().students).toEqual({ P1: 3 });
    // The demo's password opens nothing any more.
    const demoLogin = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: 'admin@mustard.demo', password: PASSWORD } },
    });
    expect(demoLogin.statusCode).toBe(401);

    expect(removedText(await removeDemo(t.database))).toBe('There was no demo to remove.');
  }, 240_000);

  it('keeps the demo’s tenant codes for the demo while it is gone: no school may take one, so a later seed never adopts it', async () => {
    const school = await makeTenant(t.database, { name: 'Code Keeper Primary' });
    const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const api = caller(t.app, await login(t.app, head.email), school.tenantcode);
    for (const tenantcode of ['demo-primary', 'Demo-Shop']) {
      const created = await api.post('/api/tenants', { tenantcode, name: 'Not The Demo', category: 'School' });
      expect(created.statusCode, tenantcode).toBe(422);
      expect(created.json().errors.tenantcode).toEqual([TENANT_MESSAGES.tenantcodeTaken]);
    }
    const { id: _id, ...tenant } = (await api.get(`/api/tenants/${school.id}`)).json().tenant;
    const renamed = await api.put(`/api/tenants/${school.id}`, { ...tenant, tenantcode: 'demo-secondary' });
    expect(renamed.statusCode, renamed.body).toBe(422);
    expect(renamed.json().errors.tenantcode).toEqual([TENANT_MESSAGES.tenantcodeTaken]);
    await expect(createTenant(t.database, { code: 'demo-primary', name: 'Not The Demo' })).rejects.toThrow(
      'The tenant code demo-primary is already taken.',
    );
    const codes = await t.database.db.selectFrom('tenants').select('tenantcode').execute();
    expect(codes.map((row) => row.tenantcode).filter((code) => code.startsWith('demo'))).toEqual([]);
  });

  it('seeds the demo afresh after a removal (reset-demo), beside the school that stayed', async () => {
    const summary = await seedDemo(t.database, PASSWORD);
    expect(summary.tenants).toEqual([...DEMO_TENANT_CODES]);
    const demoPrimary = await t.database.db
      .selectFrom('tenants')
      .select('id')
      .where('tenantcode', '=', 'demo-primary')
      .executeTakeFirstOrThrow();
    expect(await learnersIn(demoPrimary.id)).toBeGreaterThan(0);
    const admin = caller(t.app, await login(t.app, 'admin@mustard.demo', PASSWORD), 'demo-primary');
    expect((await admin.get('/api/home/mustard')).statusCode).toBe(200);
    expect((await t.database.db.selectFrom('tenants').select('id').execute()).length).toBe(5);
  }, 240_000);
});
