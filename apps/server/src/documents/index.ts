import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { DocumentJobs } from '../jobs/documents.js';
import type { DrawInTurn } from './drawers.js';
import { DOCUMENT_TASKS_PER_THREAD, DOCUMENT_THREADS, renderDocument } from './pool.js';
import { DocumentProgressStore } from './progress.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentQueue, type RetryLater } from './queue.js';
import { ReadingTurns } from './reading.js';
import { SharedAdmission } from './shared-admission.js';

/*
 * Documents (issue 25 point 5; issue 30): every PDF the product makes goes through here.
 *
 *   queue.ts             admission (bounded per school and in all: 503 + Retry-After) and fair
 *                        turns, in this process
 *   shared-admission.ts  the same admission counted in Redis for every server (REDIS_URL)
 *   pool.ts              the one worker pool (threads bounded once for the process), `renderDocument`
 *   worker.ts            the pool's worker: loads the drawer a task names and draws
 *   drawers.ts           what a drawer is, and its address (`documentDrawer`), by which a kind names it
 *   pdf.ts               the one PDF set-up (page frame, fonts, metadata) every drawer starts from
 *   progress.ts          how far each document is, in the database (any server answers)
 *   ../jobs/documents.ts a document as a BullMQ job, drawn by a worker process (REDIS_URL)
 *
 * A route asks `app.documents.serve(school, reply, async (draw) => ...)`, reads its data, then
 * `draw(drawer, input, progress)` in its turn. Where it is drawn is decided here: without Redis in
 * this process (the queue's turns, the pool's threads), as on one machine; with Redis the app
 * server admits (in Redis), adds a job and waits, and a worker process draws: it never draws itself.
 */

export {
  type DocumentDrawer,
  type DocumentImages,
  type DocumentProgress,
  type DrawerAddress,
  type DrawInTurn,
  documentDrawer,
} from './drawers.js';
export { closeDocumentPool, DOCUMENT_TASKS_PER_THREAD, DOCUMENT_THREADS, documentThreads, renderDocument } from './pool.js';
export { DocumentProgressStore, type ProgressKey, type ProgressWriter } from './progress.js';
export { DEFAULT_DOCUMENT_LIMITS, DOCUMENTS_RETRY_AFTER_SECONDS, DocumentQueue, type RenderInTurn, type RetryLater } from './queue.js';

type Log = { error(obj: unknown, message: string): void };

/** Where the app's documents are drawn when the installation has a Redis. */
export interface SharedDocuments {
  redis: Redis;
  redisUrl: string;
  prefix: string;
  /** How long a request waits for its document (REQUEST_TIMEOUT_SECONDS), in ms. */
  waitMs: number;
}

/** The app's documents: where each is admitted and drawn, and the progress of those drawn. */
export class Documents {
  readonly progress: DocumentProgressStore;
  /** This process's queue (no Redis): admitted, waiting and drawn here. Null with Redis. */
  readonly queue: DocumentQueue | null;
  /** The installation's admissions in Redis, and its document jobs. Null without Redis. */
  readonly shared: { admission: SharedAdmission; jobs: DocumentJobs } | null;
  /** Admitted documents reading their data in this process, a few at a time. */
  readonly reads = new ReadingTurns();

  constructor(
    limits: { perSchool?: number | undefined; total?: number | undefined },
    db: Kysely<DB>,
    log: Log,
    shared: SharedDocuments | null = null,
  ) {
    const perSchool = limits.perSchool ?? DEFAULT_DOCUMENT_LIMITS.perSchool;
    const total = limits.total ?? DEFAULT_DOCUMENT_LIMITS.total;
    this.progress = new DocumentProgressStore(db, log);
    if (shared) {
      this.queue = null;
      this.shared = {
        admission: new SharedAdmission(shared.redis, shared.prefix, { perSchool, total }, log),
        jobs: new DocumentJobs({ redisUrl: shared.redisUrl, prefix: shared.prefix, redis: shared.redis, waitMs: shared.waitMs, log }),
      };
    } else {
      this.shared = null;
      this.queue = new DocumentQueue({
        drawing: DOCUMENT_THREADS * DOCUMENT_TASKS_PER_THREAD,
        drawingPerSchool: DOCUMENT_THREADS,
        perSchool,
        total,
      });
    }
  }

  /**
   * Admits one document of the school, then runs `work`, which reads what it needs and draws with
   * `draw` (as often as it needs: a class's cards once, each learner's card to e-mail once each);
   * the admission ends with `work`, however it ends. Beyond the bounds: 503 with Retry-After and a
   * catalogue message, and `work` never runs.
   */
  serve<T>(school: string, reply: RetryLater, work: (draw: DrawInTurn) => Promise<T>): Promise<T> {
    if (this.shared) {
      const { admission, jobs } = this.shared;
      return admission.serve(school, reply, ({ place }) =>
        this.readInTurn(work, (drawer, input, onProgress) => jobs.draw({ school, place, reply }, drawer, input, onProgress)),
      );
    }
    const queue = this.queue as DocumentQueue;
    return queue.serve(school, reply, (inTurn) =>
      this.readInTurn(work, (drawer, input, onProgress) => inTurn(() => renderDocument(drawer, input, onProgress))),
    );
  }

  /** Runs an admitted document's `work` in its reading turn (reading.ts), which passes on at its first draw or its end. */
  private async readInTurn<T>(work: (draw: DrawInTurn) => Promise<T>, draw: DrawInTurn): Promise<T> {
    const done = await this.reads.enter();
    try {
      return await work((drawer, input, onProgress) => {
        done();
        return draw(drawer, input, onProgress);
      });
    } finally {
      done();
    }
  }

  /** This process's queue: what is admitted, drawn and waiting (all 0 when idle, and with Redis). */
  counts() {
    return this.queue?.counts() ?? { admitted: 0, drawing: 0, waiting: 0, schools: 0 };
  }

  /** Stops listening to the document jobs (app close). */
  async close(): Promise<void> {
    await this.shared?.jobs.close();
  }
}
