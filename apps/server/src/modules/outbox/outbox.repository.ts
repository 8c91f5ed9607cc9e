import type { MailOutboxQuery, OutboxMessage } from '@mustard/shared';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';

/** A page of the outbox, newest first, with the names of each message's attachments. */
export async function outboxPage(db: Kysely<DB>, query: MailOutboxQuery): Promise<{ messages: OutboxMessage[]; totalRecords: number }> {
  const filtered = db
    .selectFrom('mail_outbox')
    .$if(query.status !== undefined, (q) => q.where('status', '=', query.status as string as never));
  const [rows, count] = await Promise.all([
    filtered
      .select((eb) => [
        'id',
        'recipient',
        'template',
        'locale',
        'subject',
        'status',
        'attempts',
        'created_at',
        'sent_at',
        'next_attempt_at',
        'last_error',
        'body_text',
        eb
          .selectFrom('mail_outbox_attachments')
          .whereRef('mail_outbox_attachments.mail_id', '=', 'mail_outbox.id')
          .select(sql<string[]>`coalesce(array_agg(filename ORDER BY position), '{}')`.as('names'))
          .as('attachments'),
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    totalRecords: Number(count.n),
    messages: rows.map((row) => ({
      id: row.id,
      to: row.recipient,
      template: row.template,
      locale: row.locale,
      subject: row.subject,
      status: row.status,
      attempts: row.attempts,
      created_at: row.created_at.toISOString(),
      sent_at: row.sent_at ? row.sent_at.toISOString() : null,
      next_attempt_at: row.next_attempt_at.toISOString(),
      last_error: row.last_error,
      text: row.body_text,
      attachments: row.attachments ?? [],
    })),
  };
}
