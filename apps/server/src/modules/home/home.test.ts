import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeStudents, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, caller, login, type TestApp } from '../../test/test-app.js';

let t: TestApp;

beforeAll(async () => {
  // The demo (a copy of the run's one seeding) beside the schools each test makes.
  t = await buildTestApp({}, { demo: true });
}, 240_000);
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

describe('GET /api/home/setup (the setup checklist)', () => {
  const NOTHING = { subjects: false, mark_types: false, grade_sets: false, learners: false, teachers: false };
  const EVERYTHING = { subjects: true, mark_types: true, grade_sets: true, learners: true, teachers: true };

  it('is all undone for a new school beside the demo, and all done for the demo school', async () => {
    const school = await makeTenant(t.database, { name: 'Kisubi Primary' });
    const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    const response = await caller(t.app, await login(t.app, head.email), school.tenantcode).get('/api/home/setup');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(NOTHING);
    const admin = caller(t.app, await login(t.app, 'admin@mustard.demo', 'Mustard@2026'));
    for (const code of ['demo-primary', 'demo-secondary']) expect((await admin.in(code).get('/api/home/setup')).json()).toEqual(EVERYTHING);
  }, 240_000);

  it('ticks each step once the school has it, its own only (an inactive mark type or learner does not count)', async () => {
    const school = await makeTenant(t.database, { name: 'Ggaba Primary' });
    const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const api = caller(t.app, await login(t.app, head.email), school.tenantcode);
    const setup = async () => (await api.get('/api/home/setup')).json();
    const inSchool = (work: Parameters<typeof withTenant>[2]) => withTenant(t.database.db, { tenantId: school.id }, work);

    const subject = newId();
    await inSchool((trx) =>
      trx.insertInto('subjects').values({ tenant_id: school.id, id: subject, name: 'Mathematics', category: 'mathematics' }).execute(),
    );
    expect(await setup()).toEqual({ ...NOTHING, subjects: true });
    const markType = newId();
    await inSchool((trx) =>
      trx
        .insertInto('mark_types')
        .values({ tenant_id: school.id, id: markType, label: 'BOT', category: 'test', status: 'inactive' })
        .execute(),
    );
    expect((await setup()).mark_types).toBe(false);
    await inSchool((trx) => trx.updateTable('mark_types').set({ status: 'active' }).where('id', '=', markType).execute());
    expect((await setup()).mark_types).toBe(true);
    await inSchool((trx) =>
      trx
        .insertInto('grades')
        .values({
          tenant_id: school.id,
          id: newId(),
          subject_id: subject,
          form: 'P1',
          term: 'I',
          year: 2026,
          grade: 'D1',
          lower: 80,
          upper: 100,
        })
        .execute(),
    );
    expect((await setup()).grade_sets).toBe(true);
    await makeStudents(t.database, school.id, 'P1', 2, 'inactive');
    expect((await setup()).learners).toBe(false);
    await makeStudents(t.database, school.id, 'P1', 1);
    expect((await setup()).learners).toBe(true);
    expect((await setup()).teachers).toBe(false);
    await inSchool((trx) =>
      trx
        .insertInto('subject_teachers')
        .values({
          tenant_id: school.id,
          id: newId(),
          user_id: head.id,
          subject_id: subject,
          form: 'P1',
          stream: null,
          term: 'I',
          year: 2026,
        })
        .execute(),
    );
    expect(await setup()).toEqual(EVERYTHING);
    // Another school's setup is its own.
    const other = await makeTenant(t.database, { name: 'Other Primary' });
    const both = await makeUser(t.database, {
      memberOf: [
        { tenantId: school.id, roles: ['superadmin'] },
        { tenantId: other.id, roles: ['superadmin'] },
      ],
    });
    expect((await caller(t.app, await login(t.app, both.email), other.tenantcode).get('/api/home/setup')).json()).toEqual(NOTHING);
  });

  it('is for those who set the school up: a teacher is refused (403), a stranger to the school too', async () => {
    const school = await makeTenant(t.database, { name: 'Teachers Primary' });
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const response = await caller(t.app, await login(t.app, teacher.email), school.tenantcode).get('/api/home/setup');
    expect(response.statusCode).toBe(403);
    const stranger = await makeUser(t.database);
    expect((await caller(t.app, await login(t.app, stranger.email), school.tenantcode).get('/api/home/setup')).statusCode).toBe(403);
    // Query text it does not take is refused, not a 500.
    const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const odd = await caller(t.app, await login(t.app, head.email), school.tenantcode).get('/api/home/setup?x=%00');
    expect(odd.statusCode).toBeLessThan(500);
  });
});
