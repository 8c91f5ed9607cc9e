import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Language, PASSWORD_RESET_MESSAGES, PASSWORD_RESET_MINUTES } from '@mustard/shared';
import type { Kysely } from 'kysely';
import { revokeUserSessions } from '../../access/sessions.repository.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { enqueueMail } from '../../mail/outbox.js';
import { consumeCode, findUserById, insertCode, recordAuthEvent, setPasswordHash } from './auth.repository.js';
import type { FailureLimiter } from './failure-limiter.js';
import { hashPassword } from './password.js';
import { deleteResetLinks, isLiveResetToken, lockAccountByEmail, PASSWORD_RESET_PURPOSE } from './password-reset.repository.js';

/*
 * A forgotten password (issue 29 point 3, security.md items 10, 12, 13). The person asks for a
 * link by e-mail; its token (256 bits from the CSPRNG, only its hash stored) works once, for 30
 * minutes, and only the newest link of an account works. Choosing the new password with it ends
 * every session of the account.
 */

export interface PasswordResetDeps {
  db: Kysely<DB>;
  /** Where the web app is, for the link in the e-mail. */
  publicUrl: string;
  /** Reset requests an address has made this hour: the first RESET_MAILS_PER_ADDRESS of an account's send a message. */
  mailsPerAddress: FailureLimiter;
}

/**
 * Reset messages an address receives an hour. Requests beyond it are answered alike and the
 * latest link keeps working, but no message goes: the route's limit is per client address, so
 * without this anyone rotating addresses could fill a person's inbox with genuine resets.
 */
export const RESET_MAILS_PER_ADDRESS = 5;

/** The page of the link: the token rides in `?token=`, which the request log masks. */
export function passwordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl}/auth/password/reset?token=${token}`;
}

/**
 * Every reset request is answered this long after it arrived, whatever the address: the few
 * statements of an account's link (a millisecond or two on PostgreSQL, about ten on the embedded
 * database) stay hidden inside it, so the answer's time cannot tell whether an account uses the
 * address (security.md item 12), and the work is over before the answer, so it cannot slow the
 * asker's next request either.
 */
export const PASSWORD_RESET_ANSWER_MS = 100;

/**
 * Sends a reset link if an enabled account uses the address (at most RESET_MAILS_PER_ADDRESS an
 * hour); the answer is the same for every address, in the same time. One transaction for every address: it looks the address up (locking
 * the account's row, so requests for one account take turns) and records the request; for an
 * account it also replaces the account's links and writes the e-mail to the outbox, sent after
 * the commit.
 */
export async function requestPasswordReset(
  deps: PasswordResetDeps,
  input: { email: string; locale: Language; ip: string },
): Promise<{ message: string }> {
  const answerAt = performance.now() + PASSWORD_RESET_ANSWER_MS;
  // Counted for every address, known or not, before anything is looked up: the count takes the
  // same time for all, and while a shared count cannot be kept (Redis away) every request
  // answers the same 503, where refusing only accounts' addresses would tell which exist.
  const mayMail = await deps.mailsPerAddress.attempt(input.email);
  await deps.db.transaction().execute(async (trx) => {
    const account = await lockAccountByEmail(trx, input.email);
    await recordAuthEvent(trx, 'password_reset_requested', { userId: account?.id, email: input.email, ip: input.ip });
    if (!account || account.disabled_at || !mayMail) return;
    const token = randomBytes(32).toString('base64url');
    await deleteResetLinks(trx, account.id);
    await insertCode(trx, account.id, token, PASSWORD_RESET_PURPOSE, new Date(Date.now() + PASSWORD_RESET_MINUTES * 60_000));
    await enqueueMail(trx, {
      to: account.email,
      template: 'passwordReset',
      locale: input.locale,
      values: { name: account.name, link: passwordResetLink(deps.publicUrl, token) },
      tenantId: null,
    });
  });
  await sleep(Math.max(0, answerAt - performance.now()));
  return { message: PASSWORD_RESET_MESSAGES.requested };
}

const linkInvalid = () => new AppError(422, PASSWORD_RESET_MESSAGES.linkInvalid, { token: [PASSWORD_RESET_MESSAGES.linkInvalid] });

/**
 * Sets the new password with a link's token, in one transaction: the token is spent (of many
 * redemptions at once exactly one finds it unspent), the hash set, every session of the account
 * ended (its old tokens answer 401) and the change recorded. A token that is forged, spent,
 * replaced or expired changes nothing.
 */
export async function confirmPasswordReset(
  deps: Pick<PasswordResetDeps, 'db'>,
  input: { token: string; password: string; ip: string },
): Promise<{ message: string }> {
  const { db } = deps;
  if (!(await isLiveResetToken(db, input.token))) throw linkInvalid();
  const hash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    const userId = await consumeCode(trx, input.token, PASSWORD_RESET_PURPOSE);
    const account = userId ? await findUserById(trx, userId) : undefined;
    if (!account || account.disabled_at) throw linkInvalid();
    await setPasswordHash(trx, account.id, hash);
    await revokeUserSessions(trx, account.id);
    await recordAuthEvent(trx, 'password_reset', { userId: account.id, email: account.email, ip: input.ip });
  });
  return { message: PASSWORD_RESET_MESSAGES.changed };
}
