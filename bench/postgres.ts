import net from 'node:net';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { APP_ROLE, migrateToLatest } from '../apps/server/src/db/migrate.js';

/** The PostgreSQL server the benchmarks may use (the tests' TEST_DATABASE_URL, as superuser). */
export const POSTGRES = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

export function postgresReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: POSTGRES.hostname, port: Number(POSTGRES.port || 5432), timeout: 1500 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Runs `work` on `database` as the superuser (who reads every tenant's rows: row-level security binds the app only). */
export async function withAdmin<T>(database: string, work: (db: Kysely<any>) => Promise<T>): Promise<T> {
  const url = new URL(POSTGRES);
  url.pathname = `/${database}`;
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/**
 * A fresh, migrated database for one benchmark, as the README sets one up: the app logs in as
 * its own role. Answers the app's connection URL and a way to drop the database afterwards.
 */
export async function benchDatabase(name: string): Promise<{ appUrl: string; drop(): Promise<void> }> {
  await withAdmin('postgres', (admin) => sql.raw(`CREATE DATABASE ${name}`).execute(admin));
  const drop = () =>
    withAdmin('postgres', (admin) => sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(admin)).then(() => undefined);
  try {
    await withAdmin(name, (owner) => migrateToLatest(owner));
    await withAdmin(name, (owner) => sql.raw(`ALTER ROLE ${APP_ROLE} LOGIN`).execute(owner));
  } catch (error) {
    await drop();
    throw error;
  }
  const appUrl = new URL(POSTGRES);
  appUrl.pathname = `/${name}`;
  appUrl.username = APP_ROLE;
  appUrl.password = '';
  return { appUrl: appUrl.toString(), drop };
}
