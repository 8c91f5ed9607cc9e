import { type Kysely, sql } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';

/**
 * The sender: takes due messages from the outbox (mail/outbox.ts) and hands them to the SMTP
 * server of SMTP_URL, one server or many on one database.
 *
 * When it sends. Every `pollMs` (5 s), and at once when woken: a caller that enqueued a message
 * calls `app.mail.wake()` after its transaction commits (the row is not visible before, and a
 * rolled-back one never is). A wake-up is only a hint, so one forgotten, or a message enqueued
 * by another server, still goes within the poll interval; a wake-up during a round runs one
 * more round after it. Nothing in the request's path waits for SMTP: enqueueing never talks to
 * the mail server, so the person's action never fails because it is down.
 *
 * Never one message twice. A round claims at most `batchSize` due rows in one statement
 * (`FOR UPDATE SKIP LOCKED`: rows another server is claiming at that moment are skipped, not
 * waited for), marking them 'sending' with a lease (`next_attempt_at` = now + `claimLeaseMs`)
 * and counting the attempt, and commits the claim before talking to SMTP; then sends each and
 * marks it 'sent', or 'pending' again with the next attempt after an exponential backoff
 * (`retryBaseMs` doubled per attempt, at most `retryCapMs`), or 'failed' with the last error
 * after `maxAttempts` or a permanent refusal (a 5xx for the address or the message). A row whose
 * lease ran out while still 'sending' belongs to a sender that died mid-send: it is due again.
 * The SMTP timeouts are far shorter than the lease, so a live sender never loses its claim.
 *
 * With REDIS_URL (issue 30) the senders run on the job workers, not the app servers: an app
 * server's `wake()` and `drain()` go through the mail queue and a worker runs this round for
 * each job, its poll going on beside (jobs/mail.ts). The claim above keeps it never-twice there.
 */
export interface MailTiming {
  pollMs: number;
  retryBaseMs: number;
  retryCapMs: number;
  maxAttempts: number;
  claimLeaseMs: number;
  batchSize: number;
}

export const DEFAULT_MAIL_TIMING: MailTiming = {
  pollMs: 5000,
  retryBaseMs: 30_000,
  retryCapMs: 60 * 60_000,
  maxAttempts: 10,
  claimLeaseMs: 10 * 60_000,
  batchSize: 20,
};

/** What the app exposes as `app.mail`. */
export interface MailSender {
  /** Whether messages go out (SMTP_URL is set); else they stay in the outbox for an administrator to see. */
  readonly sends: boolean;
  /** Send what is due now, not at the next poll: call after the transaction that enqueued commits. */
  wake(): void;
  /** Resolves when a round has run that began after this call (tests, and a caller that must know it was tried). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

interface Log {
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

/** The app's sender: sending when SMTP_URL is set, else one that only keeps (wake does nothing). */
export function createMailSender(db: Kysely<DB>, config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'mailTiming'>, log: Log): MailSender {
  if (!config.smtpUrl) return keepingOnly;
  return new SmtpSender(db, config.smtpUrl, config.mailFrom, { ...DEFAULT_MAIL_TIMING, ...config.mailTiming }, log);
}

/** How long stopping waits for a round in flight before cutting its SMTP connection. */
const STOP_WAIT_MS = 2000;

const keepingOnly: MailSender = { sends: false, wake() {}, drain: async () => {}, stop: async () => {} };

/** The wait before the attempt after `attempts` failed ones: doubled each time, capped. */
export function retryDelay(attempts: number, timing: Pick<MailTiming, 'retryBaseMs' | 'retryCapMs'>): number {
  return Math.min(timing.retryCapMs, timing.retryBaseMs * 2 ** Math.max(0, attempts - 1));
}

interface Claimed {
  id: string;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string;
  message_id: string;
  attempts: number;
}

class SmtpSender implements MailSender {
  readonly sends = true;
  private readonly transport: Transporter;
  /** The domain of MAIL_FROM, the right-hand side of every Message-ID. */
  private readonly domain: string;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly rounds: Array<{ after: number; resolve: () => void }> = [];
  private started = 0;

  constructor(
    private readonly db: Kysely<DB>,
    smtpUrl: string,
    private readonly from: string,
    private readonly timing: MailTiming,
    private readonly log: Log,
  ) {
    const seconds = Math.max(1, Math.min(60, Math.floor(timing.claimLeaseMs / 4000)));
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      // One connection kept open for a round's messages (a new one each costs a handshake, over
      // TLS a long one), reopened when the server closed it.
      pool: true,
      maxConnections: 1,
      // Well inside the claim's lease: a sender still talking to SMTP when its lease ends could
      // see another sender take the message.
      connectionTimeout: seconds * 1000,
      greetingTimeout: seconds * 1000,
      socketTimeout: seconds * 1000,
    });
    this.domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'mustard.invalid';
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.round) this.again = true;
    else this.schedule(0);
  }

  drain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const after = this.started;
    return new Promise((resolve) => {
      this.rounds.push({ after, resolve });
      this.wake();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A round in flight gets a moment to finish; a mail server that hangs does not hold the
    // shutdown: closing the connection fails its send, which is recorded and retried later.
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([this.round, new Promise((resolve) => (waited = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(waited);
    this.transport.close({ force: true });
    await this.round;
    for (const waiter of this.rounds.splice(0)) waiter.resolve();
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), delay);
    // The sender never keeps the process alive on its own.
    this.timer.unref();
  }

  private async run(): Promise<void> {
    if (this.stopped || this.round) return;
    const number = ++this.started;
    let full = false;
    this.round = this.sendDue()
      .then((count) => {
        full = count >= this.timing.batchSize;
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'mail: a sending round failed; the outbox keeps the messages'));
    await this.round;
    this.round = undefined;
    for (const waiter of [...this.rounds]) {
      if (number > waiter.after) {
        this.rounds.splice(this.rounds.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    if (this.stopped) return;
    // A full batch may leave more due: the next round at once, after other work had its turn.
    const soon = full || this.again;
    this.again = false;
    this.schedule(soon ? 0 : this.timing.pollMs);
  }

  /** One round: claim a batch, send each, record each outcome. Answers how many were claimed. */
  private async sendDue(): Promise<number> {
    await this.giveUpOnStaleLastAttempts();
    const claimed = await this.claim();
    for (const mail of claimed) await this.send(mail);
    return claimed.length;
  }

  private async claim(): Promise<Claimed[]> {
    const lease = `${this.timing.claimLeaseMs} milliseconds`;
    // The Message-ID is made at the first claim and kept for every attempt after: when a
    // sender dies after the SMTP server took the message but before 'sent' was written, the
    // retry is the same message again, not a new one, so the receiving side (mail servers,
    // mail programs, the tests) can tell the copy from a second message and fold it away.
    const { rows } = await sql<Claimed>`
      UPDATE mail_outbox SET
        status = 'sending',
        attempts = attempts + 1,
        next_attempt_at = now() + ${lease}::interval,
        message_id = COALESCE(message_id, '<' || id::text || '@' || ${this.domain} || '>')
      WHERE id IN (
        SELECT id FROM mail_outbox
        WHERE status IN ('pending', 'sending') AND next_attempt_at <= now() AND attempts < ${this.timing.maxAttempts}
        ORDER BY next_attempt_at
        LIMIT ${this.timing.batchSize}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, recipient, subject, body_text, body_html, message_id, attempts
    `.execute(this.db);
    return rows;
  }

  /** A last attempt whose sender died mid-send: nothing says whether it went, and no attempt is left. */
  private async giveUpOnStaleLastAttempts(): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({ status: 'failed', last_error: 'The sender stopped during the last attempt' })
      .where('status', '=', 'sending')
      .where('next_attempt_at', '<=', sql<Date>`now()`)
      .where('attempts', '>=', this.timing.maxAttempts)
      .execute();
  }

  private async send(mail: Claimed): Promise<void> {
    try {
      const attachments = await this.db
        .selectFrom('mail_outbox_attachments')
        .select(['filename', 'content_type', 'content'])
        .where('mail_id', '=', mail.id)
        .orderBy('position')
        .execute();
      await this.transport.sendMail({
        from: this.from,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.body_text,
        html: mail.body_html,
        messageId: mail.message_id,
        attachments: attachments.map((attachment) => ({
          filename: attachment.filename,
          contentType: attachment.content_type,
          content: Buffer.from(attachment.content),
        })),
      });
    } catch (error) {
      await this.failed(mail, error);
      return;
    }
    await this.db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: sql<Date>`now()`, last_error: null })
      .where('id', '=', mail.id)
      .where('status', '=', 'sending')
      .execute();
  }

  private async failed(mail: Claimed, error: unknown): Promise<void> {
    const { code, responseCode, message } = error as { code?: string; responseCode?: number; message?: string };
    // The SMTP server refused this address or this message for good (5xx): another try would
    // be refused the same way. A 5xx to the connection (a login refused) may be mended, so retried.
    const permanent = (code === 'EENVELOPE' || code === 'EMESSAGE') && typeof responseCode === 'number' && responseCode >= 500;
    const giveUp = permanent || mail.attempts >= this.timing.maxAttempts;
    const lastError = `${code ?? 'error'}${responseCode ? ` ${responseCode}` : ''}: ${message ?? String(error)}`.slice(0, 1000);
    this.log.warn(
      { mail: mail.id, attempts: mail.attempts, code, responseCode },
      giveUp ? 'mail: not sent, given up' : 'mail: not sent, will retry',
    );
    await this.db
      .updateTable('mail_outbox')
      .set({
        status: giveUp ? 'failed' : 'pending',
        last_error: lastError,
        next_attempt_at: sql<Date>`now() + ${`${retryDelay(mail.attempts, this.timing)} milliseconds`}::interval`,
      })
      .where('id', '=', mail.id)
      .where('status', '=', 'sending')
      .execute();
  }
}
