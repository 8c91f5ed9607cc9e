import { type Kysely, sql } from 'kysely';

/**
 * Every server keeps sign-in state (sessions, member contexts) in memory, and must drop it the
 * moment it changes, whoever changed it: another server on the same PostgreSQL, the `mustard`
 * command, or a person in psql. A statement that writes a table deciding who may do what sends
 * `NOTIFY mustard_access` (delivered when its transaction commits, once per table and
 * transaction); each server listens on one connection (db/access-notices.ts) and empties its
 * caches on each notice. A new session changes nothing cached, so inserting one is quiet:
 * signing in costs no server its caches.
 */
export const ACCESS_CHANNEL = 'mustard_access';

const WRITES = 'INSERT OR UPDATE OR DELETE OR TRUNCATE';
const NOTIFYING: ReadonlyArray<readonly [table: string, events: string]> = [
  ['users', WRITES],
  ['sessions', 'UPDATE OR DELETE OR TRUNCATE'],
  ['tenants', WRITES],
  ['memberships', WRITES],
  ['roles', WRITES],
  ['role_permissions', WRITES],
  ['membership_roles', WRITES],
  ['invitations', WRITES],
  ['invitation_roles', WRITES],
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION mustard_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify(${sql.lit(ACCESS_CHANNEL)}, TG_TABLE_NAME);
      RETURN NULL;
    END
    $$
  `.execute(db);
  for (const [table, events] of NOTIFYING) {
    await sql
      .raw(`CREATE TRIGGER access_changed AFTER ${events} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION mustard_access_changed()`)
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of NOTIFYING) await sql.raw(`DROP TRIGGER IF EXISTS access_changed ON ${table}`).execute(db);
  await sql`DROP FUNCTION IF EXISTS mustard_access_changed()`.execute(db);
}
