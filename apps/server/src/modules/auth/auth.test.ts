import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, caller, login, TEST_PASSWORD, type TestApp, tokenOf } from '../../test/test-app.js';

let t: TestApp;
let school: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let teacher: { id: string; email: string };

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Kampala Parents School' });
  other = await makeTenant(t.database, { name: 'Gayaza Junior School', schooltype: 'secondary' });
  teacher = await makeUser(t.database, {
    name: 'Grace Nakato',
    memberOf: [
      { tenantId: school.id, roles: ['teacher'] },
      { tenantId: other.id, roles: ['headteacher'] },
    ],
  });
});
afterAll(() => t.close());

describe('POST /auth/type', () => {
  it('answers password for a known email and the same for an unknown one', async () => {
    const known = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: teacher.email } });
    const unknown = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: 'nobody@school.test' } });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ type: 'password', url: '' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
  });

  it('asks for the email when it is missing', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: '  ' } });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.email).toEqual(['Please enter your email address']);
  });
});

describe('POST /auth/login', () => {
  it('signs in with the spec fields and the token in the authorization header', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: teacher.email.toUpperCase(), password: TEST_PASSWORD } },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['admin', 'email', 'id', 'isadmin', 'name', 'path', 'tenants']);
    expect(body).toMatchObject({ id: teacher.id, name: 'Grace Nakato', email: teacher.email, isadmin: false, admin: false });
    expect(body.tenants.map((tenant: { tenantcode: string }) => tenant.tenantcode).sort()).toEqual(
      [school.tenantcode, other.tenantcode].sort(),
    );
    expect(Object.keys(body.tenants[0]).sort()).toEqual(['category', 'id', 'logo_path', 'name', 'schooltype', 'tenantcode']);
    expect(response.headers['access-control-expose-headers']).toContain('authorization');
    const token = tokenOf(response);
    const [, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    expect(Number.isInteger(claims.exp)).toBe(true);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(claims.exp).toBeLessThan(Date.now() / 1000 + 3601);
  });

  it('answers a wrong password and an unknown email alike: 401, same body', async () => {
    const wrongPassword = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: teacher.email, password: 'not-the-password' } },
    });
    const unknownEmail = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: 'ghost@school.test', password: 'not-the-password' } },
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ statusCode: 401, message: 'Invalid email or password' });
    expect(unknownEmail.body).toBe(wrongPassword.body);
  });

  it('records sign-ins and failed sign-ins, with who and from where', async () => {
    const person = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    await t.app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email: person.email, password: 'wrong-password' } } });
    await login(t.app, person.email);
    const events = await t.database.db
      .selectFrom('auth_events')
      .select(['kind', 'user_id', 'email', 'ip'])
      .where('email', '=', person.email)
      .orderBy('at')
      .orderBy('id')
      .execute();
    expect(events.map((event) => event.kind)).toEqual(['login_failed', 'login']);
    expect(events.every((event) => event.user_id === person.id && event.ip === '127.0.0.1')).toBe(true);
  });

  it('stores passwords as argon2id hashes', async () => {
    const row = await t.database.db.selectFrom('users').select('password_hash').where('id', '=', teacher.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('GET /api/users/profile', () => {
  it('answers the user with roles, permissions and tenants in the selected tenant', async () => {
    const token = await login(t.app, teacher.email);
    const response = await caller(t.app, token, school.tenantcode).get('/api/users/profile');
    expect(response.statusCode).toBe(200);
    const profile = response.json();
    expect(profile.tenant.tenantcode).toBe(school.tenantcode);
    expect(profile.roles.map((role: { name: string }) => role.name)).toEqual(['teacher']);
    expect(profile.permissions).toEqual({ mark: ['create'], remark: ['create'] });
    expect(profile.is_admin).toBe(false);
    expect(profile.tenants).toHaveLength(2);
  });

  it('switches school with tenant_id: the roles of that school', async () => {
    const token = await login(t.app, teacher.email);
    const response = await caller(t.app, token, school.tenantcode).get(`/api/users/profile?tenant_id=${other.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().tenant.tenantcode).toBe(other.tenantcode);
    expect(response.json().roles.map((role: { name: string }) => role.name)).toEqual(['headteacher']);
  });

  it('refuses to switch to a school the user does not belong to', async () => {
    const stranger = await makeTenant(t.database);
    const token = await login(t.app, teacher.email);
    const response = await caller(t.app, token, school.tenantcode).get(`/api/users/profile?tenant_id=${stranger.id}`);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('You are not permitted to access this content');
  });

  it('refuses a TENANTCODE the user does not belong to, and a missing one, with 403', async () => {
    const stranger = await makeTenant(t.database);
    const token = await login(t.app, teacher.email);
    expect((await caller(t.app, token, stranger.tenantcode).get('/api/users/profile')).statusCode).toBe(403);
    expect((await caller(t.app, token, 'no-such-school').get('/api/users/profile')).statusCode).toBe(403);
    expect((await caller(t.app, token).get('/api/users/profile')).statusCode).toBe(403);
  });

  it('answers 401 "Please login" without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: { tenantcode: school.tenantcode } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: 'Please login' });
  });
});

describe('POST /auth/logout', () => {
  it('revokes the session: the same token then gets 401', async () => {
    const token = await login(t.app, teacher.email);
    const api = caller(t.app, token, school.tenantcode);
    expect((await api.get('/api/users/profile')).statusCode).toBe(200);
    const logout = await api.post('/auth/logout');
    expect(logout.statusCode).toBe(200);
    const after = await api.get('/api/users/profile');
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Please login');
  });

  it('leaves the user’s other sessions alone', async () => {
    const first = await login(t.app, teacher.email);
    const second = await login(t.app, teacher.email);
    await caller(t.app, first).post('/auth/logout');
    expect((await caller(t.app, second, school.tenantcode).get('/api/users/profile')).statusCode).toBe(200);
  });
});

describe('POST /auth/password', () => {
  it('changes the password and revokes every earlier token', async () => {
    const person = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const old = await login(t.app, person.email);
    const response = await caller(t.app, old).post('/auth/password', { current_password: TEST_PASSWORD, password: 'New-Password-2026!' });
    expect(response.statusCode).toBe(200);
    expect((await caller(t.app, old, school.tenantcode).get('/api/users/profile')).statusCode).toBe(401);
    expect((await caller(t.app, tokenOf(response), school.tenantcode).get('/api/users/profile')).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email: person.email, password: TEST_PASSWORD } } }))
        .statusCode,
    ).toBe(401);
    await login(t.app, person.email, 'New-Password-2026!');
  });

  it('refuses a wrong current password without changing anything', async () => {
    const person = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const token = await login(t.app, person.email);
    const response = await caller(t.app, token).post('/auth/password', { current_password: 'wrong', password: 'New-Password-2026!' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.current_password).toEqual(['The current password is not correct']);
    expect((await caller(t.app, token, school.tenantcode).get('/api/users/profile')).statusCode).toBe(200);
  });
});
