import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { DOCUMENT_TASKS_PER_THREAD, DOCUMENT_THREADS } from './pool.js';
import { DocumentProgressStore } from './progress.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentQueue } from './queue.js';

/*
 * Documents (issue 25 point 5): every PDF the product makes goes through here.
 *
 *   queue.ts     admission (bounded per school and in all: 503 + Retry-After) and fair turns
 *   pool.ts      the one worker pool (threads bounded once for the process), `renderDocument`
 *   worker.ts    the pool's worker: loads the drawer a task names and draws
 *   drawers.ts   what a drawer is, and its address (`documentDrawer`), by which a kind names it
 *   pdf.ts       the one PDF set-up (page frame, fonts, metadata) every drawer starts from
 *   progress.ts  how far each document is, in the database (any server answers)
 *
 * A route asks `app.documents.serve(school, reply, async (draw) => ...)`, reads its data, then
 * `draw(() => renderDocument(drawer, input, progress))` in its turn.
 */

export { type DocumentDrawer, type DocumentImages, type DocumentProgress, type DrawerAddress, documentDrawer } from './drawers.js';
export { closeDocumentPool, DOCUMENT_TASKS_PER_THREAD, DOCUMENT_THREADS, documentThreads, renderDocument } from './pool.js';
export { DocumentProgressStore, type ProgressKey, type ProgressWriter } from './progress.js';
export { DEFAULT_DOCUMENT_LIMITS, DOCUMENTS_RETRY_AFTER_SECONDS, DocumentQueue, type DrawInTurn, type RetryLater } from './queue.js';

/** The app's documents: the queue every document is admitted by, and the progress of those drawn. */
export class Documents extends DocumentQueue {
  readonly progress: DocumentProgressStore;

  constructor(
    limits: { perSchool?: number | undefined; total?: number | undefined },
    db: Kysely<DB>,
    log: { error(obj: unknown, message: string): void },
  ) {
    super({
      drawing: DOCUMENT_THREADS * DOCUMENT_TASKS_PER_THREAD,
      drawingPerSchool: DOCUMENT_THREADS,
      perSchool: limits.perSchool ?? DEFAULT_DOCUMENT_LIMITS.perSchool,
      total: limits.total ?? DEFAULT_DOCUMENT_LIMITS.total,
    });
    this.progress = new DocumentProgressStore(db, log);
  }
}
