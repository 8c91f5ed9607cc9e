import { type AddressInfo, createServer, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type Database, openDatabase } from '../db/connect.js';
import { startTestSmtp, type TestSmtp } from '../test/smtp.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { enqueueMail, type OutgoingMail } from './outbox.js';
import { retryDelay } from './sender.js';

/**
 * The sender against a real SMTP server (smtp-server, every message parsed by mailparser), on a
 * real database: what is committed goes out once, what is rolled back never, a server down then
 * up gets the message once it is back, two servers on one database send each message once.
 * Timings are short (config.mailTiming) so retries take milliseconds.
 */
const TIMING = { pollMs: 150, retryBaseMs: 60, retryCapMs: 240, maxAttempts: 4, claimLeaseMs: 4000, batchSize: 5 };

let smtp: TestSmtp;
let t: TestApp;
const db = () => t.database.db;

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await buildTestApp({ smtpUrl: smtp.url, mailTiming: TIMING });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const reset = (to: string, extra: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to,
  template: 'passwordReset',
  locale: 'en',
  values: { name: 'Grace', link: `https://mustard.example/auth/password/reset?token=${encodeURIComponent(to)}` },
  ...extra,
});

/** Enqueues in one committed transaction, then wakes the sender, as a caller does. */
async function enqueueCommitted(...mails: OutgoingMail[]): Promise<void> {
  await db()
    .transaction()
    .execute(async (trx) => {
      for (const mail of mails) await enqueueMail(trx, mail);
    });
  t.app.mail.wake();
}

const rowTo = (to: string) => db().selectFrom('mail_outbox').selectAll().where('recipient', '=', to).executeTakeFirstOrThrow();

/** Polls until `check` answers true (the sender works in the background). */
async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the outbox did not get there in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const copiesOf = (messageId: string) => smtp.messages.filter((mail) => mail.messageId === messageId).length;

describe('the sender, with a real SMTP server', () => {
  it('delivers a message committed with its action: subject, text, HTML, attachment bytes, From and Message-ID', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 250, 251, 255]), Buffer.from('\n%%EOF\n')]);
    await enqueueCommitted({
      to: 'guardian@example.com',
      template: 'reportCard',
      locale: 'it',
      values: { learner: 'Amina Nansubuga', school: 'Gulu <Primary>', term: 'II', year: '2026' },
      attachments: [{ filename: 'Amina Nansubuga.pdf', contentType: 'application/pdf', content: pdf }],
    });
    const mail = await smtp.waitFor((m) => m.to === 'guardian@example.com');
    expect(mail.subject).toBe('Pagella da Gulu <Primary>: trimestre II, 2026');
    expect(mail.text).toContain('Amina Nansubuga');
    expect(mail.html).toContain('Gulu &lt;Primary&gt;');
    expect(mail.from?.value).toEqual([{ name: 'Mustard', address: 'no-reply@mustard.test' }]);
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([['Amina Nansubuga.pdf', 'application/pdf']]);
    expect(Buffer.compare(mail.attachments[0]?.content as Buffer, pdf)).toBe(0);
    await until(async () => (await rowTo('guardian@example.com')).status === 'sent');
    const row = await rowTo('guardian@example.com');
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(mail.messageId).toBe(row.message_id);
    expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@mustard\.test>$/);
  });

  it('sends nothing for a transaction that rolled back', async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await enqueueMail(trx, reset('rolled-back@example.com'));
          throw new Error('the registration failed');
        }),
    ).rejects.toThrow('the registration failed');
    t.app.mail.wake();
    // A message committed after it goes out; by then the first would have, had it been kept.
    await enqueueCommitted(reset('after-rollback@example.com'));
    await smtp.waitFor((m) => m.to === 'after-rollback@example.com');
    await t.app.mail.drain();
    expect(smtp.messages.filter((m) => m.to === 'rolled-back@example.com')).toEqual([]);
    expect(await db().selectFrom('mail_outbox').select('id').where('recipient', '=', 'rolled-back@example.com').execute()).toEqual([]);
  });

  it('sends a message enqueued twice with one dedupe key once', async () => {
    await enqueueCommitted(reset('dedupe@example.com', { dedupeKey: 'card:2026:II:learner-1' }));
    await enqueueCommitted(reset('dedupe@example.com', { dedupeKey: 'card:2026:II:learner-1' }));
    await smtp.waitFor((m) => m.to === 'dedupe@example.com');
    await t.app.mail.drain();
    expect(smtp.messages.filter((m) => m.to === 'dedupe@example.com')).toHaveLength(1);
  });

  it('keeps the message while the mail server is down, counting attempts, and sends it once when it is back', async () => {
    await smtp.stop();
    try {
      // The action commits whatever the mail server does: enqueueing never talks to it.
      await enqueueCommitted(reset('while-down@example.com'));
      await until(async () => (await rowTo('while-down@example.com')).attempts >= 2);
      const waiting = await rowTo('while-down@example.com');
      expect(waiting.status).toMatch(/^(pending|sending)$/);
      expect(waiting.last_error).toMatch(/ECONNECTION|ESOCKET|ECONNREFUSED/);
    } finally {
      await smtp.start();
    }
    const mail = await smtp.waitFor((m) => m.to === 'while-down@example.com');
    await until(async () => (await rowTo('while-down@example.com')).status === 'sent');
    await t.app.mail.drain();
    const row = await rowTo('while-down@example.com');
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(row.last_error).toBeNull();
    expect(mail.messageId).toBe(row.message_id);
    expect(copiesOf(row.message_id as string)).toBe(1);
  });

  it('retries a temporary refusal with backoff, then marks it failed with the last error after the last attempt', async () => {
    smtp.refuse(451);
    try {
      await enqueueCommitted(reset('always-busy@example.com'));
      await until(async () => (await rowTo('always-busy@example.com')).status === 'failed');
    } finally {
      smtp.refuse(null);
    }
    const row = await rowTo('always-busy@example.com');
    expect(row.attempts).toBe(TIMING.maxAttempts);
    expect(row.last_error).toMatch(/451/);
    // Failed is final: the next rounds leave it.
    await t.app.mail.drain();
    expect((await rowTo('always-busy@example.com')).attempts).toBe(TIMING.maxAttempts);
    expect(smtp.messages.filter((m) => m.to === 'always-busy@example.com')).toEqual([]);
  });

  it('gives up at once on a permanent refusal of the message (5xx)', async () => {
    smtp.refuse(554);
    try {
      await enqueueCommitted(reset('refused@example.com'));
      await until(async () => (await rowTo('refused@example.com')).status === 'failed');
    } finally {
      smtp.refuse(null);
    }
    expect(await rowTo('refused@example.com')).toMatchObject({ attempts: 1, last_error: expect.stringMatching(/554/) });
  });

  it('retries a claim whose sender died mid-send, with the same Message-ID; leaves a live claim alone', async () => {
    await db()
      .transaction()
      .execute(async (trx) => {
        await enqueueMail(trx, reset('stale-claim@example.com'));
        await enqueueMail(trx, reset('live-claim@example.com'));
      });
    // As a sender leaves them: claimed (attempt counted, Message-ID made), the lease over for one.
    await db()
      .updateTable('mail_outbox')
      .set({
        status: 'sending',
        attempts: 1,
        message_id: '<dead-sender-1@mustard.test>',
        next_attempt_at: sql<Date>`now() - interval '1 second'`,
      })
      .where('recipient', '=', 'stale-claim@example.com')
      .execute();
    await db()
      .updateTable('mail_outbox')
      .set({
        status: 'sending',
        attempts: 1,
        message_id: '<live-sender-1@mustard.test>',
        next_attempt_at: sql<Date>`now() + interval '1 hour'`,
      })
      .where('recipient', '=', 'live-claim@example.com')
      .execute();
    t.app.mail.wake();
    const mail = await smtp.waitFor((m) => m.to === 'stale-claim@example.com');
    expect(mail.messageId).toBe('<dead-sender-1@mustard.test>');
    await until(async () => (await rowTo('stale-claim@example.com')).status === 'sent');
    expect((await rowTo('stale-claim@example.com')).attempts).toBe(2);
    await t.app.mail.drain();
    expect(smtp.messages.filter((m) => m.to === 'live-claim@example.com')).toEqual([]);
    expect((await rowTo('live-claim@example.com')).status).toBe('sending');
  });

  it('sends what is due without a wake-up, at the next poll', async () => {
    await db()
      .transaction()
      .execute((trx) => enqueueMail(trx, reset('polled@example.com')));
    await smtp.waitFor((m) => m.to === 'polled@example.com', 3000);
  });

  it('two servers on one database send each message once', async () => {
    // A second app on the same database: on PostgreSQL through its own connections, as a second
    // server would; the embedded database has one connection, shared.
    const appUrl = t.database.appUrl;
    const second: Database = appUrl
      ? await openDatabase({ dataDir: '', databaseUrl: appUrl, databaseMigrateUrl: undefined }, { migrate: false, listen: false })
      : t.database;
    const other = await buildApp({ ...t.config }, second, { logger: false });
    try {
      const recipients = Array.from({ length: 30 }, (_, index) => `pair-${index}@example.com`);
      await enqueueCommitted(...recipients.map((to) => reset(to)));
      other.mail.wake();
      await Promise.all(recipients.map((to) => smtp.waitFor((m) => m.to === to)));
      await Promise.all([t.app.mail.drain(), other.mail.drain()]);
      const received = smtp.messages.filter((m) => m.to.startsWith('pair-'));
      expect(received).toHaveLength(30);
      expect(new Set(received.map((m) => m.messageId)).size).toBe(30);
      const rows = await db().selectFrom('mail_outbox').select(['status', 'attempts']).where('recipient', 'like', 'pair-%').execute();
      expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    } finally {
      await other.close();
      if (second !== t.database) await second.close();
    }
  });
});

describe('stopping', () => {
  it('does not wait out a mail server that hangs: the send is cut, recorded, and tried again later', async () => {
    // A server that takes the connection and never greets, as a hung mail server does.
    const sockets: Socket[] = [];
    const hung = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const url = `smtp://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    // A long lease, so the SMTP timeouts (a quarter of it) are far longer than the wait at stop.
    const own = await buildTestApp({ smtpUrl: url, mailTiming: { ...TIMING, claimLeaseMs: 120_000 } });
    try {
      await own.database.db.transaction().execute((trx) => enqueueMail(trx, reset('hung@example.com')));
      own.app.mail.wake();
      await until(async () => sockets.length > 0);
      const started = Date.now();
      await own.app.close();
      // With a Redis the job worker beside the app sends (jobs/mail.ts): stopping it cuts the send alike.
      await own.worker?.close();
      expect(Date.now() - started).toBeLessThan(4000);
      const row = await own.database.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.last_error).toBeTruthy();
    } finally {
      await own.close().catch(() => {});
      for (const socket of sockets) socket.destroy();
      hung.close();
    }
  });
});

describe('the backoff', () => {
  it('doubles per attempt up to the cap', () => {
    const timing = { retryBaseMs: 30_000, retryCapMs: 3_600_000 };
    expect([1, 2, 3, 4, 8, 20].map((attempts) => retryDelay(attempts, timing))).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000,
    ]);
  });
});
