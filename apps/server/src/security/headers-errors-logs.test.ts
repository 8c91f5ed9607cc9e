import { TENANT_HEADER } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE } from '../db/migrate.js';
import { issueSignInCode } from '../modules/auth/auth.service.js';
import { makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, login, TEST_PASSWORD, type TestApp, tokenOf } from '../test/test-app.js';
import { asOwner } from '../test/test-database.js';

/**
 * Security headers (security.md item 23), generic errors that fail closed (item 24), and logs
 * without tokens, passwords or codes (item 26). Both apps capture every log line they write.
 */

let t: TestApp;
let school: { id: string; tenantcode: string };
let teacher: { id: string; email: string };
let token: string;

const NOT_FOUND = { statusCode: 404, message: 'Sorry! the data you are looking for could not be found' };
const INTERNAL = { statusCode: 500, message: 'Internal Server Error' };

/** Secrets used in this file; none may reach a log line. */
const secrets: string[] = [TEST_PASSWORD];

beforeAll(async () => {
  t = await buildTestApp({}, { captureLogs: true });
  school = await makeTenant(t.database, { name: 'Gayaza High' });
  teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  token = await login(t.app, teacher.email);
  secrets.push(token);
});
afterAll(() => t.close());

const profile = (authorization?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/api/users/profile',
    headers: { [TENANT_HEADER]: school.tenantcode, ...(authorization ? { authorization } : {}) },
  });

function csp(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  const directives = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

function expectSecurityHeaders(response: LightMyRequestResponse) {
  const policy = csp(response);
  const scripts = policy.get('script-src') ?? policy.get('default-src');
  expect(scripts).toBeDefined();
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts).not.toContain('*');
  expect(scripts).not.toContain('data:');
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/);
  expect(String(response.headers['x-frame-options']).toUpperCase()).toBe('SAMEORIGIN');
  expect(response.headers['x-powered-by']).toBeUndefined();
}

describe('security headers (item 23)', () => {
  it('on an API answer (200)', async () => {
    const response = await profile(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expectSecurityHeaders(response);
  });

  it('on error answers (401, 403, 404) and the health check', async () => {
    expectSecurityHeaders(await profile());
    expectSecurityHeaders(await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization: `Bearer ${token}` } }));
    expectSecurityHeaders(await t.app.inject({ method: 'GET', url: '/api/no-such-thing' }));
    expectSecurityHeaders(await t.app.inject({ method: 'GET', url: '/healthz' }));
  });

  it('the sign-in answer carrying the token is not cached', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: teacher.email, password: TEST_PASSWORD } },
    });
    expect(response.statusCode).toBe(200);
    secrets.push(tokenOf(response));
    expect(response.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(response);
  });
});

describe('errors are generic (item 24)', () => {
  it('an unknown route -> 404 with the catalogue message', async () => {
    for (const [method, url] of [
      ['GET', '/api/no-such-thing'],
      ['POST', '/api/users/profile/extra'],
      ['DELETE', '/api/tenants'],
      ['GET', '/no-such-page'],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode },
      });
      expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 404 });
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it('a record of another tenant or a missing one -> 404 with the catalogue message', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/00000000-0000-7000-8000-000000000000',
      headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND);
  });

  it('malformed JSON -> 400 without parser internals', async () => {
    for (const payload of ['{"user": {"email": "a@b.c", "password": "Leaky-Malformed-Pass-7"', '{,}', 'null', '"just a string"', '[1,2']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect([400, 422]).toContain(response.statusCode);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(
        response.statusCode === 422 ? ['errors', 'message', 'statusCode'] : ['message', 'statusCode'],
      );
      expect(response.body).not.toMatch(/SyntaxError|Unexpected token|position \d|at JSON|node_modules|\.js:\d|stack/i);
      expect(response.body).not.toContain('Leaky-Malformed-Pass-7');
    }
    secrets.push('Leaky-Malformed-Pass-7');
    const truncated = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"user": {',
    });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().statusCode).toBe(400);
  });

  it('a body of another content type, or too large -> a 4xx without internals', async () => {
    const xml = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<user/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(Object.keys(xml.json()).sort()).toEqual(['message', 'statusCode']);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/auth/type',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.body).not.toMatch(/node_modules|\.js:\d|stack/i);
  });

  it('a validation failure names fields, not the validator’s internals', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email: 'a@b.c' } } });
    expect(response.statusCode).toBe(422);
    expect(response.body).not.toMatch(/zod|ZodError|instancePath|node_modules/i);
  });
});

describe('internal failures -> 500 with the catalogue body only, and the app fails closed (item 24)', () => {
  let broken: TestApp;
  let brokenToken: string;
  let email: string;

  beforeAll(async () => {
    broken = await buildTestApp({}, { captureLogs: true });
    const tenant = await makeTenant(broken.database);
    const user = await makeUser(broken.database, { memberOf: [{ tenantId: tenant.id, roles: ['teacher'] }] });
    email = user.email;
    brokenToken = await login(broken.app, email);
    secrets.push(brokenToken);
  });
  afterAll(async () => {
    await broken.app.close();
    await broken.database.close().catch(() => undefined);
  });

  it('a failing SQL statement (permission denied on users) -> 500 {statusCode, message} only, logged on the server', async () => {
    await asOwner(broken.database, [`REVOKE SELECT ON users FROM ${APP_ROLE}`]);
    try {
      const response = await broken.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { user: { email, password: TEST_PASSWORD } },
      });
      expect(response.statusCode).toBe(500);
      expect(response.body).toBe(JSON.stringify(INTERNAL));
      expect(response.headers.authorization).toBeUndefined();
    } finally {
      await asOwner(broken.database, [`GRANT SELECT ON users TO ${APP_ROLE}`]);
    }
    const logged = broken.logs.filter((line) => line.includes('permission denied'));
    expect(logged.length).toBeGreaterThan(0);
    // The control: with the grant back, the same login works.
    expect(
      (await broken.app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email, password: TEST_PASSWORD } } })).statusCode,
    ).toBe(200);
  });

  it('with the database closed: 500 on API and sign-in routes, 503 on /readyz, never a 2xx', async () => {
    await broken.database.close();
    for (const request of [
      { method: 'POST' as const, url: '/auth/login', payload: { user: { email, password: TEST_PASSWORD } } },
      {
        method: 'GET' as const,
        url: '/api/users/profile',
        headers: { authorization: `Bearer ${brokenToken}`, [TENANT_HEADER]: 'any-school' },
      },
      { method: 'POST' as const, url: '/auth/redeemcode', payload: { code: 'some-code-value' } },
    ]) {
      const response = await broken.app.inject(request);
      expect({ url: request.url, status: response.statusCode }).toEqual({ url: request.url, status: 500 });
      expect(response.body).toBe(JSON.stringify(INTERNAL));
      expect(response.body).not.toMatch(/stack|select|driver|destroyed|kysely|\.ts|\.js/i);
    }
    const ready = await broken.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.body).not.toMatch(/destroyed|driver|Error|\.js/);
    // The server knows why: the failures are logged there, not sent.
    expect(broken.logs.some((line) => line.includes('request failed'))).toBe(true);
  });

  it('its log lines hold no token or password either', () => {
    expect(broken.logs.length).toBeGreaterThan(0);
    for (const line of broken.logs) {
      expect(line).not.toContain('eyJ');
      expect(line).not.toContain(TEST_PASSWORD);
    }
  });
});

describe('logs hold no token, password or code (item 26)', () => {
  const NEW_PASSWORD = 'Brand-New-Password-2026!';
  const WRONG_PASSWORD = 'Wrong-Log-Password-1!';
  const QUERY_PASSWORD = 'Query-String-Pass-55';

  it('after sign-ins, failures, code redemption, profile calls and a password change', async () => {
    const changer = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const first = await login(t.app, changer.email);
    secrets.push(first, WRONG_PASSWORD, NEW_PASSWORD, QUERY_PASSWORD);

    const failed = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: changer.email, password: WRONG_PASSWORD } },
    });
    expect(failed.statusCode).toBe(401);
    const failedUnknown = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: 'nobody@school.test', password: WRONG_PASSWORD } },
    });
    expect(failedUnknown.statusCode).toBe(401);

    // Secrets in query strings (a mistaken client, or the external sign-in redirect).
    const queryLogin = await t.app.inject({
      method: 'POST',
      url: `/auth/login?password=${QUERY_PASSWORD}&token=${first}`,
      payload: { user: { email: changer.email, password: TEST_PASSWORD } },
    });
    expect(queryLogin.statusCode).toBe(200);
    secrets.push(tokenOf(queryLogin));

    expect((await profile(`Bearer ${first}`)).statusCode).toBe(200);
    expect((await profile(first)).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/users/profile?access_token=${first}`,
          headers: { [TENANT_HEADER]: school.tenantcode },
        })
      ).statusCode,
    ).toBe(401);

    const code = await issueSignInCode(t.database, changer.id);
    secrets.push(code);
    const landing = await t.app.inject({ method: 'GET', url: `/login?code=${code}` });
    expect(landing.statusCode).toBe(404);
    const redeemed = await t.app.inject({ method: 'POST', url: '/auth/redeemcode', payload: { code } });
    expect(redeemed.statusCode).toBe(200);
    secrets.push(tokenOf(redeemed));
    const replay = await t.app.inject({ method: 'POST', url: `/auth/redeemcode?code=${code}`, payload: { code } });
    expect(replay.statusCode).toBe(401);

    const changed = await t.app.inject({
      method: 'POST',
      url: '/auth/password',
      headers: { authorization: `Bearer ${first}` },
      payload: { current_password: TEST_PASSWORD, password: NEW_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    secrets.push(tokenOf(changed));
    const refused = await t.app.inject({
      method: 'POST',
      url: '/auth/password',
      headers: { authorization: `Bearer ${tokenOf(changed)}` },
      payload: { current_password: WRONG_PASSWORD, password: NEW_PASSWORD },
    });
    expect(refused.statusCode).toBe(422);
    expect((await profile(`Bearer ${first}`)).statusCode).toBe(401);

    // The capture works: requests were logged, with the code masked.
    expect(t.logs.length).toBeGreaterThan(20);
    expect(t.logs.some((line) => line.includes('/login?code=[redacted]'))).toBe(true);
    expect(t.logs.some((line) => line.includes('/auth/redeemcode'))).toBe(true);
    expect(t.logs.some((line) => line.includes('password=[redacted]&token=[redacted]'))).toBe(true);

    const offending = t.logs.filter((line) => line.includes('eyJ') || secrets.some((secret) => line.includes(secret)));
    expect(offending).toEqual([]);
  });
});
