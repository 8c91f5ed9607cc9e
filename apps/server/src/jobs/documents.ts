import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { REPORT_MESSAGES } from '@mustard/shared';
import { type Job, Queue, QueueEvents, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DocumentProgress, DrawerAddress } from '../documents/drawers.js';
import { renderDocument } from '../documents/pool.js';
import { DOCUMENTS_RETRY_AFTER_SECONDS, type RetryLater } from '../documents/queue.js';
import { AppError } from '../errors.js';
import { connectRedis, redisKey } from '../redis/connection.js';
import { DOCUMENT_JOB_OPTIONS, DOCUMENTS_QUEUE } from './queues.js';

/*
 * Documents as BullMQ jobs (issue 30), when REDIS_URL is set: an app server admits a document
 * (documents/shared-admission.ts), reads its data, then adds a job naming the drawer and carrying
 * the input, and waits; a worker process (worker-process.ts) draws it in its own pool of threads
 * (documents/pool.ts) and the app server answers the PDF.
 *
 * - The job names its drawer by its file under the server's sources and its export, never by a
 *   URL: a worker loads only a drawer of its own sources (`drawerOfJob` refuses anything else),
 *   wherever each machine keeps them; Redis is trusted with work, never with which code runs.
 * - The input crosses as `v8.serialize` in base64: it carries photos (bytes), Maps and Dates,
 *   which JSON would break. The school rides along for fairness and the logs only: a worker
 *   authorizes nothing, it draws what it is given.
 * - Fair between schools: a job's priority is its document's place among its school's admitted
 *   ones (`documentPriority`: a school's first document 1, its second 2, …), first in first out
 *   within a priority. So another school's single card goes before a school's second class.
 * - The result is stored once: the worker writes the PDF to `<prefix>:document:<jobId>` with SET
 *   NX (ten minutes) and returns only its length and who drew it; a job retried after its
 *   worker's death draws again, but the first result stays the one. The app server takes it with
 *   GETDEL. (A PDF in the job's return value would also cross the queue's event stream.)
 * - Progress: the worker reports `{ done, total }` a few times a second; the app server hears it
 *   through one QueueEvents and writes it where every server reads it (documents/progress.ts).
 * - Waiting is bounded by REQUEST_TIMEOUT_SECONDS: past it the job is withdrawn if not started
 *   and the request answers 503 with Retry-After; a job that failed answers 500, logged.
 */

/** How long a drawn PDF waits in Redis for its app server to take it. */
export const DOCUMENT_RESULT_TTL_MS = 10 * 60_000;
/** How often at most a worker reports a document's progress. */
export const PROGRESS_EVERY_MS = 250;
/** How long adding a job may take before the request is refused (Redis gone since the admission). */
const ADD_WAIT_MS = 5000;
/** BullMQ's highest priority number (the lowest priority). */
const LOWEST_PRIORITY = 2 ** 21;

/** What a document job carries. */
export interface DocumentJobData {
  /** The drawer: its file under the server's sources without extension, and its export. */
  drawer: { file: string; name: string };
  /** The school whose document it is: for fairness and the logs, never for authorization. */
  school: string;
  /** The drawer's input, `v8.serialize`d, in base64. */
  input: string;
  /** Whether the app server listens to the document's progress. */
  progress: boolean;
}

/** What a document job returns: the PDF's length (the PDF is at `documentResultKey`) and the worker that drew it. */
export interface DocumentJobResult {
  bytes: number;
  worker: string;
}

/** The priority of a document by its place among its school's admitted documents: the first 1, the second 2, … */
export function documentPriority(place: number): number {
  if (!Number.isFinite(place) || place < 1) return 1;
  return Math.min(Math.floor(place), LOWEST_PRIORITY);
}

/** Where a drawn document's PDF waits for its app server. */
export function documentResultKey(prefix: string, jobId: string): string {
  return redisKey(prefix, 'document', jobId);
}

/** Which worker drew each recent document job (job id -> worker id), kept an hour: what the topology test reads. */
export function documentWorkersKey(prefix: string): string {
  return redisKey(prefix, 'document-workers');
}
const WORKERS_KEPT_MS = 60 * 60_000;
/** At most this many jobs in that record: a busy week, which never leaves it idle an hour, does not grow it without end. */
export const DOCUMENT_WORKERS_KEPT = 10_000;

/**
 * KEYS: the result's key, the record of who drew. ARGV: the PDF, its time to live, the job, the
 * worker, the record's bound and its time to live. The PDF is written only if none is there (NX);
 * a record at its bound starts again.
 */
const STORE_RESULT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX')
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[5]) then redis.call('DEL', KEYS[2]) end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 1
`;

/** The server's sources (or its build): where drawers' files are named from. */
const SOURCES = new URL('../', import.meta.url);
/** The extension of the sources this process runs: `.ts` from the sources (tsx, vitest), `.js` beside a build. */
const EXTENSION = fileURLToPath(import.meta.url).endsWith('.ts') ? '.ts' : '.js';
const DRAWER_FILE = /^[a-z0-9_-]+(\/[a-z0-9_.-]+)*$/i;
const DRAWER_NAME = /^draw[A-Za-z0-9_]*$/;

/** A drawer's address as a job names it: its file under the sources, without extension. */
export function drawerOfAddress(drawer: DrawerAddress<unknown>): DocumentJobData['drawer'] {
  const module = new URL(drawer.module);
  if (!module.href.startsWith(SOURCES.href)) throw new Error(`The drawer ${drawer.module} is not one of the server's sources`);
  const file = module.href.slice(SOURCES.href.length).replace(/\.(ts|js)$/, '');
  return { file: decodeURIComponent(file), name: drawer.name };
}

/** The drawer a job names, in this process's sources; anything else (a path out of them, a URL, not a drawer's name) refused. */
export function drawerOfJob(named: unknown): DrawerAddress<unknown> {
  const { file, name } = (named ?? {}) as { file?: unknown; name?: unknown };
  if (typeof file !== 'string' || typeof name !== 'string' || !DRAWER_FILE.test(file) || !DRAWER_NAME.test(name)) {
    throw new UnrecoverableError('The job names no drawer of the server');
  }
  if (file.split('/').some((part) => part === '.' || part === '..')) throw new UnrecoverableError('The job names no drawer of the server');
  const module = new URL(`${file}${EXTENSION}`, SOURCES);
  if (!module.href.startsWith(SOURCES.href)) throw new UnrecoverableError('The job names no drawer of the server');
  return { module: module.href, name };
}

export const serializeInput = (input: unknown): string => v8.serialize(input).toString('base64');
export const deserializeInput = (input: string): unknown => v8.deserialize(Buffer.from(input, 'base64'));

/** What a worker reports of a job's progress: at most every PROGRESS_EVERY_MS, and the last value before the job ends. */
function throttledProgress(job: Pick<Job, 'updateProgress'>, now: () => number = Date.now) {
  let latest: { done: number; total: number } | null = null;
  let sent: { done: number; total: number } | null = null;
  let lastSent = 0;
  let sending: Promise<void> | null = null;
  const send = (value: { done: number; total: number }) => {
    lastSent = now();
    sent = value;
    // A progress report lost costs a stale count on screen, never the document.
    sending = job
      .updateProgress(value)
      .catch(() => undefined)
      .finally(() => {
        sending = null;
      });
  };
  return {
    report: (done: number, total: number) => {
      latest = { done, total };
      if (!sending && now() - lastSent >= PROGRESS_EVERY_MS) send(latest);
    },
    flush: async () => {
      while (sending) await sending;
      if (latest && latest !== sent) send(latest);
      while (sending) await sending;
    },
  };
}

export interface DocumentWorkerContext {
  /** The worker's Redis (results are written there). */
  redis: Redis;
  prefix: string;
  /** Who draws: hostname:pid. */
  workerId: string;
}

/**
 * Draws one document job (the worker's processor): the drawer its job names, in this process's
 * pool; the PDF stored once at `documentResultKey` (NX: a retried job's second drawing is
 * dropped); answers its length and the worker. A drawer's own failure is not retried (it would
 * fail the same way); a failure to store is.
 */
export async function drawDocumentJob(
  job: Pick<Job<DocumentJobData>, 'id' | 'data' | 'updateProgress'>,
  context: DocumentWorkerContext,
): Promise<DocumentJobResult> {
  if (!job.id) throw new UnrecoverableError('A document job without an id');
  const drawer = drawerOfJob(job.data.drawer);
  let input: unknown;
  try {
    input = deserializeInput(job.data.input);
  } catch {
    throw new UnrecoverableError("The job's input cannot be read");
  }
  const progress = job.data.progress ? throttledProgress(job) : null;
  let pdf: Buffer;
  try {
    pdf = await renderDocument(drawer, input, progress?.report);
  } catch (error) {
    throw new UnrecoverableError(`The document could not be drawn: ${error instanceof Error ? error.message : String(error)}`);
  }
  await progress?.flush();
  await context.redis.eval(
    STORE_RESULT,
    2,
    documentResultKey(context.prefix, job.id),
    documentWorkersKey(context.prefix),
    pdf,
    DOCUMENT_RESULT_TTL_MS,
    job.id,
    context.workerId,
    DOCUMENT_WORKERS_KEPT,
    WORKERS_KEPT_MS,
  );
  return { bytes: pdf.byteLength, worker: context.workerId };
}

type Log = { error(obj: unknown, message: string): void };

/** The app server's side: adds document jobs and waits for them. One per app; its queue and listener made on first use. */
export class DocumentJobs {
  private queue: Queue<DocumentJobData, DocumentJobResult> | null = null;
  private events: QueueEvents | null = null;
  private connection: Redis | null = null;
  /** The progress listener of each job this server waits for. */
  private readonly listening = new Map<string, DocumentProgress>();

  constructor(
    private readonly options: {
      redisUrl: string;
      prefix: string;
      /** The app's fail-fast Redis: the results are taken with it. */
      redis: Redis;
      /** How long a request waits for its document (REQUEST_TIMEOUT_SECONDS). */
      waitMs: number;
      log: Log;
    },
  ) {}

  private started() {
    if (this.queue && this.events) return { queue: this.queue, events: this.events };
    this.connection = connectRedis(this.options.redisUrl, { name: 'app-jobs', forQueues: true });
    // Errors are the connection's going away, logged once by the app's own client; BullMQ reconnects.
    this.connection.on('error', () => undefined);
    const queue = new Queue<DocumentJobData, DocumentJobResult>(DOCUMENTS_QUEUE, {
      connection: this.connection,
      prefix: this.options.prefix,
      defaultJobOptions: DOCUMENT_JOB_OPTIONS,
    });
    queue.on('error', () => undefined);
    // Read from the moment it is made (less 5 s for a clock apart from Redis's; older events name
    // no job listened to), not from whenever its first read reaches Redis: the first document
    // after a start would otherwise lose the progress its worker reports meanwhile.
    const events = new QueueEvents(DOCUMENTS_QUEUE, {
      connection: this.connection,
      prefix: this.options.prefix,
      lastEventId: `${Date.now() - 5000}-0`,
    });
    events.on('error', () => undefined);
    events.on('progress', ({ jobId, data }) => {
      const listener = this.listening.get(jobId);
      const value = data as { done?: unknown; total?: unknown };
      if (listener && typeof value?.done === 'number' && typeof value.total === 'number') listener(value.done, value.total);
    });
    this.queue = queue;
    this.events = events;
    return { queue, events };
  }

  /**
   * Has the document drawn by a worker and answers its PDF. `place` is the document's place among
   * its school's admitted ones (its priority). Past the wait: 503 with Retry-After on `reply`.
   */
  async draw<Input>(
    job: { school: string; place: number; reply: RetryLater },
    drawer: DrawerAddress<Input>,
    input: Input,
    onProgress?: DocumentProgress,
  ): Promise<Buffer> {
    const { queue, events } = this.started();
    const data: DocumentJobData = {
      drawer: drawerOfAddress(drawer),
      school: job.school,
      input: serializeInput(input),
      progress: Boolean(onProgress),
    };
    const jobId = randomUUID();
    if (onProgress) {
      // A job retried after its worker died is drawn again from its first piece: the count on
      // screen holds where it was rather than going back.
      let most = 0;
      this.listening.set(jobId, (done, total) => {
        most = Math.max(most, done);
        onProgress(most, total);
      });
    }
    try {
      const added = await withTimeout(
        queue.add('draw', data, { jobId, priority: documentPriority(job.place) }),
        // Redis away after the admission: refused soon, not after the whole wait.
        Math.min(this.options.waitMs, ADD_WAIT_MS),
        () => this.busy(job.reply),
      );
      try {
        await added.waitUntilFinished(events, this.options.waitMs);
      } catch (error) {
        if (error instanceof Error && /timed out before finishing/.test(error.message)) {
          // Not started yet: withdrawn, so no worker draws what nobody waits for (one started runs out).
          await added.remove().catch(() => undefined);
          throw this.busy(job.reply);
        }
        throw new Error(`The document job ${jobId} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      const pdf = await this.options.redis.getdelBuffer(documentResultKey(this.options.prefix, jobId));
      if (!pdf) throw new Error(`The document job ${jobId} finished but its PDF is not in Redis`);
      return pdf;
    } finally {
      this.listening.delete(jobId);
    }
  }

  private busy(reply: RetryLater): AppError {
    reply.header('retry-after', String(DOCUMENTS_RETRY_AFTER_SECONDS));
    return new AppError(503, REPORT_MESSAGES.documentsBusy);
  }

  /** Stops listening and closes the queue (app close); a wait in flight ends with an error. */
  async close(): Promise<void> {
    const { queue, events, connection } = this;
    this.queue = null;
    this.events = null;
    this.connection = null;
    await events?.close().catch(() => undefined);
    await queue?.close().catch(() => undefined);
    await connection?.quit().catch(() => connection.disconnect());
  }
}

/** `work`, or `refusal()` thrown if it has not settled within `ms`. */
async function withTimeout<T>(work: Promise<T>, ms: number, refusal: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(refusal()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
