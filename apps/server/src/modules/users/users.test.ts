import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, TEST_PASSWORD, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
let head: Caller;

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Kabojja Junior' });
  neighbour = await makeTenant(t.database, { name: 'Hillside Nursery' });
  const headUser = await makeUser(t.database, { name: 'Agnes Head', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  await makeUser(t.database, { name: 'Neighbour Teacher', memberOf: [{ tenantId: neighbour.id, roles: ['teacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
});
afterAll(() => t.close());

describe('/api/users', () => {
  it('lists the tenant’s users with their roles, never another tenant’s', async () => {
    const response = await head.get('/api/users');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.users.map((user: { name: string }) => user.name)).toEqual(['Agnes Head']);
    expect(body.users[0].roles.map((role: { name: string }) => role.name)).toEqual(['headteacher']);
    expect(body.totalRecords).toBe(1);
    expect(body.users[0]).not.toHaveProperty('password_hash');
  });

  it('creates a user with a role in the current tenant, who can then sign in there', async () => {
    const response = await head.post('/api/users', {
      name: 'Moses Okello',
      email: 'Moses.Okello@Kabojja.test',
      password: 'Chalk-and-Board-1',
      roles: ['teacher'],
    });
    expect(response.statusCode).toBe(200);
    const created = response.json();
    expect(created).toMatchObject({ name: 'Moses Okello', email: 'moses.okello@kabojja.test', is_admin: false });
    expect(created.roles.map((role: { name: string }) => role.name)).toEqual(['teacher']);
    const token = await login(t.app, 'moses.okello@kabojja.test', 'Chalk-and-Board-1');
    const profile = await caller(t.app, token, school.tenantcode).get('/api/users/profile');
    expect(profile.json().permissions).toEqual({ mark: ['create'], remark: ['manage'] });
    expect((await head.get(`/api/users/${created.id}`)).json().user.email).toBe('moses.okello@kabojja.test');
  });

  it('adds an existing account as a member without touching its password', async () => {
    const elsewhere = await makeUser(t.database, { name: 'Peace Visiting', memberOf: [{ tenantId: neighbour.id, roles: ['teacher'] }] });
    const response = await head.post('/api/users', {
      name: 'Someone Else',
      email: elsewhere.email,
      password: 'Another-Pass-1',
      roles: ['bursar'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().name).toBe('Peace Visiting');
    await login(t.app, elsewhere.email, TEST_PASSWORD);
    const again = await head.post('/api/users', { name: 'Someone Else', email: elsewhere.email, password: 'Another-Pass-1', roles: [] });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.email).toEqual(['This person is already a member here']);
  });

  it('refuses an unknown role and writes nothing', async () => {
    const response = await head.post('/api/users', {
      name: 'Ghost Role',
      email: 'ghost.role@kabojja.test',
      password: 'Chalk-and-Board-1',
      roles: ['janitor'],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.roles[0]).toContain('janitor');
    const row = await t.database.db.selectFrom('users').select('id').where('email', '=', 'ghost.role@kabojja.test').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it.each([
    [{ name: '' }, 'name', 'Please enter your name'],
    [{ name: 'Al' }, 'name', 'Too short'],
    [{ email: 'not-an-email' }, 'email', 'Invalid email'],
    [{ email: '' }, 'email', 'Please enter your email address'],
    [{ password: 'short' }, 'password', 'Too short'],
  ])('validates %j on %s', async (change, field, message) => {
    const response = await head.post('/api/users', {
      name: 'Valid Name',
      email: 'valid.person@kabojja.test',
      password: 'Chalk-and-Board-1',
      roles: [],
      ...change,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('changes a user’s roles, with an audit entry holding before and after', async () => {
    const person = await makeUser(t.database, { name: 'Ronald Role', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const response = await head.put(`/api/users/${person.id}`, { roles: ['bursar', 'teacher'] });
    expect(response.statusCode).toBe(200);
    expect(response.json().roles.map((role: { name: string }) => role.name)).toEqual(['bursar', 'teacher']);
    const entries = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('entity', '=', 'user').where('entity_id', '=', person.id).execute(),
    );
    expect(entries).toHaveLength(1);
    const before = entries[0]?.before as { roles: Array<{ name: string }> };
    expect(before.roles.map((role) => role.name)).toEqual(['teacher']);
    const token = await login(t.app, person.email);
    expect((await caller(t.app, token, school.tenantcode).get('/api/users/profile')).json().permissions.student).toEqual(['manage']);
  });

  it('answers 404 for a user of another tenant, and changes nothing', async () => {
    const outsider = await makeUser(t.database, { memberOf: [{ tenantId: neighbour.id, roles: ['teacher'] }] });
    expect((await head.get(`/api/users/${outsider.id}`)).statusCode).toBe(404);
    expect((await head.put(`/api/users/${outsider.id}`, { roles: ['superadmin'] })).statusCode).toBe(404);
    const token = await login(t.app, outsider.email);
    const roles = (await caller(t.app, token, neighbour.tenantcode).get('/api/users/profile')).json().roles;
    expect(roles.map((role: { name: string }) => role.name)).toEqual(['teacher']);
  });

  it('removes a member from the school: their next request there is refused, their account stays', async () => {
    const leaver = await makeUser(t.database, {
      memberOf: [
        { tenantId: school.id, roles: ['teacher'] },
        { tenantId: neighbour.id, roles: ['teacher'] },
      ],
    });
    const api = caller(t.app, await login(t.app, leaver.email), school.tenantcode);
    expect((await api.get('/api/home/mustard')).statusCode).toBe(200);
    const response = await head.delete(`/api/users/${leaver.id}`);
    expect(response.statusCode).toBe(200);
    expect((await api.get('/api/home/mustard')).statusCode).toBe(403);
    expect((await api.in(neighbour.tenantcode).get('/api/home/mustard')).statusCode).toBe(200);
    expect((await head.get(`/api/users/${leaver.id}`)).statusCode).toBe(404);
    expect((await head.delete(`/api/users/${leaver.id}`)).statusCode).toBe(404);
  });

  it('does not let an administrator remove themselves', async () => {
    const me = (await head.get('/api/users/profile')).json();
    const response = await head.delete(`/api/users/${me.id}`);
    expect(response.statusCode).toBe(422);
    expect((await head.get('/api/users')).statusCode).toBe(200);
  });

  it('does not let a head teacher strip or remove the administrator, or hand out rights it lacks', async () => {
    const admin = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    expect((await head.put(`/api/users/${admin.id}`, { roles: ['teacher'] })).statusCode).toBe(403);
    expect((await head.delete(`/api/users/${admin.id}`)).statusCode).toBe(403);
    const adminToken = await login(t.app, admin.email);
    expect(
      (await caller(t.app, adminToken, school.tenantcode).get('/api/users/profile'))
        .json()
        .roles.map((role: { name: string }) => role.name),
    ).toEqual(['superadmin']);
    const before = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'would.be.admin@kabojja.test')
      .executeTakeFirst();
    expect(before).toBeUndefined();
    const created = await head.post('/api/users', {
      name: 'Would Be Admin',
      email: 'would.be.admin@kabojja.test',
      password: 'Chalk-and-Board-1',
      roles: ['superadmin'],
    });
    expect(created.statusCode).toBe(403);
    const after = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'would.be.admin@kabojja.test')
      .executeTakeFirst();
    expect(after).toBeUndefined();
  });

  it('is closed to teachers: 403', async () => {
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const api = caller(t.app, await login(t.app, teacher.email), school.tenantcode);
    expect((await api.get('/api/users')).statusCode).toBe(403);
    expect(
      (await api.post('/api/users', { name: 'Sneaky', email: 'sneaky@kabojja.test', password: 'Chalk-and-Board-1', roles: ['superadmin'] }))
        .statusCode,
    ).toBe(403);
  });
});
