import { type Kysely, sql } from 'kysely';
import { newId } from '../db/ids.js';
import type { DB } from '../db/types.js';

/** Sign-in sessions (a global table, keyed by user): what the access plugin checks on every request. */

export async function createSession(db: Kysely<DB>, userId: string, expiresAt: Date) {
  const id = newId();
  await db.insertInto('sessions').values({ id, user_id: userId, expires_at: expiresAt }).execute();
  return id;
}

export async function revokeSession(db: Kysely<DB>, sessionId: string) {
  await db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Password change, reset and account disable end every session of the user (security.md item 10). */
export async function revokeUserSessions(db: Kysely<DB>, userId: string) {
  await db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
