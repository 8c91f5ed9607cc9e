import { TENANT_HEADER } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.js';
import { withTenant } from '../db/tenant.js';
import { setCodeTenantFilterForTests } from '../db/tenant-filter.js';
import { makeStudents, makeTenant, makeUser, roleNamesIn } from '../test/factories.js';
import { buildTestApp, joinWithCode, login, type TestApp } from '../test/test-app.js';

/**
 * security.md items 5 and 6: cross-tenant access is impossible. A matrix of the tenant routes
 * (own id / other tenant's id x member / non-member TENANTCODE x role) expects 2xx/404/403/401
 * and checks the database after every write; it runs twice, the second time with the code's
 * own tenant filter switched off, so row-level security alone must keep the tenants apart.
 * Roles and TENANTCODE are this file's subject; every route of the route table against another
 * tenant's records (ids, lists, writes naming them) is in route-isolation.test.ts.
 */

type Role = 'superadmin' | 'headteacher' | 'teacher' | 'none' | 'anonymous';
const ROLES: Role[] = ['superadmin', 'headteacher', 'teacher', 'none', 'anonymous'];

/** What each role of tenant A may do on the routes of the matrix (default-roles.ts). */
const GRANTS: Record<Role, string[]> = {
  superadmin: ['read tenant', 'update tenant', 'create tenant', 'read user', 'create user', 'update user', 'delete user'],
  headteacher: ['read tenant', 'read user', 'create user', 'update user', 'delete user'],
  teacher: [],
  none: [],
  anonymous: [],
};

let t: TestApp;
let schoolA: { id: string; tenantcode: string };
let schoolB: { id: string; tenantcode: string };
/** Members of A only, one per role; `none` is a member without roles. */
const tokens = {} as Record<Exclude<Role, 'anonymous'>, string>;
const membersOfA: string[] = [];
/** Teacher in A, headteacher in B: the target of role changes in A. */
let dual: { id: string; email: string };
/** Members of B only. */
let bHead: { id: string; email: string };
let bTeacher: { id: string; email: string };
/** Superadmin in A, teacher in B: roles are per tenant. */
let cross: { id: string; email: string };
let crossToken: string;
let platformAdmin: { id: string; email: string };
let outsiderToken: string;
let created = 0;

function send(
  token: string | undefined,
  tenantcode: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(tenantcode ? { [TENANT_HEADER]: tenantcode } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Role names of a user in a tenant, read through RLS in that tenant. */
const rolesIn = (tenantId: string, userId: string) => roleNamesIn(t.database, tenantId, userId);

async function membershipTenants(userId: string, tenantIds: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const tenantId of tenantIds) {
    const row = await withTenant(t.database.db, { tenantId }, (trx) =>
      trx.selectFrom('memberships').select('tenant_id').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst(),
    );
    if (row) found.push(tenantId);
  }
  return found;
}

const tenantRow = (id: string) =>
  t.database.db.selectFrom('tenants').select(['id', 'tenantcode', 'name', 'category']).where('id', '=', id).executeTakeFirstOrThrow();

const userByEmail = (email: string) =>
  t.database.db.selectFrom('users').select(['id', 'is_admin']).where('email', '=', email).executeTakeFirst();

beforeAll(async () => {
  t = await buildTestApp();
  schoolA = await makeTenant(t.database, { name: 'Namilyango Primary' });
  schoolB = await makeTenant(t.database, { name: 'Budo Junior School' });
  for (const role of ['superadmin', 'headteacher', 'teacher', 'none'] as const) {
    const person = await makeUser(t.database, { memberOf: [{ tenantId: schoolA.id, roles: role === 'none' ? [] : [role] }] });
    membersOfA.push(person.id);
    tokens[role] = await login(t.app, person.email);
  }
  dual = await makeUser(t.database, {
    memberOf: [
      { tenantId: schoolA.id, roles: ['teacher'] },
      { tenantId: schoolB.id, roles: ['headteacher'] },
    ],
  });
  membersOfA.push(dual.id);
  bHead = await makeUser(t.database, { memberOf: [{ tenantId: schoolB.id, roles: ['headteacher'] }] });
  bTeacher = await makeUser(t.database, { memberOf: [{ tenantId: schoolB.id, roles: ['teacher'] }] });
  await makeUser(t.database, { memberOf: [{ tenantId: schoolB.id, roles: ['superadmin'] }] });
  cross = await makeUser(t.database, {
    memberOf: [
      { tenantId: schoolA.id, roles: ['superadmin'] },
      { tenantId: schoolB.id, roles: ['teacher'] },
    ],
  });
  membersOfA.push(cross.id);
  crossToken = await login(t.app, cross.email);
  platformAdmin = await makeUser(t.database, { isAdmin: true, memberOf: [{ tenantId: schoolA.id }] });
  membersOfA.push(platformAdmin.id);
  const outsider = await makeUser(t.database);
  outsiderToken = await login(t.app, outsider.email);
  await makeStudents(t.database, schoolA.id, 'P1', 3);
  await makeStudents(t.database, schoolB.id, 'P5', 7);
  // B keeps stock too: A's dashboard must count none of it.
  await withTenant(t.database.db, { tenantId: schoolB.id }, (trx) =>
    trx.insertInto('locations').values({ tenant_id: schoolB.id, id: newId(), name: 'B store' }).execute(),
  );
});
afterAll(async () => {
  codeFilter(true);
  await t.close();
});

/**
 * Switches the code's tenant filter. Cached sign-in state (plugins/auth-cache.ts) computed under
 * the other setting is dropped, so each request is decided under the setting of its test.
 */
function codeFilter(enabled: boolean) {
  setCodeTenantFilterForTests(enabled);
  t.database.changes.bump();
}

interface MatrixCase {
  name: string;
  role: Role;
  tenant: 'member' | 'non-member';
  /** Runs the request and checks the answer and the database. */
  run(token: string | undefined, tenantcode: string): Promise<void>;
}

function expected(role: Role, tenant: 'member' | 'non-member', grant: string | 'member'): 200 | 401 | 403 {
  if (role === 'anonymous') return 401;
  if (tenant === 'non-member') return 403;
  if (grant === 'member') return 200;
  return GRANTS[role].includes(grant) ? 200 : 403;
}

function expectStatus(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  if (status >= 400) {
    const messages: Record<number, string> = {
      401: 'Please login',
      403: 'You are not permitted to access this content',
      404: 'Sorry! the data you are looking for could not be found',
    };
    expect(response.json()).toEqual({ statusCode: status, message: messages[status] });
  }
}

/** The matrix, generated from the tenant routes of the route table. */
function matrix(): MatrixCase[] {
  const cases: MatrixCase[] = [];
  for (const role of ROLES) {
    for (const tenant of ['member', 'non-member'] as const) {
      const add = (name: string, run: MatrixCase['run']) =>
        cases.push({ name: `${name} as ${role}, ${tenant} TENANTCODE`, role, tenant, run });

      add('GET /api/users/profile', async (token, code) => {
        const response = await send(token, code, 'GET', '/api/users/profile');
        const status = expected(role, tenant, 'member');
        expectStatus(response, status);
        if (status === 200) expect(response.json().tenant.id).toBe(schoolA.id);
      });

      add('GET /api/home/mustard', async (token, code) => {
        const response = await send(token, code, 'GET', '/api/home/mustard');
        const status = expected(role, tenant, 'member');
        expectStatus(response, status);
        if (status === 200) expect(response.json()).toEqual({ students: { P1: 3 }, locations: 0 });
      });

      add('GET /api/tenants', async (token, code) => {
        const response = await send(token, code, 'GET', '/api/tenants?per_page=1000');
        const status = expected(role, tenant, 'read tenant');
        expectStatus(response, status);
        if (status === 200) {
          expect(response.json().tenants.map((row: { id: string }) => row.id)).toEqual([schoolA.id]);
          expect(response.json().totalRecords).toBe(1);
        }
      });

      for (const which of ['own', 'other'] as const) {
        const id = () => (which === 'own' ? schoolA.id : schoolB.id);

        add(`GET /api/tenants/:id (${which} tenant)`, async (token, code) => {
          const response = await send(token, code, 'GET', `/api/tenants/${id()}`);
          const status = expected(role, tenant, 'read tenant');
          if (status === 200 && which === 'other') return expectStatus(response, 404);
          expectStatus(response, status);
          if (status === 200) expect(response.json().tenant).toMatchObject({ id: schoolA.id, tenantcode: schoolA.tenantcode });
        });

        add(`PUT /api/tenants/:id (${which} tenant)`, async (token, code) => {
          const before = await tenantRow(id());
          const name = `Renamed ${++created}`;
          const response = await send(token, code, 'PUT', `/api/tenants/${id()}`, {
            name,
            tenantcode: before.tenantcode,
            category: 'Hospital',
          });
          const status = expected(role, tenant, 'update tenant');
          if (status === 200 && which === 'own') {
            expectStatus(response, 200);
            expect(response.json()).toMatchObject({ id: schoolA.id, name, category: 'Hospital' });
            expect(await tenantRow(schoolA.id)).toMatchObject({ name, category: 'Hospital', tenantcode: schoolA.tenantcode });
            return;
          }
          expectStatus(response, status === 200 ? 404 : status);
          expect(await tenantRow(id())).toEqual(before);
        });

        add(`GET /api/users/:id (${which} tenant's user)`, async (token, code) => {
          const userId = which === 'own' ? dual.id : bTeacher.id;
          const response = await send(token, code, 'GET', `/api/users/${userId}`);
          const status = expected(role, tenant, 'read user');
          if (status === 200 && which === 'other') return expectStatus(response, 404);
          expectStatus(response, status);
          if (status === 200) {
            expect(response.json().user.id).toBe(dual.id);
            // Only the roles of A, never dual's headteacher role of B.
            expect(response.json().user.roles.map((r: { name: string }) => r.name)).toEqual(await rolesIn(schoolA.id, dual.id));
          }
        });

        add(`PUT /api/users/:id (${which} tenant's user)`, async (token, code) => {
          const target = which === 'own' ? dual : bTeacher;
          const beforeA = await rolesIn(schoolA.id, target.id);
          const beforeB = await rolesIn(schoolB.id, target.id);
          const next = beforeA.includes('bursar') ? 'teacher' : 'bursar';
          const response = await send(token, code, 'PUT', `/api/users/${target.id}`, { roles: [next] });
          const status = expected(role, tenant, 'update user');
          if (status === 200 && which === 'own') {
            expectStatus(response, 200);
            expect(response.json().roles.map((r: { name: string }) => r.name)).toEqual([next]);
            expect(await rolesIn(schoolA.id, dual.id)).toEqual([next]);
            expect(await rolesIn(schoolB.id, dual.id)).toEqual(['headteacher']);
            return;
          }
          expectStatus(response, status === 200 ? 404 : status);
          expect(await rolesIn(schoolA.id, target.id)).toEqual(beforeA);
          expect(await rolesIn(schoolB.id, target.id)).toEqual(beforeB);
        });
      }

      add("DELETE /api/users/:id (own tenant's user, also a member of B)", async (token, code) => {
        const victim = await makeUser(t.database, {
          memberOf: [
            { tenantId: schoolA.id, roles: ['teacher'] },
            { tenantId: schoolB.id, roles: ['teacher'] },
          ],
        });
        const response = await send(token, code, 'DELETE', `/api/users/${victim.id}`);
        const status = expected(role, tenant, 'delete user');
        expectStatus(response, status);
        expect(await membershipTenants(victim.id, [schoolA.id, schoolB.id])).toEqual(
          status === 200 ? [schoolB.id] : [schoolA.id, schoolB.id],
        );
        expect(await rolesIn(schoolB.id, victim.id)).toEqual(['teacher']);
      });

      add("DELETE /api/users/:id (other tenant's user)", async (token, code) => {
        const response = await send(token, code, 'DELETE', `/api/users/${bTeacher.id}`);
        const status = expected(role, tenant, 'delete user');
        expectStatus(response, status === 200 ? 404 : status);
        expect(await membershipTenants(bTeacher.id, [schoolA.id, schoolB.id])).toEqual([schoolB.id]);
      });

      add('GET /api/users', async (token, code) => {
        const response = await send(token, code, 'GET', '/api/users?per_page=1000');
        const status = expected(role, tenant, 'read user');
        expectStatus(response, status);
        if (status === 200) {
          const ids: string[] = response.json().users.map((user: { id: string }) => user.id);
          const expectedIds = await withTenant(t.database.db, { tenantId: schoolA.id }, (trx) =>
            trx.selectFrom('memberships').select('user_id').where('tenant_id', '=', schoolA.id).execute(),
          );
          expect(ids.sort()).toEqual(expectedIds.map((row) => row.user_id).sort());
          expect(ids).toEqual(expect.arrayContaining(membersOfA));
          expect(ids).not.toContain(bHead.id);
          expect(ids).not.toContain(bTeacher.id);
          expect(response.json().totalRecords).toBe(ids.length);
        }
      });

      add('POST /api/users', async (token, code) => {
        const email = `new-${++created}-${Date.now()}@matrix.test`;
        const response = await send(token, code, 'POST', '/api/users', {
          name: 'New Person',
          email,
          roles: ['teacher'],
        });
        const status = expected(role, tenant, 'create user');
        expectStatus(response, status);
        const row = await userByEmail(email);
        if (status === 200) {
          // An invitation of A: no membership anywhere until the person accepts it, then A only.
          expect(response.json().status).toBe('pending');
          expect(await membershipTenants(row!.id, [schoolA.id, schoolB.id])).toEqual([]);
          await joinWithCode(t.app, response.json().code);
          expect(await membershipTenants(row!.id, [schoolA.id, schoolB.id])).toEqual([schoolA.id]);
          expect(await rolesIn(schoolA.id, row!.id)).toEqual(['teacher']);
        } else {
          expect(row).toBeUndefined();
        }
      });
    }
  }
  return cases;
}

/** The same cases run with the code's filter on and off (the describe blocks switch it). */
function runMatrix() {
  const codes = () => ({ member: schoolA.tenantcode, 'non-member': schoolB.tenantcode });
  for (const testCase of matrix()) {
    it(testCase.name, async () => {
      const token = testCase.role === 'anonymous' ? undefined : tokens[testCase.role];
      await testCase.run(token, codes()[testCase.tenant]);
    });
  }
}

describe('cross-tenant matrix, code filter and RLS', () => {
  runMatrix();
});

describe('cross-tenant matrix, RLS alone (code tenant filter off)', () => {
  beforeAll(() => codeFilter(false));
  afterAll(() => codeFilter(true));
  runMatrix();
});

describe('TENANTCODE against live membership (item 6)', () => {
  it('a token of a member of A with the TENANTCODE of B -> 403 on every tenant route, whatever the role in A', async () => {
    for (const role of ['superadmin', 'headteacher', 'teacher', 'none'] as const) {
      for (const url of ['/api/users/profile', '/api/home/mustard', '/api/users', '/api/tenants', `/api/tenants/${schoolB.id}`]) {
        expectStatus(await send(tokens[role], schoolB.tenantcode, 'GET', url), 403);
      }
      // The same token with its own TENANTCODE still works: the 403 is about the header.
      expectStatus(await send(tokens[role], schoolA.tenantcode, 'GET', '/api/users/profile'), 200);
    }
    // Spelling variants of B's code are B's code.
    for (const code of [schoolB.tenantcode.toUpperCase(), ` ${schoolB.tenantcode} `]) {
      expectStatus(await send(tokens.superadmin, code, 'GET', '/api/users/profile'), 403);
    }
  });

  it('a signed-in user with no membership anywhere -> 403 with any TENANTCODE, and without one', async () => {
    for (const code of [schoolA.tenantcode, schoolB.tenantcode, undefined]) {
      expectStatus(await send(outsiderToken, code, 'GET', '/api/users/profile'), 403);
    }
  });

  it('a membership deleted in A -> the next request with the same token is refused with 403; B still works', async () => {
    const leaver = await makeUser(t.database, {
      memberOf: [
        { tenantId: schoolA.id, roles: ['headteacher'] },
        { tenantId: schoolB.id, roles: ['teacher'] },
      ],
    });
    const token = await login(t.app, leaver.email);
    expectStatus(await send(token, schoolA.tenantcode, 'GET', '/api/users'), 200);
    expectStatus(await send(token, schoolA.tenantcode, 'GET', '/api/users/profile'), 200);

    const deleted = await withTenant(t.database.db, { tenantId: schoolA.id }, (trx) =>
      trx.deleteFrom('memberships').where('tenant_id', '=', schoolA.id).where('user_id', '=', leaver.id).executeTakeFirst(),
    );
    expect(deleted.numDeletedRows).toBe(1n);

    expectStatus(await send(token, schoolA.tenantcode, 'GET', '/api/users/profile'), 403);
    expectStatus(await send(token, schoolA.tenantcode, 'GET', '/api/users'), 403);
    expectStatus(await send(token, schoolA.tenantcode, 'GET', '/api/home/mustard'), 403);
    expectStatus(await send(token, schoolB.tenantcode, 'GET', '/api/users/profile'), 200);
    // Switching school to the removed tenant is refused as well.
    expectStatus(await send(token, schoolB.tenantcode, 'GET', `/api/users/profile?tenant_id=${schoolA.id}`), 403);
  });

  it('a membership deleted in another tenant (from that tenant) does not touch A: RLS scopes the delete', async () => {
    // Deleting "dual"'s membership with tenant B set cannot reach its membership in A.
    const deletedFromA = await withTenant(t.database.db, { tenantId: schoolB.id }, (trx) =>
      trx.deleteFrom('memberships').where('tenant_id', '=', schoolA.id).where('user_id', '=', dual.id).executeTakeFirst(),
    );
    expect(deletedFromA.numDeletedRows).toBe(0n);
    expect(await membershipTenants(dual.id, [schoolA.id, schoolB.id])).toEqual([schoolA.id, schoolB.id]);
  });
});

describe('roles are per tenant', () => {
  it('superadmin in A and teacher in B: an administrator in A only', async () => {
    const inA = await send(crossToken, schoolA.tenantcode, 'GET', '/api/users/profile');
    expectStatus(inA, 200);
    expect(inA.json()).toMatchObject({ is_admin: true, admin: true });
    const inB = await send(crossToken, schoolB.tenantcode, 'GET', '/api/users/profile');
    expectStatus(inB, 200);
    expect(inB.json()).toMatchObject({ is_admin: false, admin: false, permissions: { mark: ['create'], remark: ['create'] } });

    expectStatus(await send(crossToken, schoolA.tenantcode, 'GET', '/api/users'), 200);
    expectStatus(await send(crossToken, schoolB.tenantcode, 'GET', '/api/users'), 403);
    expectStatus(await send(crossToken, schoolB.tenantcode, 'GET', '/api/tenants'), 403);
    expectStatus(await send(crossToken, schoolB.tenantcode, 'GET', `/api/users/${bTeacher.id}`), 403);

    const beforeB = await tenantRow(schoolB.id);
    const update = { name: 'Taken Over', tenantcode: schoolB.tenantcode, category: 'School' };
    // In B the teacher role may not update the tenant; from A the admin of A may not update B.
    expectStatus(await send(crossToken, schoolB.tenantcode, 'PUT', `/api/tenants/${schoolB.id}`, update), 403);
    expectStatus(await send(crossToken, schoolA.tenantcode, 'PUT', `/api/tenants/${schoolB.id}`, update), 403);
    expect(await tenantRow(schoolB.id)).toEqual(beforeB);

    // The admin of A may not change roles in B, from A or from B.
    const before = await rolesIn(schoolB.id, bTeacher.id);
    expectStatus(await send(crossToken, schoolB.tenantcode, 'PUT', `/api/users/${bTeacher.id}`, { roles: ['superadmin'] }), 403);
    expectStatus(await send(crossToken, schoolA.tenantcode, 'PUT', `/api/users/${bTeacher.id}`, { roles: ['superadmin'] }), 404);
    expect(await rolesIn(schoolB.id, bTeacher.id)).toEqual(before);

    // Nor grant itself B's superadmin role from A: it changes its roles in A only.
    const self = await send(crossToken, schoolA.tenantcode, 'PUT', `/api/users/${cross.id}`, { roles: ['superadmin', 'bursar'] });
    expectStatus(self, 200);
    expect(await rolesIn(schoolA.id, cross.id)).toEqual(['bursar', 'superadmin']);
    expect(await rolesIn(schoolB.id, cross.id)).toEqual(['teacher']);
  });

  it('a user created from A is a member of A only, even when it names roles that exist in B only', async () => {
    await withTenant(t.database.db, { tenantId: schoolB.id }, (trx) =>
      trx.insertInto('roles').values({ tenant_id: schoolB.id, id: newId(), name: 'b-only-role' }).execute(),
    );
    const email = `b-only-${Date.now()}@matrix.test`;
    const response = await send(tokens.superadmin, schoolA.tenantcode, 'POST', '/api/users', {
      name: 'Someone',
      email,
      roles: ['b-only-role'],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['roles']);
    expect(await userByEmail(email)).toBeUndefined();
  });
});

describe('platform administrators (users.is_admin) see every tenant by design', () => {
  let adminToken: string;
  beforeAll(async () => {
    adminToken = await login(t.app, platformAdmin.email);
  });

  it('lists, reads and updates every tenant from a tenant it belongs to', async () => {
    const list = await send(adminToken, schoolA.tenantcode, 'GET', '/api/tenants?per_page=1000');
    expectStatus(list, 200);
    const ids = list.json().tenants.map((row: { id: string }) => row.id);
    expect(ids).toEqual(expect.arrayContaining([schoolA.id, schoolB.id]));
    expectStatus(await send(adminToken, schoolA.tenantcode, 'GET', `/api/tenants/${schoolB.id}`), 200);
    const before = await tenantRow(schoolB.id);
    const update = await send(adminToken, schoolA.tenantcode, 'PUT', `/api/tenants/${schoolB.id}`, {
      name: 'Budo Junior School',
      tenantcode: before.tenantcode,
      category: 'School',
    });
    expectStatus(update, 200);
  });

  it('still needs a membership for a TENANTCODE, and sees only that tenant’s users', async () => {
    expectStatus(await send(adminToken, schoolB.tenantcode, 'GET', '/api/users/profile'), 403);
    expectStatus(await send(adminToken, schoolB.tenantcode, 'GET', '/api/users'), 403);
    const users = await send(adminToken, schoolA.tenantcode, 'GET', '/api/users?per_page=1000');
    expectStatus(users, 200);
    const ids = users.json().users.map((user: { id: string }) => user.id);
    expect(ids).not.toContain(bHead.id);
    expect(ids).not.toContain(bTeacher.id);
    expectStatus(await send(adminToken, schoolA.tenantcode, 'GET', `/api/users/${bTeacher.id}`), 404);
  });

  it('a superadmin role in a tenant is not a platform administrator: it sees only its own tenants', async () => {
    const list = await send(tokens.superadmin, schoolA.tenantcode, 'GET', '/api/tenants?per_page=1000');
    expect(list.json().tenants.map((row: { id: string }) => row.id)).toEqual([schoolA.id]);
    expectStatus(await send(tokens.superadmin, schoolA.tenantcode, 'GET', `/api/tenants/${schoolB.id}`), 404);
  });
});

describe('RLS alone (code tenant filter off): a member of two tenants', () => {
  beforeAll(() => codeFilter(false));
  afterAll(() => codeFilter(true));

  it('the users of A listed by a member of A and B are exactly A’s members', async () => {
    const response = await send(crossToken, schoolA.tenantcode, 'GET', '/api/users?per_page=1000');
    expectStatus(response, 200);
    const ids: string[] = response.json().users.map((user: { id: string }) => user.id);
    expect(ids.filter((id) => id === cross.id)).toHaveLength(1);
  });

  it('a member of A and B reads a user of B through A: 404', async () => {
    expectStatus(await send(crossToken, schoolA.tenantcode, 'GET', `/api/users/${bTeacher.id}`), 404);
    expectStatus(await send(crossToken, schoolA.tenantcode, 'GET', `/api/users/${bHead.id}`), 404);
  });

  it('the profile in A shows the roles of A only', async () => {
    const response = await send(crossToken, schoolA.tenantcode, 'GET', '/api/users/profile');
    expectStatus(response, 200);
    expect(
      response
        .json()
        .roles.map((role: { name: string }) => role.name)
        .sort(),
    ).toEqual(await rolesIn(schoolA.id, cross.id));
  });
});
