import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '../seed/demo.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';

/**
 * The demo is seeded once per run and copied for each test file that reads it (test-database.ts,
 * `openTestDatabase({ demo: true })`): seeding it per file was eight seedings a run.
 */
let first: TestDatabase;
let second: TestDatabase;
let empty: TestDatabase;

beforeAll(async () => {
  first = await openTestDatabase({ demo: true });
  second = await openTestDatabase({ demo: true });
  empty = await openTestDatabase();
});
afterAll(async () => {
  await Promise.all([first, second, empty].map((database) => database?.close()));
});

const people = (database: TestDatabase) => database.db.selectFrom('users').select(['id', 'email', 'name']).orderBy('email').execute();

describe('the demo, seeded once per run', () => {
  it('is one seeding copied: the same accounts with the same ids (a seeding makes new ones)', async () => {
    const accounts = await people(first);
    expect(accounts.map((account) => account.email)).toContain(DEMO_ADMIN_EMAIL);
    expect(await people(second)).toEqual(accounts);
    const tenants = (database: TestDatabase) =>
      database.db.selectFrom('tenants').select(['id', 'tenantcode']).orderBy('tenantcode').execute();
    expect((await tenants(first)).map((tenant) => tenant.tenantcode)).toEqual(['demo-primary', 'demo-secondary', 'demo-shop']);
    expect(await tenants(second)).toEqual(await tenants(first));
  });

  it('gives each test file a copy of its own: a change in one is not in another', async () => {
    await first.db.updateTable('users').set({ name: 'Changed Here' }).where('email', '=', DEMO_ADMIN_EMAIL).execute();
    const named = async (database: TestDatabase) =>
      (await database.db.selectFrom('users').select('name').where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow()).name;
    expect(await named(first)).toBe('Changed Here');
    expect(await named(second)).toBe('Demo Administrator');
  });

  it('is not in a test file that did not ask for it', async () => {
    expect(await people(empty)).toEqual([]);
  });
});
