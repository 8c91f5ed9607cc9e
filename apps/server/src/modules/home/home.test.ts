import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStudents, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, caller, login, type TestApp } from '../../test/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /api/home/mustard', () => {
  it('counts active learners per class, in class order, for the selected school only', async () => {
    const school = await makeTenant(t.database, { name: 'Ntinda Primary' });
    const other = await makeTenant(t.database, { name: 'Other Primary' });
    await makeStudents(t.database, school.id, 'P7', 3);
    await makeStudents(t.database, school.id, 'P1', 5);
    await makeStudents(t.database, school.id, 'Nursery', 2);
    await makeStudents(t.database, school.id, 'P1', 4, 'inactive');
    await makeStudents(t.database, other.id, 'P1', 9);
    const teacher = await makeUser(t.database, {
      memberOf: [
        { tenantId: school.id, roles: ['teacher'] },
        { tenantId: other.id, roles: ['teacher'] },
      ],
    });
    const api = caller(t.app, await login(t.app, teacher.email), school.tenantcode);
    const response = await api.get('/api/home/mustard');
    expect(response.statusCode).toBe(200);
    const { students } = response.json();
    expect(students).toEqual({ Nursery: 2, P1: 5, P7: 3 });
    expect(Object.keys(students)).toEqual(['Nursery', 'P1', 'P7']);
    expect((await api.in(other.tenantcode).get('/api/home/mustard')).json().students).toEqual({ P1: 9 });
  });

  it('answers an empty map for a school without learners', async () => {
    const empty = await makeTenant(t.database);
    const user = await makeUser(t.database, { memberOf: [{ tenantId: empty.id }] });
    const response = await caller(t.app, await login(t.app, user.email), empty.tenantcode).get('/api/home/mustard');
    expect(response.json()).toEqual({ students: {}, locations: 0 });
  });

  it('counts a business’s stock locations, its own only', async () => {
    const shop = await makeTenant(t.database, { name: 'Kikuubo Traders', category: 'Retail' });
    const other = await makeTenant(t.database, { name: 'Other Traders', category: 'Retail' });
    const owner = await makeUser(t.database, {
      memberOf: [
        { tenantId: shop.id, roles: ['superadmin'] },
        { tenantId: other.id, roles: ['superadmin'] },
      ],
    });
    const api = caller(t.app, await login(t.app, owner.email), shop.tenantcode);
    for (const name of ['Shop floor', 'Store room']) expect((await api.post('/api/locations', { name })).statusCode).toBe(200);
    expect((await api.get('/api/home/mustard')).json()).toEqual({ students: {}, locations: 2 });
    expect((await api.in(other.tenantcode).get('/api/home/mustard')).json()).toEqual({ students: {}, locations: 0 });
  });
});
