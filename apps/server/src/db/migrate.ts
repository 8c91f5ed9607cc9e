import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from './migrations/index.js';

/** The role the application works as: not superuser, not BYPASSRLS, owns no table. */
export const APP_ROLE = 'mustard_app';
export const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];
/** Ledgers the app may add to but never change (business.md: a correction is a new row). */
export const APPEND_ONLY_TABLES = [
  'stock_records',
  'journal_entries',
  'journal_lines',
  'receipts',
  'receipt_allocations',
  'efris_messages',
];

function migrator(db: Kysely<any>) {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** Runs pending migrations as the schema owner, then grants the app role what it needs. */
export async function migrateToLatest(owner: Kysely<any>): Promise<string[]> {
  const { error, results } = await migrator(owner).migrateToLatest();
  if (error) throw error;
  await grantAppRole(owner);
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const all = await migrator(db).getMigrations();
  return all.filter((migration) => !migration.executedAt).map((migration) => migration.name);
}

/**
 * Grants are re-applied after every migration rather than written into each frozen migration,
 * so a new table can never be forgotten. The role is created without LOGIN; on PostgreSQL the
 * operator gives it a login (README, "PostgreSQL").
 */
async function grantAppRole(owner: Kysely<any>): Promise<void> {
  await sql
    .raw(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
        CREATE ROLE ${APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
      END IF;
    END $$`)
    .execute(owner);
  await sql.raw(`GRANT USAGE ON SCHEMA public TO ${APP_ROLE}`).execute(owner);
  await sql.raw(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${APP_ROLE}`).execute(owner);
  await sql.raw(`REVOKE INSERT, UPDATE, DELETE ON ${MIGRATION_TABLES.join(', ')} FROM ${APP_ROLE}`).execute(owner);
  // Applied once the table exists; before migration 0027 there is nothing to revoke on.
  const ledgers = await sql<{
    name: string;
  }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename = ANY(${APPEND_ONLY_TABLES})`.execute(owner);
  for (const { name } of ledgers.rows) await sql.raw(`REVOKE UPDATE, DELETE ON ${name} FROM ${APP_ROLE}`).execute(owner);
  await sql.raw(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${APP_ROLE}`).execute(owner);
}
