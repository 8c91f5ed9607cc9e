import { hostname } from 'node:os';
import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Database } from '../db/connect.js';
import { DOCUMENT_TASKS_PER_THREAD, DOCUMENT_THREADS } from '../documents/pool.js';
import { createMailSender } from '../mail/sender.js';
import { connectRedis, redisReady } from '../redis/connection.js';
import { type DocumentJobData, type DocumentJobResult, drawDocumentJob } from './documents.js';
import { mailWorker } from './mail.js';
import { DOCUMENTS_QUEUE, jobLockOptions } from './queues.js';

/*
 * A job worker (issue 30): `npm run mustard -- worker` runs one per process, on any machine that
 * shares the installation's database and Redis; `buildTestApp` runs one beside a test app that
 * has a Redis. It takes document jobs (jobs/documents.ts) and draws them in its own pool of
 * threads, as many at once as the pool draws (threads × documents a thread draws in turns), and
 * sends the mail outbox (jobs/mail.ts: a round per wake-up, and the sender's poll for retries).
 *
 * - At start it checks Redis and the database, and refuses to start (a one-line reason) when
 *   either does not answer: its supervisor restarts it until they do.
 * - Each job it finishes is logged at info with its id, the school and who drew it (hostname:pid).
 * - A worker killed mid-job stops renewing its job's lock; about JOB_LOCK_SECONDS later another
 *   worker takes the job again (queues.ts, `jobLockOptions`).
 * - `close()` stops taking jobs and lets those in hand finish within `graceMs`; past it they are
 *   handed back (their locks lapse and another worker takes them).
 */

export interface JobWorker {
  /** hostname:pid, as the logs and the jobs' results name it. */
  readonly id: string;
  close(): Promise<void>;
}

interface Log {
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

/** Why a worker does not start: told in one line, the process exits 1. */
export class WorkerStartError extends Error {}

/** How long a worker being stopped lets its jobs finish before handing them back. */
export const WORKER_GRACE_MS = 20_000;

export async function startJobWorker(
  config: Pick<Config, 'redisUrl' | 'redisPrefix' | 'jobLockSeconds' | 'smtpUrl' | 'mailFrom' | 'mailTiming'>,
  database: Pick<Database, 'ping' | 'db'>,
  log: Log,
  options: { graceMs?: number; id?: string } = {},
): Promise<JobWorker> {
  if (!config.redisUrl) throw new WorkerStartError('A worker needs REDIS_URL: the queues it takes jobs from are in Redis.');
  const id = options.id ?? `${hostname()}:${process.pid}`;
  const connection = connectRedis(config.redisUrl, { name: 'worker', forQueues: true });
  // Redis going away is logged once, coming back once; BullMQ waits for it meanwhile.
  let away = false;
  connection.on('error', (error: Error) => {
    if (away) return;
    away = true;
    log.error({ err: error, worker: id }, 'Redis is not reachable: the worker waits for it');
  });
  connection.on('ready', () => {
    if (away) log.info({ worker: id }, 'Redis is reachable again');
    away = false;
  });
  try {
    await redisReady(connection, 5000);
  } catch {
    connection.disconnect();
    throw new WorkerStartError(`The worker cannot reach Redis at ${redisHost(config.redisUrl)}.`);
  }
  try {
    await database.ping();
  } catch (error) {
    await connection.quit().catch(() => connection.disconnect());
    throw new WorkerStartError(`The worker cannot reach the database: ${error instanceof Error ? error.message : String(error)}.`);
  }

  const documents = documentWorker(config, connection, id, log);
  // The outbox's sender, polling for retries, and running a round for each job of the mail queue.
  const mail = mailWorker(createMailSender(database.db, config, log), config, connection, log);
  log.info({ worker: id, concurrency: documents.concurrency, mail: Boolean(config.smtpUrl) }, `job worker ${id} started`);

  let closing: Promise<void> | null = null;
  return {
    id,
    close: () => {
      closing ??= (async () => {
        const graceMs = options.graceMs ?? WORKER_GRACE_MS;
        let timer: NodeJS.Timeout | undefined;
        const finished = Promise.all([documents.close(), mail.close()]).then(() => true);
        const inTime = await Promise.race([finished, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))]);
        clearTimeout(timer);
        if (!inTime) {
          log.error({ worker: id }, 'jobs still in hand after the grace period: handed back to the queue');
          await Promise.all([documents.close(true), mail.close(true)]).catch(() => undefined);
        }
        await connection.quit().catch(() => connection.disconnect());
        log.info({ worker: id }, `job worker ${id} stopped`);
      })();
      return closing;
    },
  };
}

function documentWorker(config: Pick<Config, 'redisPrefix' | 'jobLockSeconds'>, connection: Redis, id: string, log: Log) {
  const worker = new Worker<DocumentJobData, DocumentJobResult>(
    DOCUMENTS_QUEUE,
    (job: Job<DocumentJobData, DocumentJobResult>) => drawDocumentJob(job, { redis: connection, prefix: config.redisPrefix, workerId: id }),
    {
      connection,
      prefix: config.redisPrefix,
      concurrency: DOCUMENT_THREADS * DOCUMENT_TASKS_PER_THREAD,
      ...jobLockOptions(config),
    },
  );
  worker.on('completed', (job, result) => {
    log.info({ worker: id, job: job.id, school: job.data.school, bytes: result.bytes }, 'document job done');
  });
  worker.on('failed', (job, error) => {
    log.error({ worker: id, job: job?.id, school: job?.data.school, err: error }, 'document job failed');
  });
  // Connection errors: logged once by the connection's own listener.
  worker.on('error', () => undefined);
  return worker;
}

/** `redis://user:secret@cache:6379/0` -> `cache:6379`: where, never the password. */
function redisHost(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return 'REDIS_URL';
  }
}
