import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type Database, openDatabase } from '../db/connect.js';
import { APP_ROLE, migrateToLatest } from '../db/migrate.js';

/**
 * Tests run against a real database: the embedded PGlite by default, or the PostgreSQL server
 * when MUSTARD_TEST_DB=postgres (each test file gets a fresh database cloned from a migrated
 * template). Either way the app works as the app role, never as a superuser.
 */
export type TestDatabaseKind = 'pglite' | 'postgres';

export const testDatabaseKind: TestDatabaseKind = process.env.MUSTARD_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEMPLATE_DATABASE = 'mustard_test_template';

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
export async function preparePostgresTemplate(): Promise<void> {
  await withAdmin(async (admin) => {
    await sql.raw(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`).execute(admin);
    await sql.raw(`CREATE DATABASE ${TEMPLATE_DATABASE}`).execute(admin);
  });
  await withAdmin((owner) => migrateToLatest(owner), TEMPLATE_DATABASE);
  await withAdmin((admin) => sql.raw(`ALTER ROLE ${APP_ROLE} LOGIN`).execute(admin));
}

export async function dropLeftoverTestDatabases(): Promise<void> {
  await withAdmin(async (admin) => {
    const { rows } = await sql<{ datname: string }>`SELECT datname FROM pg_database WHERE datname LIKE 'mustard_t_%'`.execute(admin);
    for (const row of rows) await sql.raw(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`).execute(admin);
  });
}

export interface TestDatabase extends Database {
  /** PostgreSQL only: the connection string of the app role, for tests that open their own. */
  appUrl?: string;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind === 'pglite') {
    return openDatabase({ dataDir: '', databaseUrl: undefined, databaseMigrateUrl: undefined }, { migrate: true, inMemory: true });
  }
  const name = `mustard_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => sql.raw(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`).execute(admin));
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
