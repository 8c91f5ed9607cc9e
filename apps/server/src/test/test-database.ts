import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../db/connect.js';
import { APP_ROLE, migrateToLatest } from '../db/migrate.js';

/**
 * Tests run against a real database: the embedded PGlite by default, or the PostgreSQL server
 * when MUSTARD_TEST_DB=postgres. Each opening is a fresh database copied from one migrated once
 * per run: on PostgreSQL a database created from a template database, on PGlite a data
 * directory copied from a migrated one (pglite-global-setup.ts) and opened as the server opens
 * its own. Either way the app works as the app role, never as a superuser.
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

export async function openTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind === 'pglite') return openPgliteTestDatabase();
  const run = inject('postgresTestRun');
  const name = `${DATABASE_PREFIX}${run}_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => sql.raw(`CREATE DATABASE ${name} TEMPLATE ${templateDatabase(run)}`).execute(admin));
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

async function openPgliteTestDatabase(): Promise<TestDatabase> {
  const template = inject('pgliteTemplate');
  // Without the run's template (a test run outside this project's setup), a fresh one in memory.
  if (!template) {
    return openDatabase({ dataDir: '', databaseUrl: undefined, databaseMigrateUrl: undefined }, { migrate: true, inMemory: true });
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-test-'));
  cpSync(path.join(template, 'pgdata'), path.join(dataDir, 'pgdata'), { recursive: true });
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
