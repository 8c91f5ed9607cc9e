import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { hashCode } from './auth.repository.js';

/** Reset links are one-time codes of this purpose (one_time_codes: a global table, keyed by user). */
export const PASSWORD_RESET_PURPOSE = 'reset';

/**
 * The account of an e-mail, its row locked until the transaction ends: requests for one account
 * take turns, so each replaces the links issued before it (of 50 at once, one link is left).
 */
export function lockAccountByEmail(trx: Kysely<DB>, email: string) {
  return trx
    .selectFrom('users')
    .select(['id', 'name', 'email', 'disabled_at'])
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .forUpdate()
    .executeTakeFirst();
}

/** Removes the account's earlier reset links, used or not: only the newest one works. */
export async function deleteResetLinks(trx: Kysely<DB>, userId: string): Promise<void> {
  await trx.deleteFrom('one_time_codes').where('user_id', '=', userId).where('purpose', '=', PASSWORD_RESET_PURPOSE).execute();
}

/** Whether a reset token is live (unused, unexpired): a forged or spent one costs no password hash. */
export async function isLiveResetToken(db: Kysely<DB>, token: string): Promise<boolean> {
  const row = await db
    .selectFrom('one_time_codes')
    .select('id')
    .where('code_hash', '=', hashCode(token))
    .where('purpose', '=', PASSWORD_RESET_PURPOSE)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}
