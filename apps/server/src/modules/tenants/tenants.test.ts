import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { valuesOf, workbookOf } from '../settings/settings-fixtures.js';

let t: TestApp;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
let head: Caller;
let platformAdmin: Caller;

const validTenant = (overrides: Record<string, unknown> = {}) => ({
  name: 'St. Mary’s Kitende',
  tenantcode: `stm-${Math.random().toString(36).slice(2, 8)}`,
  category: 'School',
  schooltype: 'secondary',
  ...overrides,
});

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Namilyango Junior' });
  neighbour = await makeTenant(t.database, { name: 'Buddo Junior' });
  const headUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  const admin = await makeUser(t.database, { isAdmin: true, memberOf: [{ tenantId: school.id }] });
  platformAdmin = caller(t.app, await login(t.app, admin.email), school.tenantcode);
});
afterAll(() => t.close());

describe('/api/tenants', () => {
  it('lists the tenants the user belongs to, with totalRecords', async () => {
    const response = await head.get('/api/tenants');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.tenants.map((tenant: { tenantcode: string }) => tenant.tenantcode)).toEqual([school.tenantcode]);
    expect(body.totalRecords).toBe(1);
  });

  it('lists every tenant for a platform administrator, searchable and paged', async () => {
    const all = (await platformAdmin.get('/api/tenants?per_page=100')).json();
    expect(all.tenants.map((tenant: { id: string }) => tenant.id)).toEqual(expect.arrayContaining([school.id, neighbour.id]));
    const found = (await platformAdmin.get('/api/tenants?search=buddo')).json();
    expect(found.tenants.map((tenant: { id: string }) => tenant.id)).toEqual([neighbour.id]);
    const paged = (await platformAdmin.get('/api/tenants?per_page=1&page=2')).json();
    expect(paged.tenants).toHaveLength(1);
    expect(paged.totalRecords).toBe(all.totalRecords);
  });

  it('downloads the list with excel=1 as mustard-<time>.xlsx: the person’s own schools, no contact details', async () => {
    const response = await head.get('/api/tenants?excel=1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="mustard-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.xlsx"$/);
    const sheet = await workbookOf(response);
    expect(valuesOf(sheet, 4)).toEqual([
      ['Name', 'Code', 'Category', null],
      ['Namilyango Junior', school.tenantcode, 'School', null],
    ]);
  });

  it('gets one tenant by id as {tenant}, and 404 for a tenant the user does not belong to', async () => {
    const own = await head.get(`/api/tenants/${school.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().tenant).toMatchObject({ id: school.id, tenantcode: school.tenantcode, schooltype: 'primary', efrist: false });
    const foreign = await head.get(`/api/tenants/${neighbour.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Sorry! the data you are looking for could not be found');
  });

  it('creates a tenant with its default roles and makes the creator its administrator', async () => {
    const input = validTenant();
    const response = await head.post('/api/tenants', input);
    expect(response.statusCode).toBe(200);
    const created = response.json();
    expect(created).toMatchObject({
      name: input.name,
      tenantcode: input.tenantcode,
      category: 'School',
      schooltype: 'secondary',
      country: 'Uganda',
    });
    const profile = await head.in(input.tenantcode).get('/api/users/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json().roles.map((role: { name: string }) => role.name)).toEqual(['superadmin']);
    const audit = await withTenant(t.database.db, { tenantId: created.id }, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('entity', '=', 'tenant').execute(),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', entity_id: created.id });
  });

  it.each([
    [{ name: 'St' }, 'name', 'The name is too short'],
    [{ name: 'A school with a very long name indeed' }, 'name', 'The name is too long'],
    [{ name: '' }, 'name', 'Please enter the business name'],
    [{ name: undefined }, 'name', 'Please enter the business name'],
    [{ category: undefined }, 'category', 'Please select a category'],
    [{ category: 'Bakery' }, 'category', 'Please select a category'],
    [{ tenantcode: '' }, 'tenantcode', 'Please enter the tenant code'],
  ])('refuses %j with the spec message on %s', async (change, field, message) => {
    const before = await t.database.db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const response = await head.post('/api/tenants', validTenant(change));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
    const after = await t.database.db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a tenant code that is taken, whatever its case', async () => {
    const response = await head.post('/api/tenants', validTenant({ tenantcode: school.tenantcode.toUpperCase() }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.tenantcode).toEqual(['This tenant code is already taken']);
  });

  it('updates the current tenant and answers the saved record', async () => {
    const current = (await head.get(`/api/tenants/${school.id}`)).json().tenant;
    const response = await head.put(`/api/tenants/${school.id}`, {
      name: current.name,
      tenantcode: current.tenantcode,
      category: 'School',
      schooltype: 'primary',
      forms: 'Baby,Middle,Top,P1,P2,P3,P4,P5,P6,P7',
      phone: '+256 700 000 000',
      efrist: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: school.id,
      forms: 'Baby,Middle,Top,P1,P2,P3,P4,P5,P6,P7',
      phone: '+256 700 000 000',
      efrist: true,
    });
    expect((await head.get(`/api/tenants/${school.id}`)).json().tenant.efrist).toBe(true);
  });

  it('does not let a tenant administrator update another tenant', async () => {
    const response = await head.put(`/api/tenants/${neighbour.id}`, validTenant({ name: 'Taken over' }));
    expect(response.statusCode).toBe(404);
    const row = await t.database.db.selectFrom('tenants').select('name').where('id', '=', neighbour.id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Buddo Junior');
  });

  it('refuses teachers: 403', async () => {
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const api = caller(t.app, await login(t.app, teacher.email), school.tenantcode);
    expect((await api.get('/api/tenants')).statusCode).toBe(403);
    expect((await api.post('/api/tenants', validTenant())).statusCode).toBe(403);
  });
});
