import { type Kysely, sql } from 'kysely';
import { newId } from '../db/ids.js';
import type { DB } from '../db/types.js';

/** Sign-in sessions (a global table, keyed by user): what the access plugin checks on every request. */

export async function createSession(db: Kysely<DB>, userId: string, expiresAt: Date) {
  const id = newId();
  await db.insertInto('sessions').values({ id, user_id: userId, expires_at: expiresAt }).execute();
  return id;
}

/** The user behind a live session: not revoked, not expired, account not disabled. */
export function findSessionUser(db: Kysely<DB>, sessionId: string, userId: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.name', 'users.email', 'users.path', 'users.is_admin', 'sessions.id as session_id', 'sessions.expires_at'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', sql<Date>`now()`)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
}

export async function revokeSession(db: Kysely<DB>, sessionId: string) {
  await db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Password change, reset and account disable end every session of the user (security.md item 10). */
export async function revokeUserSessions(db: Kysely<DB>, userId: string) {
  await db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
