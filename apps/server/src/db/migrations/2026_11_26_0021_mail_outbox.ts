import type { Kysely } from 'kysely';
import { dropTables, runStatements } from './tenant-tables.js';

/**
 * Mail that really goes out (issue 29 point 1): every message is written here in the same
 * transaction as the action that causes it (a registration, a reset, an invitation, a report
 * card), so a rolled-back action sends nothing and a committed one is never lost, and sent after
 * commit by the sender (mail/sender.ts). A platform table: registration and password reset
 * belong to no school yet, so tenant_id is optional (the school whose message it is, deleted
 * with it) and the table is read by the sender and a platform administrator, never through a
 * school's row-level security.
 *
 * The message is stored rendered (subject, text, HTML): what was sent is what was asked, in the
 * words and language of that moment. `next_attempt_at` is when the row is next due: for a
 * pending row its retry time, for a claimed ('sending') row the end of the claim's lease, after
 * which a sender that died mid-send is presumed gone and the row is due again. `message_id`,
 * set at the first claim, is kept for every later attempt (mail/sender.ts says why).
 * Attachments (a report card's PDF) are rows of their own, read only when sending.
 */
const TABLES_SQL = `
    CREATE TABLE mail_outbox (
      id uuid PRIMARY KEY,
      tenant_id uuid REFERENCES tenants (id) ON DELETE CASCADE,
      dedupe_key text UNIQUE CHECK (char_length(dedupe_key) BETWEEN 1 AND 300),
      recipient text NOT NULL CHECK (char_length(recipient) BETWEEN 3 AND 254),
      template text NOT NULL CHECK (char_length(template) BETWEEN 1 AND 50),
      locale text NOT NULL,
      subject text NOT NULL,
      body_text text NOT NULL,
      body_html text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      message_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    );
    CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status IN ('pending', 'sending');
    CREATE INDEX mail_outbox_created ON mail_outbox (created_at DESC);
    CREATE INDEX mail_outbox_tenant ON mail_outbox (tenant_id) WHERE tenant_id IS NOT NULL;
    CREATE TABLE mail_outbox_attachments (
      mail_id uuid NOT NULL REFERENCES mail_outbox (id) ON DELETE CASCADE,
      position integer NOT NULL CHECK (position >= 0),
      filename text NOT NULL,
      content_type text NOT NULL,
      content bytea NOT NULL,
      PRIMARY KEY (mail_id, position)
    )
`;

export const MAIL_OUTBOX_TABLES = ['mail_outbox', 'mail_outbox_attachments'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, MAIL_OUTBOX_TABLES);
}
