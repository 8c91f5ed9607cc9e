import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { AccessNotices } from './access-notices.js';
import { AccessChangeTracker } from './change-tracker.js';
import { type DataDirLock, lockDataDir } from './lock.js';
import { APP_ROLE, migrateToLatest, pendingMigrations } from './migrate.js';
import type { DB } from './types.js';

export interface Database {
  /** Works as the app role: row-level security applies to everything it runs. */
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** Counts writes to the access tables made through `db`, and on PostgreSQL the database's notices of any (see AuthCache). */
  changes: AccessChangeTracker;
  /** PostgreSQL: the connection listening for changes to sign-in state. */
  notices?: AccessNotices;
  /** The migrations this opening applied (embedded database; PostgreSQL migrates as the owner). */
  migrated?: string[];
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class UnsafeDatabaseRoleError extends Error {}

interface LogSink {
  info(message: string): void;
  error(obj: unknown, message: string): void;
}

export interface OpenOptions {
  /** Run pending migrations before serving (the server and `mustard migrate` do). */
  migrate: boolean;
  log?: LogSink;
  /** Tests: an in-memory embedded database instead of the data directory. */
  inMemory?: boolean;
  /**
   * PostgreSQL: listen for the database's notices of changes to sign-in state (default yes), so
   * sign-in caches are exact; the `mustard` command, which caches nothing, does not.
   */
  listen?: boolean;
}

const silent: LogSink = { info() {}, error() {} };

// pg returns `date` columns as JS Dates at local midnight; learners' birth dates are days.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'databaseMigrateUrl'>,
  options: OpenOptions,
): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, config.databaseMigrateUrl, options) : openPglite(config.dataDir, options);
}

async function openPglite(dataDir: string, options: OpenOptions): Promise<Database> {
  const lock: DataDirLock | undefined = options.inMemory ? undefined : lockDataDir(dataDir);
  try {
    const pglite = options.inMemory ? await PGlite.create() : await PGlite.create(path.join(dataDir, 'pgdata'));
    // PGlite has a single connection; Kysely serialises its use. Migrations run as the owner,
    // then the session takes the app role for good, so requests can never bypass RLS.
    const changes = new AccessChangeTracker();
    const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }), plugins: [changes] });
    const migrated = options.migrate ? await migrateToLatest(db) : [];
    await sql.raw(`SET ROLE ${APP_ROLE}`).execute(db);
    await assertSafeRole(db);
    if (!options.migrate) await assertMigrated(db);
    return {
      db,
      kind: 'pglite',
      changes,
      migrated,
      ping: async () => void (await sql`SELECT 1`.execute(db)),
      close: async () => {
        await db.destroy();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openPostgres(url: string, migrateUrl: string | undefined, options: OpenOptions): Promise<Database> {
  const log = options.log ?? silent;
  if (options.migrate && migrateUrl) {
    const ownerPool = new pg.Pool({ connectionString: migrateUrl, max: 1 });
    handleConnectionLoss(ownerPool, log);
    const owner = new Kysely<any>({ dialect: new PostgresDialect({ pool: ownerPool }) });
    try {
      const applied = await migrateToLatest(owner);
      if (applied.length > 0) log.info(`Applied migrations: ${applied.join(', ')}`);
    } finally {
      await owner.destroy();
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  handleConnectionLoss(pool, log);
  const changes = new AccessChangeTracker();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [changes] });
  try {
    await assertSafeRole(db);
    await assertMigrated(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const notices = options.listen === false ? undefined : new AccessNotices(url, changes, log);
  await notices?.start();
  return {
    db,
    kind: 'postgres',
    changes,
    notices,
    ping: async () => void (await sql`SELECT 1`.execute(db)),
    close: async () => {
      await notices?.close();
      await db.destroy();
    },
  };
}

/**
 * A database restart cuts every connection, and node-postgres reports it as an `error` event on
 * the connection's client: an event nobody listens to ends the process (issue 23 item 6). The
 * pool listens only while a client is idle; a client lent to a request (in a transaction, between
 * two statements) has no listener of its own. So every client gets one for its whole life: the
 * request's next statement then fails ("not queryable"), the error handler answers 503, and the
 * pool drops the dead client when it is given back and opens a new one for the next request.
 */
function handleConnectionLoss(pool: pg.Pool, log: LogSink): void {
  pool.on('connect', (client) => {
    client.on('error', (error) => log.error({ err: error }, 'PostgreSQL connection lost; the pool will reconnect'));
  });
  // The pool repeats an idle client's error on itself, after the client's own listener has logged it.
  pool.on('error', () => {});
}

/**
 * security.md item 1: the app must work as a role that RLS binds. A superuser, a BYPASSRLS role
 * or a table owner would silently see every tenant, so the server refuses to start as one.
 */
export async function assertSafeRole(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ user: string; rolsuper: boolean; rolbypassrls: boolean; owned: number }>`
    SELECT current_user AS user, r.rolsuper, r.rolbypassrls,
      (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relowner = r.oid) AS owned
    FROM pg_roles r WHERE r.rolname = current_user
  `.execute(db);
  const role = rows[0];
  if (!role || role.rolsuper || role.rolbypassrls || role.owned > 0) {
    throw new UnsafeDatabaseRoleError(
      `The database role "${role?.user}" is a superuser, bypasses row-level security or owns tables. ` +
        `Connect DATABASE_URL as the role ${APP_ROLE} (see README, "PostgreSQL"); run migrations with DATABASE_MIGRATE_URL.`,
    );
  }
}

async function assertMigrated(db: Kysely<any>): Promise<void> {
  const pending = await pendingMigrations(db);
  if (pending.length > 0) {
    throw new Error(
      `The database schema is not up to date (pending: ${pending.join(', ')}). ` +
        'Run `npm run mustard -- migrate` with DATABASE_MIGRATE_URL set to the schema owner.',
    );
  }
}
