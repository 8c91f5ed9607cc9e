import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { enqueueMail, type OutgoingMail } from '../mail/outbox.js';
import { startTestSmtp, type TestSmtp } from '../test/smtp.js';
import { testConfig } from '../test/test-app.js';
import { openTestDatabase, type TestDatabase } from '../test/test-database.js';
import { MAIL_QUEUE } from './queues.js';
import { type JobWorker, startJobWorker } from './worker-process.js';

/*
 * The mail outbox sent by job workers (issue 30), on the real Redis and PostgreSQL: an app server
 * with a Redis sends nothing itself, each wake-up is a job of its own (none dropped, even one made
 * while a round is under way), and two workers
 * running rounds at once send each message once.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const TIMING = { pollMs: 60_000, retryBaseMs: 60, retryCapMs: 240, maxAttempts: 4, claimLeaseMs: 4000, batchSize: 5 };
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let smtp: TestSmtp;
let database: TestDatabase;
let config: Config;
let app: FastifyInstance;
let redis: Redis;
let queue: Queue;
const workers: JobWorker[] = [];

const reset = (to: string): OutgoingMail => ({
  to,
  template: 'passwordReset',
  locale: 'en',
  values: { name: 'Grace', link: `https://mustard.example/auth/password/reset?token=${encodeURIComponent(to)}` },
});

async function enqueueCommitted(...mails: OutgoingMail[]) {
  await database.db.transaction().execute(async (trx) => {
    for (const mail of mails) await enqueueMail(trx, mail);
  });
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  database = await openTestDatabase();
  // A long poll: what is sent here is sent because of a wake-up's job.
  config = testConfig({ redisUrl: REDIS_URL, smtpUrl: smtp.url, mailTiming: TIMING });
  app = await buildApp(config, database, { logger: false });
  redis = new Redis(REDIS_URL);
  queue = new Queue(MAIL_QUEUE, { connection: redis, prefix: config.redisPrefix });
});

afterAll(async () => {
  for (const worker of workers) await worker.close();
  await app?.close();
  await queue?.close();
  if (redis) {
    const left = await redis.keys(`${config.redisPrefix}:*`);
    if (left.length > 0) await redis.del(...left);
    await redis.quit();
  }
  await database?.close();
  await smtp?.close();
});

describe.runIf(process.env.MUSTARD_TEST_DB === 'postgres')('the mail outbox on job workers', () => {
  it('is not sent by the app server: its wake-ups wait in the mail queue, a job each, until a worker sends', async () => {
    const recipients = Array.from({ length: 6 }, (_, index) => `burst-${index}@example.com`);
    await enqueueCommitted(...recipients.map(reset));
    for (let wake = 0; wake < 10; wake++) app.mail.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.filter((mail) => mail.to.startsWith('burst-'))).toEqual([]);
    const { waiting = 0 } = await queue.getJobCounts('waiting');
    // Ten wake-ups within a moment: ten jobs (a shared id once dropped a wake made during a round).
    expect(waiting).toBe(10);

    workers.push(await startJobWorker(config, database, quiet, { id: 'mail-worker-1' }));
    await Promise.all(recipients.map((to) => smtp.waitFor((mail) => mail.to === to)));
    // A round begun after the messages arrived: the one that sent them has recorded them.
    await app.mail.drain();
    const rows = await database.db.selectFrom('mail_outbox').select(['status']).where('recipient', 'like', 'burst-%').execute();
    expect(rows.map((row) => row.status)).toEqual(recipients.map(() => 'sent'));
  });

  it('sends each message once while two workers run rounds at once, and drains through the queue', async () => {
    workers.push(await startJobWorker(config, database, quiet, { id: 'mail-worker-2' }));
    const recipients = Array.from({ length: 24 }, (_, index) => `pair-${index}@example.com`);
    await enqueueCommitted(...recipients.map(reset));
    // Rounds on both workers at once: a drain job each, beside the wake-up.
    app.mail.wake();
    await Promise.all([app.mail.drain(), app.mail.drain(), app.mail.drain()]);
    await Promise.all(recipients.map((to) => smtp.waitFor((mail) => mail.to === to)));
    await app.mail.drain();
    const received = smtp.messages.filter((mail) => mail.to.startsWith('pair-'));
    expect(received).toHaveLength(24);
    expect(new Set(received.map((mail) => mail.messageId)).size).toBe(24);
    const rows = await database.db.selectFrom('mail_outbox').select(['status', 'attempts']).where('recipient', 'like', 'pair-%').execute();
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });
});
