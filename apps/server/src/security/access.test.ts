import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TENANT_HEADER } from '@mustard/shared';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.js';
import { withTenant } from '../db/tenant.js';
import { RouteWithoutAccessError, registerAccessControl } from '../plugins/access.js';
import { type AppRoute, appRoutes } from '../test/app-routes.js';
import { makeTenant, makeUser, roleNamesIn } from '../test/factories.js';
import { buildTestApp, joinWithCode, login, type TestApp } from '../test/test-app.js';

/**
 * Deny by default and the role x route matrix (security.md item 14), and mass assignment
 * (item 15).
 */

let t: TestApp;
let webDist: string;
let school: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
const tokens: Record<'superadmin' | 'headteacher' | 'teacher' | 'bursar', string> = {} as never;
let target: { id: string; email: string };

function send(role: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tokens[role]}`, [TENANT_HEADER]: school.tenantcode },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** A raw JSON body, for keys such as __proto__ that an object literal cannot carry. */
function sendRaw(role: keyof typeof tokens, method: 'POST' | 'PUT', url: string, json: string) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tokens[role]}`, [TENANT_HEADER]: school.tenantcode, 'content-type': 'application/json' },
    payload: json,
  });
}

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'mustard-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Mustard</title>');
  t = await buildTestApp({ webDist });
  school = await makeTenant(t.database, { name: 'Kisubi Primary' });
  other = await makeTenant(t.database, { name: 'Other Primary' });
  for (const role of ['superadmin', 'headteacher', 'teacher', 'bursar'] as const) {
    const person = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: [role] }] });
    tokens[role] = await login(t.app, person.email);
  }
  target = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
});
afterAll(() => t.close());

/** A Fastify instance with only the access control plugin (and what it reads). */
function bareApp(): FastifyInstance {
  const bare = Fastify({ logger: false });
  bare.decorate('config', t.config);
  bare.decorate('database', t.database);
  return bare;
}

describe('deny by default: the route table (item 14)', () => {
  it('a route without config.access cannot be added', async () => {
    const bare = bareApp();
    registerAccessControl(bare);
    await expect(
      (async () => {
        bare.get('/reports/secret', async () => ({ secret: true }));
        await bare.ready();
      })(),
    ).rejects.toThrow(RouteWithoutAccessError);
    await bare.close().catch(() => undefined);
  });

  it('a route without config.access cannot be added inside a plugin either', async () => {
    const bare = bareApp();
    registerAccessControl(bare);
    bare.register(async (child) => {
      child.post('/api/students', { config: {} }, async () => ({}));
    });
    await expect(bare.ready()).rejects.toThrow(RouteWithoutAccessError);
    await bare.close().catch(() => undefined);
  });

  it('an /api route cannot be public or signed-in: it must be a tenant route', async () => {
    for (const access of ['public', 'signed-in'] as const) {
      const bare = bareApp();
      registerAccessControl(bare);
      bare.register(async (child) => {
        child.get('/api/students', { config: { access } }, async () => ({}));
      });
      await expect(bare.ready()).rejects.toThrow(RouteWithoutAccessError);
      await bare.close().catch(() => undefined);
    }
  });

  it('the controls: routes that declare access are accepted', async () => {
    const bare = bareApp();
    registerAccessControl(bare);
    bare.get('/open', { config: { access: 'public' } }, async () => ({}));
    bare.get('/api/students', { config: { access: { action: 'read', subject: 'student' } } }, async () => ({}));
    await expect(bare.ready()).resolves.toBeDefined();
    await bare.close();
  });

  describe('the real route table', () => {
    let routes: AppRoute[] = [];
    beforeAll(async () => {
      routes = await appRoutes(t.config, t.database);
    });

    /** (method, path) pairs of an app, from its printed radix tree. */
    function routeTable(app: FastifyInstance): string[] {
      const pairs: string[] = [];
      const stack: string[] = [];
      for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
        const match = /^([│├└─\s]*)(\S.*?)(?: \(([^)]*)\))?$/.exec(line);
        if (!match) continue;
        const depth = (match[1] ?? '').length / 4;
        stack.length = depth;
        stack.push(match[2] ?? '');
        const url = stack.join('');
        for (const method of (match[3] ?? '')
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean)) {
          pairs.push(`${method} ${url.startsWith('/') ? url : `/${url}`}`);
        }
      }
      return pairs.sort();
    }

    it('is the real app’s route table', () => {
      const collected = routes.map((route) => `${route.method} ${route.url}`).sort();
      expect(routeTable(t.app)).toEqual(collected);
      expect(collected).toEqual(expect.arrayContaining(['GET /api/users', 'PUT /api/tenants/:id', 'POST /auth/login', 'GET /*']));
    });

    it('every route declares access, and every /api route is a tenant route', () => {
      expect(routes.length).toBeGreaterThan(10);
      expect(routes.filter((route) => !route.access).map((route) => `${route.method} ${route.url}`)).toEqual([]);
      const apiNotTenant = routes.filter(
        (route) => route.url.startsWith('/api') && (route.access === 'public' || route.access === 'signed-in'),
      );
      expect(apiNotTenant.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    });

    it('the public routes are exactly the sign-in, health and web page routes', () => {
      const publicRoutes = routes.filter((route) => route.access === 'public').map((route) => `${route.method} ${route.url}`);
      expect(publicRoutes.sort()).toEqual(
        [
          'GET /healthz',
          'HEAD /healthz',
          'GET /readyz',
          'HEAD /readyz',
          'POST /auth/type',
          'POST /auth/login',
          'POST /auth/redeemcode',
          'GET /auth/external/callback',
          'HEAD /auth/external/callback',
          'POST /auth/password/reset',
          'POST /auth/password/reset/confirm',
          'POST /auth/notify',
          'POST /auth/register',
          'POST /auth/register/verify',
          'POST /auth/register/resend',
          'GET /auth/join',
          'HEAD /auth/join',
          'POST /auth/join',
          'GET /*',
          'HEAD /*',
        ].sort(),
      );
    });

    it('every non-public route answers 401 "Please login" without a token, with or without a TENANTCODE', async () => {
      const guarded = routes.filter((route) => route.access !== 'public');
      expect(guarded.length).toBeGreaterThan(5);
      for (const route of guarded) {
        const url = route.url.replace(':id', newId());
        for (const headers of [{}, { [TENANT_HEADER]: school.tenantcode }]) {
          const response = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers,
            payload: route.method === 'GET' || route.method === 'HEAD' ? undefined : {},
          });
          expect({ route: `${route.method} ${route.url}`, status: response.statusCode }).toEqual({
            route: `${route.method} ${route.url}`,
            status: 401,
          });
          if (route.method !== 'HEAD') expect(response.json()).toEqual({ statusCode: 401, message: 'Please login' });
        }
      }
    });

    it('every tenant route answers 403 to a signed-in user without a TENANTCODE', async () => {
      const tenantRoutes = routes.filter((route) => route.access !== 'public' && route.access !== 'signed-in');
      for (const route of tenantRoutes) {
        const url = route.url.replace(':id', newId());
        const response = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: `Bearer ${tokens.superadmin}` },
          payload: route.method === 'GET' || route.method === 'HEAD' ? undefined : {},
        });
        expect({ route: `${route.method} ${route.url}`, status: response.statusCode }).toEqual({
          route: `${route.method} ${route.url}`,
          status: 403,
        });
      }
    });
  });
});

describe('role x route (item 14)', () => {
  const forbidden = { statusCode: 403, message: 'You are not permitted to access this content' };
  const newTenant = () => ({ name: 'New School', tenantcode: `new-${newId().slice(-12)}`, category: 'School' });

  it('teacher (create mark, manage remark): 403 on the users and tenants routes, 200 on member routes', async () => {
    const profile = await send('teacher', 'GET', '/api/users/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json().permissions).toEqual({ mark: ['create'], remark: ['create'] });
    expect((await send('teacher', 'GET', '/api/home/mustard')).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['GET', '/api/users', undefined],
      ['GET', `/api/users/${target.id}`, undefined],
      ['POST', '/api/users', { name: 'Someone', email: `t-${newId()}@x.test` }],
      ['PUT', `/api/users/${target.id}`, { roles: ['superadmin'] }],
      ['DELETE', `/api/users/${target.id}`, undefined],
      ['GET', '/api/tenants', undefined],
      ['GET', `/api/tenants/${school.id}`, undefined],
      ['POST', '/api/tenants', newTenant()],
      ['PUT', `/api/tenants/${school.id}`, { name: 'Renamed', tenantcode: school.tenantcode, category: 'School' }],
    ] as const) {
      const response = await send('teacher', method, url, body);
      expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 403 });
      expect(response.json()).toEqual(forbidden);
    }
    expect(await rolesOf(target.id)).toEqual(['teacher']);
  });

  it('a refused request is written to the audit log of the tenant', async () => {
    await send('teacher', 'GET', '/api/users');
    const rows = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').select(['action', 'entity']).where('action', '=', 'forbidden').where('entity', '=', 'user').execute(),
    );
    expect(rows.length).toBeGreaterThan(0);
  });

  it('bursar (manage student): 403 on users and tenants', async () => {
    expect((await send('bursar', 'GET', '/api/users')).statusCode).toBe(403);
    expect((await send('bursar', 'POST', '/api/tenants', newTenant())).statusCode).toBe(403);
  });

  it('headteacher: may list, read, add and change users and read the tenant; may not create or update tenants', async () => {
    const list = await send('headteacher', 'GET', '/api/users');
    expect(list.statusCode).toBe(200);
    expect(list.json().users.map((user: { id: string }) => user.id)).toContain(target.id);
    expect((await send('headteacher', 'GET', `/api/users/${target.id}`)).statusCode).toBe(200);
    expect((await send('headteacher', 'GET', `/api/tenants/${school.id}`)).statusCode).toBe(200);
    const tenant = newTenant();
    expect((await send('headteacher', 'POST', '/api/tenants', tenant)).statusCode).toBe(403);
    expect(
      await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', tenant.tenantcode).executeTakeFirst(),
    ).toBeUndefined();
    const before = await t.database.db.selectFrom('tenants').selectAll().where('id', '=', school.id).executeTakeFirstOrThrow();
    expect(
      (await send('headteacher', 'PUT', `/api/tenants/${school.id}`, { name: 'Renamed', tenantcode: school.tenantcode, category: 'Farm' }))
        .statusCode,
    ).toBe(403);
    expect(await t.database.db.selectFrom('tenants').selectAll().where('id', '=', school.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  // 'manage user' must not let a head teacher make anyone (itself included) the administrator.
  it('headteacher cannot grant the superadmin role, to itself or to others', async () => {
    const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    const headToken = await login(t.app, head.email);
    const put = (userId: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/users/${userId}`,
        headers: { authorization: `Bearer ${headToken}`, [TENANT_HEADER]: school.tenantcode },
        payload: { roles: ['superadmin'] },
      });
    const colleague = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    await put(colleague.id);
    expect(await rolesOf(colleague.id)).toEqual(['teacher']);
    await put(head.id);
    expect(await rolesOf(head.id)).toEqual(['headteacher']);
  });

  it('superadmin role: everything in its tenant', async () => {
    expect((await send('superadmin', 'GET', '/api/users')).statusCode).toBe(200);
    expect((await send('superadmin', 'GET', `/api/users/${target.id}`)).statusCode).toBe(200);
    const email = `sa-${newId()}@x.test`;
    const created = await send('superadmin', 'POST', '/api/users', {
      name: 'Added By Admin',
      email,
      roles: ['bursar'],
    });
    expect(created.statusCode).toBe(200);
    expect((await send('superadmin', 'GET', '/api/users/invitations')).statusCode).toBe(200);
    await joinWithCode(t.app, created.json().code);
    const user = await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const changed = await send('superadmin', 'PUT', `/api/users/${user.id}`, { roles: ['teacher', 'bursar'] });
    expect(changed.statusCode).toBe(200);
    expect(await rolesOf(user.id)).toEqual(['bursar', 'teacher']);
    expect((await send('superadmin', 'DELETE', `/api/users/${user.id}`)).statusCode).toBe(200);
    expect((await send('superadmin', 'GET', `/api/users/${user.id}`)).statusCode).toBe(404);
    expect((await send('superadmin', 'GET', '/api/tenants')).statusCode).toBe(200);
    const update = await send('superadmin', 'PUT', `/api/tenants/${school.id}`, {
      name: 'Kisubi Primary',
      tenantcode: school.tenantcode,
      category: 'School',
      phone: '0700 000000',
    });
    expect(update.statusCode).toBe(200);
    const tenant = newTenant();
    const createdTenant = await send('superadmin', 'POST', '/api/tenants', tenant);
    expect(createdTenant.statusCode).toBe(200);
    expect(createdTenant.json().tenantcode).toBe(tenant.tenantcode);
    // ... but not in another tenant.
    expect(
      (
        await send('superadmin', 'PUT', `/api/tenants/${other.id}`, {
          name: 'Other Primary',
          tenantcode: other.tenantcode,
          category: 'School',
        })
      ).statusCode,
    ).toBe(404);
  });
});

const rolesOf = (userId: string) => roleNamesIn(t.database, school.id, userId);

describe('mass assignment is refused (item 15)', () => {
  const EXTRAS: Array<[string, unknown]> = [
    ['tenant_id', '00000000-0000-7000-8000-000000000001'],
    ['id', '00000000-0000-7000-8000-000000000002'],
    ['role', 'superadmin'],
    ['is_admin', true],
    ['admin', true],
    ['password_hash', '$argon2id$v=19$m=19456,t=2,p=1$abc$def'],
  ];

  function expectRefused(response: LightMyRequestResponse, key: string) {
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ statusCode: 422, message: 'Some fields are not valid' });
    expect(response.json().errors[key]).toEqual(['This field is not accepted']);
  }

  /** Prototype keys: Fastify's JSON parser (secure-json-parse) refuses the body before any schema. */
  function expectPrototypeRefused(response: LightMyRequestResponse) {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message: expect.any(String) });
    expect(response.body).not.toMatch(/at .*\.js|stack|SyntaxError/i);
    expect(({} as Record<string, unknown>).is_admin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }

  const PROTOTYPE_KEYS = [
    '"__proto__": {"is_admin": true, "polluted": 1}',
    '"constructor": {"prototype": {"is_admin": true, "polluted": 1}}',
  ];

  it('POST /api/users with tenant_id, id, role, is_admin, admin or password_hash -> 422 and no user', async () => {
    for (const [key, value] of EXTRAS) {
      const email = `mass-${newId()}@x.test`;
      expectRefused(
        await send('superadmin', 'POST', '/api/users', {
          name: 'Mass Assign',
          email,
          roles: ['teacher'],
          [key]: value,
        }),
        key,
      );
      expect(await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    }
    // The control: the same body without the extra key is accepted.
    const email = `mass-ok-${newId()}@x.test`;
    expect((await send('superadmin', 'POST', '/api/users', { name: 'Mass Assign', email, roles: ['teacher'] })).statusCode).toBe(200);
    const row = await t.database.db.selectFrom('users').select(['is_admin']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.is_admin).toBe(false);
  });

  it('POST /api/users with __proto__ or constructor.prototype -> refused, no user, Object.prototype untouched', async () => {
    for (const extra of PROTOTYPE_KEYS) {
      const email = `proto-${newId()}@x.test`;
      const response = await sendRaw('superadmin', 'POST', '/api/users', `{"name": "Proto Type", "email": "${email}", ${extra}}`);
      expectPrototypeRefused(response);
      expect(await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    }
  });

  it('PUT /api/users/:id with extra keys -> 422 and the member unchanged', async () => {
    const before = await t.database.db.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
    for (const [key, value] of EXTRAS) {
      expectRefused(await send('superadmin', 'PUT', `/api/users/${target.id}`, { roles: ['superadmin'], [key]: value }), key);
    }
    for (const extra of PROTOTYPE_KEYS) {
      expectPrototypeRefused(await sendRaw('superadmin', 'PUT', `/api/users/${target.id}`, `{"roles": ["superadmin"], ${extra}}`));
    }
    expect(await rolesOf(target.id)).toEqual(['teacher']);
    expect(await t.database.db.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('POST /api/tenants with extra keys -> 422 and no tenant', async () => {
    for (const [key, value] of [...EXTRAS, ['created_at', '2000-01-01T00:00:00Z'] as [string, unknown]]) {
      const tenantcode = `mass-${newId().slice(-12)}`;
      expectRefused(
        await send('superadmin', 'POST', '/api/tenants', { name: 'Mass School', tenantcode, category: 'School', [key]: value }),
        key,
      );
      expect(
        await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', tenantcode).executeTakeFirst(),
      ).toBeUndefined();
    }
    for (const extra of PROTOTYPE_KEYS) {
      const tenantcode = `proto-${newId().slice(-12)}`;
      expectPrototypeRefused(
        await sendRaw(
          'superadmin',
          'POST',
          '/api/tenants',
          `{"name": "Proto School", "tenantcode": "${tenantcode}", "category": "School", ${extra}}`,
        ),
      );
      expect(
        await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', tenantcode).executeTakeFirst(),
      ).toBeUndefined();
    }
  });

  it('PUT /api/tenants/:id with extra keys -> 422 and the tenant unchanged', async () => {
    const before = await t.database.db.selectFrom('tenants').selectAll().where('id', '=', school.id).executeTakeFirstOrThrow();
    for (const [key, value] of [...EXTRAS, ['tenant_id', other.id] as [string, unknown]]) {
      expectRefused(
        await send('superadmin', 'PUT', `/api/tenants/${school.id}`, {
          name: 'Hijacked',
          tenantcode: school.tenantcode,
          category: 'Farm',
          [key]: value,
        }),
        key,
      );
    }
    for (const extra of PROTOTYPE_KEYS) {
      expectPrototypeRefused(
        await sendRaw(
          'superadmin',
          'PUT',
          `/api/tenants/${school.id}`,
          `{"name": "Hijacked", "tenantcode": "${school.tenantcode}", "category": "Farm", ${extra}}`,
        ),
      );
    }
    expect(await t.database.db.selectFrom('tenants').selectAll().where('id', '=', school.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('the id of a write comes from the path only: PUT /api/users/:id cannot reach another tenant’s user through the body', async () => {
    const stranger = await makeUser(t.database, { memberOf: [{ tenantId: other.id, roles: ['teacher'] }] });
    const response = await send('superadmin', 'PUT', `/api/users/${stranger.id}`, { roles: ['superadmin'] });
    expect(response.statusCode).toBe(404);
    const roles = await withTenant(t.database.db, { tenantId: other.id }, (trx) =>
      trx
        .selectFrom('membership_roles')
        .innerJoin('roles', (join) =>
          join.onRef('roles.tenant_id', '=', 'membership_roles.tenant_id').onRef('roles.id', '=', 'membership_roles.role_id'),
        )
        .select('roles.name')
        .execute(),
    );
    expect(roles.map((row) => row.name)).toEqual(['teacher']);
  });
});
