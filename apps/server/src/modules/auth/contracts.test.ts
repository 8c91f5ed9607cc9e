import * as shared from '@mustard/shared';
import { type Endpoint, LOGIN_MESSAGES, RESULT_MESSAGES, TENANT_MESSAGES } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, conflict } from '../../errors.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * The people side on endpoint contracts (issue 11): catalogue-only errors, the schema-free routes
 * the sign-in page and the signed-in frame call, and the per-route limit of the guessable routes.
 */

describe('AppError carries catalogue texts only (point 6)', () => {
  it('takes the catalogue’s constants, and a text written at the throw does not compile', () => {
    expect(new AppError(401, LOGIN_MESSAGES.invalidCredentials).message).toBe('Invalid email or password');
    expect(conflict(TENANT_MESSAGES.tenantcodeTaken).statusCode).toBe(409);
    expect(new AppError(404).message).toBe(shared.ERROR_MESSAGES[404]);
    // @ts-expect-error a literal is not a catalogue text: name the catalogue's constant instead.
    expect(new AppError(409, 'Something went wrong').message).toBe('Something went wrong');
    // @ts-expect-error conflict() takes catalogue texts only too.
    expect(conflict('This name is taken').statusCode).toBe(409);
    const composed: string = `${LOGIN_MESSAGES.invalidCode}!`;
    // @ts-expect-error any string is refused, not only literals.
    expect(new AppError(422, composed).statusCode).toBe(422);
  });
});

describe('routes for pages that cannot carry the schema library', () => {
  it('each is its contract’s method and path', () => {
    const routes = Object.entries(shared).filter(([name]) => /^[a-z]\w*Route$/.test(name));
    expect(routes.map(([name]) => name).sort()).toEqual([
      'acceptInvitationRoute',
      'authTypeRoute',
      'declineInvitationRoute',
      // The dashboard's two calls: its cold load carries no schema library either.
      'homeRoute',
      'homeSetupRoute',
      'loginRoute',
      'logoutRoute',
      'myInvitationsRoute',
      'notifyMeRoute',
      'profileRoute',
      'redeemCodeRoute',
    ]);
    for (const [name, route] of routes) {
      const endpoint = (shared as Record<string, unknown>)[name.replace(/Route$/, 'Endpoint')] as Endpoint | undefined;
      const { method, path } = route as { method: string; path: string };
      expect({ name, method, path }).toEqual({ name, method: endpoint?.method, path: endpoint?.path });
    }
  });
});

describe('the people routes on their contracts', () => {
  let t: TestApp;
  let school: { id: string; tenantcode: string };

  beforeAll(async () => {
    t = await buildTestApp({ authRateLimitPerMinute: 3 });
    school = await makeTenant(t.database);
  });
  afterAll(() => t.close());

  it('counts each guessable route’s calls on its own, per address', async () => {
    const type = () =>
      t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: 'a@school.test' }, remoteAddress: '198.51.100.1' });
    for (let call = 1; call <= 3; call++) expect((await type()).statusCode).toBe(200);
    expect((await type()).statusCode).toBe(429);
    // Another route from the same address has its own count.
    const join = () => t.app.inject({ method: 'GET', url: '/auth/join?code=AAAA-BBBB-CCCC', remoteAddress: '198.51.100.1' });
    for (let call = 1; call <= 3; call++) expect((await join()).statusCode).toBe(404);
    expect((await join()).statusCode).toBe(429);
  });

  it('answers logout and a removal with the catalogue’s words', async () => {
    const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const headTeacher = caller(t.app, await login(t.app, head.email), school.tenantcode);
    expect((await headTeacher.delete(`/api/users/${teacher.id}`)).json()).toEqual({ message: RESULT_MESSAGES.deleted });
    expect((await headTeacher.post('/auth/logout')).json()).toEqual({ message: LOGIN_MESSAGES.loggedOut });
  });

  it('names the tenant code’s faults in the catalogue’s words', async () => {
    const admin = await makeUser(t.database, { isAdmin: true, memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const platform = caller(t.app, await login(t.app, admin.email), school.tenantcode);
    const create = (tenantcode: string) => platform.post('/api/tenants', { name: 'Hill School', tenantcode, category: 'School' });
    expect((await create('has space')).json().errors.tenantcode).toEqual([TENANT_MESSAGES.tenantcodeInvalid]);
    expect((await create('x'.repeat(41))).json().errors.tenantcode).toEqual([TENANT_MESSAGES.tenantcodeTooLong]);
  });
});
