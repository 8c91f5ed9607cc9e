import type { JobsOptions, WorkerOptions } from 'bullmq';
import type { Config } from '../config.js';

/*
 * The installation's job queues on Redis (BullMQ; issue 30), when REDIS_URL is set: app servers
 * add jobs, worker processes (`npm run mustard -- worker`, worker-process.ts) run them. Every
 * queue lives under REDIS_PREFIX (BullMQ's own `prefix`), so installations and test runs that
 * share one Redis never see each other's jobs.
 *
 *   documents  one PDF drawn (a class's cards, a mark sheet, one learner's card to e-mail):
 *              jobs/documents.ts
 *   mail       "send what the outbox has due" (mail/sender.ts): jobs/mail.ts
 */

export const DOCUMENTS_QUEUE = 'documents';
export const MAIL_QUEUE = 'mail';

/** Attempts of a job that fails outside its drawing (a drawer's own error is not retried: it would fail alike). */
export const DOCUMENT_JOB_ATTEMPTS = 3;
/** The wait before the second attempt; doubled before the third. */
export const DOCUMENT_JOB_BACKOFF_MS = 1000;

/**
 * How a document job is kept: tried up to three times, a second then two apart; once done, gone
 * within a minute (its input, photos and all, is not kept: the result has its own key and the
 * app server took it), failed ones kept a day for whoever looks, few of either.
 */
export const DOCUMENT_JOB_OPTIONS = {
  attempts: DOCUMENT_JOB_ATTEMPTS,
  backoff: { type: 'exponential', delay: DOCUMENT_JOB_BACKOFF_MS },
  removeOnComplete: { age: 60, count: 50 },
  removeOnFail: { age: 24 * 3600, count: 100 },
} as const satisfies JobsOptions;

/** The waits before each retry of a job failing every time, by BullMQ's exponential rule (2^(n-1) × delay). */
export function retryDelays(options: { attempts: number; backoff: { delay: number } } = DOCUMENT_JOB_OPTIONS): number[] {
  return Array.from({ length: options.attempts - 1 }, (_, index) => 2 ** index * options.backoff.delay);
}

/**
 * How long a worker holds a job before another may take it (JOB_LOCK_SECONDS): a live worker
 * renews its lock (every half of it); a worker killed mid-job stops renewing, and about
 * JOB_LOCK_SECONDS later another worker's check for stalled jobs (every half of it) puts the job
 * back in the queue. A job stalled more than twice (it kills its workers) fails instead.
 */
export function jobLockOptions(
  config: Pick<Config, 'jobLockSeconds'>,
): Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'> {
  const lockDuration = Math.round(config.jobLockSeconds * 1000);
  return { lockDuration, stalledInterval: Math.max(1000, Math.round(lockDuration / 2)), maxStalledCount: 2 };
}
