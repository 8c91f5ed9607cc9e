import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../db/connect.js';
import { APP_ROLE, migrateToLatest } from '../db/migrate.js';
import { seedDemo } from '../seed/demo.js';

/**
 * Tests run against a real database: the embedded PGlite by default, or the PostgreSQL server
 * when MUSTARD_TEST_DB=postgres. Each opening is a fresh database copied from one migrated once
 * per run: on PostgreSQL a database created from a template database, on PGlite a data
 * directory copied from a migrated one (pglite-global-setup.ts) and opened as the server opens
 * its own. Either way the app works as the app role, never as a superuser.
 *
 * A test that reads the demo (`openTestDatabase({ demo: true })`, `buildTestApp(..., { demo: true })`)
 * gets a copy of a second template, the migrated one with the demo seeded, made once per run by
 * the first test file that asks for it: seeding the demo takes seconds, copying it a fraction.
 */
export type TestDatabaseKind = 'pglite' | 'postgres';

export const testDatabaseKind: TestDatabaseKind = process.env.MUSTARD_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Test databases are named `mustard_t_<run>_<random>` and cloned from `mustard_t_<run>_tpl`,
 * where <run> is the start of the test run in seconds: runs sharing the server leave each
 * other alone, and a run cleans up only its own databases and those of runs long gone.
 */
const DATABASE_PREFIX = 'mustard_t_';
const STALE_RUN_SECONDS = 6 * 3600;

export const templateDatabase = (run: string) => `${DATABASE_PREFIX}${run}_tpl`;
/** The migrated template with the demo seeded, made by the first test file that reads the demo. */
export const demoTemplateDatabase = (run: string) => `${DATABASE_PREFIX}${run}_demo`;

/** The password of the demo accounts in the seeded template: testConfig()'s demoPassword. */
export const DEMO_TEST_PASSWORD = 'Mustard@2026';

export interface OpenTestDatabaseOptions {
  /**
   * A copy of the demo, as `seedDemo(database, DEMO_TEST_PASSWORD)` leaves an empty database,
   * seeded once per run instead of once per test file. The copy is the test file's own: it may
   * change what it likes.
   */
  demo?: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTestRun: string;
    /** The data directory of the migrated embedded database that each test copies. */
    pgliteTemplate: string;
  }
}

export function databaseUrl(adminUrl: string, database: string, user?: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  if (user) {
    url.username = user;
    url.password = '';
  }
  return url.toString();
}

async function withAdmin<T>(work: (admin: Kysely<any>) => Promise<T>, database = 'postgres'): Promise<T> {
  const admin = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl(POSTGRES_ADMIN_URL, database), max: 1 }) }),
  });
  try {
    return await work(admin);
  } finally {
    await admin.destroy();
  }
}

/** Vitest global setup for the PostgreSQL pass: a migrated template and a login for the app role. */
export async function preparePostgresTemplate(run: string): Promise<void> {
  await withAdmin((admin) => sql.raw(`CREATE DATABASE ${templateDatabase(run)}`).execute(admin));
  await withAdmin((owner) => migrateToLatest(owner), templateDatabase(run));
  await withAdmin((admin) => sql.raw(`ALTER ROLE ${APP_ROLE} LOGIN`).execute(admin));
}

/** Drops the databases of this run, and of runs that started more than six hours ago. */
export async function dropTestDatabases(run: string): Promise<void> {
  await withAdmin(async (admin) => {
    const { rows } = await sql<{ datname: string }>`SELECT datname FROM pg_database WHERE datname LIKE ${`${DATABASE_PREFIX}%`}`.execute(
      admin,
    );
    const now = Math.floor(Date.now() / 1000);
    for (const { datname } of rows) {
      const started = Number.parseInt(datname.slice(DATABASE_PREFIX.length), 10);
      if (datname.startsWith(`${DATABASE_PREFIX}${run}_`) || !Number.isFinite(started) || now - started > STALE_RUN_SECONDS) {
        await sql.raw(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).execute(admin);
      }
    }
  });
}

export interface TestDatabase extends Database {
  /** PostgreSQL only: the connection string of the app role, for tests that open their own. */
  appUrl?: string;
}

/**
 * Runs SQL as the owner of a test database's tables: to plant a failure (a trigger that refuses a
 * write, a revoked grant) in the test's own copy, where the app's role may not. On PostgreSQL a
 * connection of the admin to that database; on the embedded database its one session, which is
 * the owner and took the app role with SET ROLE.
 */
export async function asOwner(database: TestDatabase, statements: string[]): Promise<void> {
  if (database.appUrl) {
    const name = new URL(database.appUrl).pathname.slice(1);
    const owner = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl(POSTGRES_ADMIN_URL, name), max: 1 }) }),
    });
    try {
      for (const statement of statements) await sql.raw(statement).execute(owner);
    } finally {
      await owner.destroy();
    }
    return;
  }
  await sql.raw('RESET ROLE').execute(database.db);
  try {
    for (const statement of statements) await sql.raw(statement).execute(database.db);
  } finally {
    await sql.raw(`SET ROLE ${APP_ROLE}`).execute(database.db);
  }
}

export async function openTestDatabase(options: OpenTestDatabaseOptions = {}): Promise<TestDatabase> {
  if (testDatabaseKind === 'pglite') return openPgliteTestDatabase(options);
  const run = inject('postgresTestRun');
  const template = options.demo ? await postgresDemoTemplate(run) : templateDatabase(run);
  const name = `${DATABASE_PREFIX}${run}_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => sql.raw(`CREATE DATABASE ${name} TEMPLATE ${template}`).execute(admin));
  const appUrl = databaseUrl(POSTGRES_ADMIN_URL, name, APP_ROLE);
  const database = await openDatabase({ dataDir: '', databaseUrl: appUrl, databaseMigrateUrl: undefined }, { migrate: false });
  return {
    ...database,
    appUrl,
    close: async () => {
      await database.close();
      await withAdmin((admin) => sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin));
    },
  };
}

/**
 * The run's seeded demo template on PostgreSQL, made by the first test file that asks: the test
 * processes take turns under an advisory lock, and the others find it made. Seeded under another
 * name and renamed when complete, so a seed that failed is never cloned.
 */
async function postgresDemoTemplate(run: string): Promise<string> {
  const name = demoTemplateDatabase(run);
  // One connection for the lock and all under it: the pool would close an idle one mid-seed, and
  // the lock with it.
  await withAdmin((pool) =>
    pool.connection().execute(async (admin) => {
      await sql`SELECT pg_advisory_lock(hashtext(${name}))`.execute(admin);
      try {
        const { rows } = await sql`SELECT 1 FROM pg_database WHERE datname = ${name}`.execute(admin);
        if (rows.length > 0) return;
        const seeding = `${name}_seeding`;
        await sql.raw(`DROP DATABASE IF EXISTS ${seeding} WITH (FORCE)`).execute(admin);
        await sql.raw(`CREATE DATABASE ${seeding} TEMPLATE ${templateDatabase(run)}`).execute(admin);
        const database = await openDatabase(
          { dataDir: '', databaseUrl: databaseUrl(POSTGRES_ADMIN_URL, seeding, APP_ROLE), databaseMigrateUrl: undefined },
          { migrate: false, listen: false },
        );
        try {
          await seedDemo(database, DEMO_TEST_PASSWORD);
        } finally {
          await database.close();
        }
        // A database is renamed (and later cloned) only with no one connected: the server ends
        // the closed connections' sessions a moment after they close.
        for (let tries = 0; ; tries++) {
          const { rows: sessions } = await sql`SELECT 1 FROM pg_stat_activity WHERE datname = ${seeding}`.execute(admin);
          if (sessions.length === 0) break;
          if (tries > 200) throw new Error(`${seeding} still has ${sessions.length} sessions after it was closed.`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await sql.raw(`ALTER DATABASE ${seeding} RENAME TO ${name}`).execute(admin);
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext(${name}))`.execute(admin);
      }
    }),
  );
  return name;
}

async function openPgliteTestDatabase(options: OpenTestDatabaseOptions): Promise<TestDatabase> {
  const template = inject('pgliteTemplate');
  // Without the run's template (a test run outside this project's setup), a fresh one in memory.
  if (!template) {
    const database = await openDatabase(
      { dataDir: '', databaseUrl: undefined, databaseMigrateUrl: undefined },
      { migrate: true, inMemory: true },
    );
    if (options.demo) await seedDemo(database, DEMO_TEST_PASSWORD);
    return database;
  }
  return openPgliteCopy(options.demo ? await pgliteDemoTemplate(template) : template);
}

/** A fresh embedded database in a data directory of its own, copied from `source`'s. */
async function openPgliteCopy(source: string): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-test-'));
  cpSync(path.join(source, 'pgdata'), path.join(dataDir, 'pgdata'), { recursive: true });
  try {
    // migrate: true, as the server opens its data directory; the copy has nothing left to apply.
    const database = await openDatabase({ dataDir, databaseUrl: undefined, databaseMigrateUrl: undefined }, { migrate: true });
    return {
      ...database,
      close: async () => {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

const DEMO_SEED_TIMEOUT_MS = 5 * 60_000;

/**
 * The run's seeded demo data directory on the embedded database, `<template>/demo`, made by the
 * first test file that asks: it takes `<template>/demo.lock` (mkdir either makes it or finds it
 * taken, whichever process asks), seeds a copy of the template in `<template>/demo.seeding` and
 * renames it into place when complete. The others wait for it to appear; if its maker failed,
 * the lock is gone and the next one tries.
 */
async function pgliteDemoTemplate(template: string): Promise<string> {
  const demo = path.join(template, 'demo');
  const lock = path.join(template, 'demo.lock');
  const deadline = Date.now() + DEMO_SEED_TIMEOUT_MS;
  while (!existsSync(demo)) {
    if (Date.now() > deadline) throw new Error(`The seeded demo at ${demo} did not appear within ${DEMO_SEED_TIMEOUT_MS / 1000} s.`);
    let mine = false;
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      // Another test process is seeding it: wait for it below.
    }
    if (!mine) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      if (!existsSync(demo)) await seedPgliteDemo(template, demo);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return demo;
}

async function seedPgliteDemo(template: string, demo: string): Promise<void> {
  const seeding = `${demo}.seeding`;
  rmSync(seeding, { recursive: true, force: true });
  cpSync(path.join(template, 'pgdata'), path.join(seeding, 'pgdata'), { recursive: true });
  try {
    const database = await openDatabase({ dataDir: seeding, databaseUrl: undefined, databaseMigrateUrl: undefined }, { migrate: true });
    try {
      await seedDemo(database, DEMO_TEST_PASSWORD);
    } finally {
      await database.close();
    }
    renameSync(seeding, demo);
  } catch (error) {
    rmSync(seeding, { recursive: true, force: true });
    throw error;
  }
}
