import { TENANT_MESSAGES } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenantTx, withUser } from '../../db/tenant.js';
import { DEMO_ADMIN_EMAIL, DEMO_TEACHER_EMAIL } from '../../seed/demo.js';
import { addMembership, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, caller, login, type TestApp } from '../../test/test-app.js';
import { hashCode } from '../auth/auth.repository.js';
import { upsertInvitation } from '../users/invitations.repository.js';
import { rolesByName } from '../users/users.repository.js';
import { DEMO_TENANT_CODES, isDemoEmail } from './demo-confinement.js';

/**
 * The demo is confined (issue 24 point 5): its accounts, whose password is published, work in the
 * demo tenants alone. The real demo is seeded, and its administrator and teacher try every way out.
 */
let t: TestApp;
const PASSWORD = 'Mustard@2026';

beforeAll(async () => {
  // A copy of the run's one seeded demo, whose accounts' password is the published one.
  t = await buildTestApp({ demoPassword: PASSWORD }, { demo: true });
}, 240_000);
afterAll(() => t.close());

async function tenantsOf(email: string): Promise<string[]> {
  const user = await t.database.db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
  // A person reads their own memberships in every tenant (app.user_id), as sign-in does.
  const { rows } = await withUser(t.database.db, user.id, (trx) =>
    sql<{ code: string }>`
      SELECT t.tenantcode AS code FROM memberships m JOIN tenants t ON t.id = m.tenant_id
      WHERE m.user_id = ${user.id} ORDER BY 1`.execute(trx),
  );
  return rows.map((row) => row.code);
}

/** A real school next to the demo, with its head teacher. */
async function realSchool() {
  const school = await makeTenant(t.database, { name: 'Kabojja Junior School' });
  const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
  return { school, head: caller(t.app, await login(t.app, head.email), school.tenantcode), headId: head.id };
}

describe('which accounts and tenants are the demo’s', () => {
  it('knows every account the seed made, and only addresses on the demo’s domain', async () => {
    const users = await t.database.db.selectFrom('users').select('email').execute();
    expect(users.length).toBeGreaterThan(10);
    for (const { email } of users) expect(isDemoEmail(email), email).toBe(true);
    expect(isDemoEmail('Admin@Mustard.Demo')).toBe(true);
    expect(isDemoEmail('head@kabojja.ac.ug')).toBe(false);
    expect(isDemoEmail('someone@mustard.demo.ug')).toBe(false);
    expect(isDemoEmail('mustard.demo')).toBe(false);
    const tenants = await t.database.db.selectFrom('tenants').select('tenantcode').orderBy('tenantcode').execute();
    expect(tenants.map((row) => row.tenantcode)).toEqual([...DEMO_TENANT_CODES].sort());
  });
});

describe('the demo accounts stay in the demo', () => {
  it('refuses the demo administrator creating a school or a business (403 naming why), and creates nothing', async () => {
    const admin = caller(t.app, await login(t.app, DEMO_ADMIN_EMAIL, PASSWORD), 'demo-primary');
    for (const category of ['School', 'Retail']) {
      const response = await admin.post('/api/tenants', { tenantcode: `mine-${category}`, name: 'My Own School', category });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(TENANT_MESSAGES.demoCannotCreate);
    }
    expect(await t.database.db.selectFrom('tenants').select('id').where('tenantcode', 'like', 'mine-%').execute()).toEqual([]);
    expect(await tenantsOf(DEMO_ADMIN_EMAIL)).toEqual([...DEMO_TENANT_CODES].sort());
  });

  it('lets a real school’s head create a school beside the demo: the refusal is the demo’s alone', async () => {
    const { head } = await realSchool();
    const response = await head.post('/api/tenants', { tenantcode: 'kabojja-2', name: 'Kabojja Two', category: 'School' });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a real school inviting a demo account, so it can never be reached with the demo’s password', async () => {
    const { school, head } = await realSchool();
    for (const email of [DEMO_ADMIN_EMAIL, DEMO_TEACHER_EMAIL.toUpperCase(), 'grace.namubiru@mustard.demo']) {
      const response = await head.post('/api/users', { name: 'Demo', email, roles: ['teacher'] });
      expect(response.statusCode, email).toBe(403);
      expect(response.json().message).toBe(TENANT_MESSAGES.demoCannotJoin);
    }
    const invitations = await withTenantTx(t.database.db, { tenantId: school.id }, (tx) =>
      tx.trx.selectFrom('invitations').select('id').execute(),
    );
    expect(invitations).toEqual([]);
    // The demo password does not open the school: no demo account is a member of it.
    expect(await tenantsOf(DEMO_TEACHER_EMAIL)).not.toContain(school.tenantcode);
  });

  it('refuses a demo account joining another school with an invitation’s code (one left from before), and writes nothing', async () => {
    const { school, headId } = await realSchool();
    const code = 'ABCDEFGHJKMN';
    const admin = await t.database.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow();
    const invitationId = await withTenantTx(t.database.db, { tenantId: school.id, userId: headId }, async (tx) => {
      const roles = await rolesByName(tx, ['superadmin']);
      return upsertInvitation(tx, {
        userId: admin.id,
        email: DEMO_ADMIN_EMAIL,
        name: 'Demo Administrator',
        invitedBy: headId,
        roleIds: [roles.get('superadmin') as string],
        codeHash: hashCode(code),
        expiresAt: new Date(Date.now() + 86_400_000),
      });
    });
    const join = await t.app.inject({ method: 'POST', url: '/auth/join', payload: { code, password: PASSWORD } });
    expect(join.statusCode).toBe(403);
    expect(join.json().message).toBe(TENANT_MESSAGES.demoCannotJoin);
    expect(await tenantsOf(DEMO_ADMIN_EMAIL)).not.toContain(school.tenantcode);
    // Signed in, from the banner: refused the same way.
    const token = await login(t.app, DEMO_ADMIN_EMAIL, PASSWORD);
    const accept = await caller(t.app, token).post(`/auth/invitations/${invitationId}/accept`, { code });
    expect(accept.statusCode).toBe(403);
    expect(accept.json().message).toBe(TENANT_MESSAGES.demoCannotJoin);
    expect(await tenantsOf(DEMO_ADMIN_EMAIL)).toEqual([...DEMO_TENANT_CODES].sort());
    const left = await withTenantTx(t.database.db, { tenantId: school.id }, (tx) =>
      tx.trx.selectFrom('invitations').select('id').where('id', '=', invitationId).execute(),
    );
    expect(left).toHaveLength(1);
  });

  it('refuses adding a demo account to another tenant any other way (the one check every membership passes)', async () => {
    const { school } = await realSchool();
    const teacher = await t.database.db.selectFrom('users').select('id').where('email', '=', DEMO_TEACHER_EMAIL).executeTakeFirstOrThrow();
    await expect(addMembership(t.database, teacher.id, { tenantId: school.id, roles: ['teacher'] })).rejects.toMatchObject({
      statusCode: 403,
      message: TENANT_MESSAGES.demoCannotJoin,
    });
    expect(await tenantsOf(DEMO_TEACHER_EMAIL)).not.toContain(school.tenantcode);
  });

  it('refuses a demo account inviting people into a tenant that is not the demo’s (a membership from before)', async () => {
    const { school } = await realSchool();
    const admin = await t.database.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow();
    // As an earlier version could have left it: the demo administrator a member of a real school.
    await withTenantTx(t.database.db, { tenantId: school.id }, async (tx) => {
      const roles = await rolesByName(tx, ['superadmin']);
      const membershipId = newId();
      await tx.trx.insertInto('memberships').values({ tenant_id: school.id, id: membershipId, user_id: admin.id }).execute();
      await tx.trx
        .insertInto('membership_roles')
        .values({ tenant_id: school.id, membership_id: membershipId, role_id: roles.get('superadmin') as string })
        .execute();
    });
    const demo = caller(t.app, await login(t.app, DEMO_ADMIN_EMAIL, PASSWORD), school.tenantcode);
    const response = await demo.post('/api/users', { name: 'Moses Okello', email: 'moses@kabojja.test', roles: ['teacher'] });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(TENANT_MESSAGES.demoCannotInvite);
    // In its own demo school the administrator still invites as before.
    const own = await demo.in('demo-primary').post('/api/users', { name: 'Moses Okello', email: 'moses@kabojja.test', roles: ['teacher'] });
    expect(own.statusCode).toBe(200);
  });
});
