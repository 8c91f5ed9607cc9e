import type { MailOutboxQuery, MailOutboxResponse } from '@mustard/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { forbidden } from '../../errors.js';
import { outboxPage } from './outbox.repository.js';

/**
 * The outbox is the platform's (every school's messages, and those of people with no school
 * yet): a platform administrator's alone (users.is_admin), not a school's superadmin's. It holds
 * live links (a password reset's), which is why no one else may read it.
 */
export async function listOutbox(
  db: Kysely<DB>,
  actor: { is_admin: boolean },
  input: { query: MailOutboxQuery; sending: boolean },
): Promise<MailOutboxResponse> {
  if (!actor.is_admin) throw forbidden();
  return { ...(await outboxPage(db, input.query)), sending: input.sending };
}
