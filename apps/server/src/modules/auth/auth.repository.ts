import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { newId } from '../../db/ids.js';
import type { DB } from '../../db/types.js';

/** Sessions, one-time codes and sign-in events: global tables, keyed by user. */

export function findUserByEmail(db: Kysely<DB>, email: string) {
  return db.selectFrom('users').selectAll().where(sql`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}

export function findUserById(db: Kysely<DB>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

export async function insertCode(db: Kysely<DB>, userId: string, code: string, purpose: string, expiresAt: Date) {
  await db
    .insertInto('one_time_codes')
    .values({ id: newId(), user_id: userId, code_hash: hashCode(code), purpose, expires_at: expiresAt })
    .execute();
}

/**
 * Marks the code used and answers its user, in one statement: of many parallel redemptions of
 * one code exactly one sees a row (security.md item 13).
 */
export async function consumeCode(db: Kysely<DB>, code: string, purpose: string): Promise<string | undefined> {
  const row = await db
    .updateTable('one_time_codes')
    .set({ used_at: sql`now()` })
    .where('code_hash', '=', hashCode(code))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

export type AuthEventKind =
  | 'login'
  | 'login_failed'
  | 'code_redeemed'
  | 'code_failed'
  | 'logout'
  | 'password_changed'
  | 'external_signin'
  | 'external_failed'
  | 'password_reset_requested'
  | 'password_reset';

export async function recordAuthEvent(
  db: Kysely<DB>,
  kind: AuthEventKind,
  details: { userId?: string | null; email?: string | null; ip?: string },
) {
  await db
    .insertInto('auth_events')
    .values({ id: newId(), kind, user_id: details.userId ?? null, email: details.email?.slice(0, 254) ?? null, ip: details.ip ?? null })
    .execute();
}

/** Sets a user's password hash (the caller ends their sessions in the same transaction). */
export async function setPasswordHash(db: Kysely<DB>, userId: string, hash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', userId).execute();
}

/** Keeps an address for Coming Soon's "notify me", once whatever its case. */
export async function insertLaunchInterest(db: Kysely<DB>, email: string): Promise<void> {
  await db
    .insertInto('launch_notifications')
    .values({ email })
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .execute();
}
