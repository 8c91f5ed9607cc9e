import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { MailSender } from '../mail/sender.js';
import { connectRedis } from '../redis/connection.js';
import { MAIL_QUEUE } from './queues.js';

/*
 * The mail outbox's sending as jobs (issue 30), when REDIS_URL is set: app servers run no sender
 * of their own; `app.mail.wake()` adds a "send" job to the mail queue and the job workers run
 * the sender's round (mail/sender.ts). Each worker also keeps the sender's poll, for retries and
 * for a wake that was lost (Redis away a moment): every message still goes within the poll.
 *
 * Never one message twice: the round claims its rows in PostgreSQL (FOR UPDATE SKIP LOCKED, a
 * lease), so two workers' rounds at once, or a round run again after a job's retry, never take
 * the same message; a job carries nothing but "send what is due".
 *
 * Every wake is a job of its own, run one at a time: a round that begins after the wake's commit
 * always follows it. (Wake-ups once shared a job id a quarter-second long, to make a burst one job;
 * but a wake made while that job's round was under way, its rows already read, was then dropped,
 * and its message waited for the poll.) A wake comes once a committed action, not once a message
 * (a class's cards by e-mail are one), and a round with nothing due is one query. `drain()` adds a
 * job of its own and waits for it: it resolves once a round that began after the call has run.
 */
/** How long `drain()` waits for its round at most. */
const DRAIN_WAIT_MS = 30_000;

type Log = { warn(obj: object, message: string): void; error(obj: object, message: string): void };

/** The app server's `app.mail` with Redis: wakes and drains through the mail queue; sends nothing itself. */
export function queuedMailSender(options: { redisUrl: string; prefix: string; log: Log }): MailSender {
  let queue: Queue | null = null;
  let events: QueueEvents | null = null;
  let connection: Redis | null = null;
  let stopped = false;
  const started = () => {
    if (!connection) {
      connection = connectRedis(options.redisUrl, { name: 'app-mail', forQueues: true });
      connection.on('error', () => undefined);
    }
    if (!queue) {
      queue = new Queue(MAIL_QUEUE, { connection, prefix: options.prefix });
      queue.on('error', () => undefined);
    }
    return { queue, connection };
  };
  return {
    sends: true,
    wake() {
      if (stopped) return;
      started()
        .queue.add('send', {}, { jobId: `wake-${randomUUID()}`, removeOnComplete: true, removeOnFail: true })
        .catch((error: unknown) =>
          options.log.warn({ err: error }, 'mail: the wake-up could not be queued; the workers send at their next poll'),
        );
    },
    async drain() {
      if (stopped) return;
      const { queue: mail, connection: shared } = started();
      if (!events) {
        events = new QueueEvents(MAIL_QUEUE, { connection: shared, prefix: options.prefix });
        events.on('error', () => undefined);
      }
      const job = await mail.add('send', {}, { jobId: `drain-${randomUUID()}`, removeOnComplete: { age: 60 }, removeOnFail: { age: 60 } });
      await job.waitUntilFinished(events, DRAIN_WAIT_MS);
    },
    async stop() {
      stopped = true;
      await events?.close().catch(() => undefined);
      await queue?.close().catch(() => undefined);
      const closing = connection;
      await closing?.quit().catch(() => closing.disconnect());
    },
  };
}

/**
 * A worker's side: runs the sender's round (`sender.drain()`) for each job of the mail queue, one
 * at a time; the sender's own poll goes on beside. `close()` stops the sender (a round in flight
 * gets its moment, a hung mail server is cut), then the queue's worker.
 */
export function mailWorker(sender: MailSender, config: Pick<Config, 'redisPrefix'>, connection: Redis, log: Log) {
  const worker = new Worker(MAIL_QUEUE, () => sender.drain(), { connection, prefix: config.redisPrefix, concurrency: 1 });
  worker.on('failed', (job, error) =>
    log.error({ job: job?.id, err: error }, 'mail: a sending round failed; the outbox keeps the messages'),
  );
  worker.on('error', () => undefined);
  return {
    close: async (force = false) => {
      await sender.stop();
      await worker.close(force);
    },
  };
}
