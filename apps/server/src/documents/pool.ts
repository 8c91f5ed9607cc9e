import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { DocumentProgress, DrawerAddress } from './drawers.js';
import type { DocumentTask, ProgressMessage } from './worker.js';

/*
 * The one pool of worker threads (piscina) drawing every kind of document (issue 25 point 5;
 * before, the report cards and the mark sheet had a pool each, which could start twice the
 * threads meant). A head teacher printing hundreds of cards never slows the requests of everyone
 * else.
 *
 * - Threads bounded once for the process: the machine's cores less one (the event loop keeps
 *   one), at least one, whatever kinds are drawn.
 * - Each thread draws up to DOCUMENT_TASKS_PER_THREAD documents at once, taking turns between
 *   their pages (a drawer yields every so many pieces): a school's single card drawn beside
 *   another school's class of 170 is not held behind it. The document queue (queue.ts) hands
 *   the pool at most THREADS × TASKS_PER_THREAD documents, one school at most THREADS of them,
 *   so the pool's own queue stays empty and a thread always has room for another school.
 * - Started on first use; a worker idle for IDLE_MS closes (and an idle worker never keeps the
 *   process alive), so a server that prints nothing holds no threads.
 * - The worker is `worker.ts` from the TypeScript sources (`npm start` runs the server with
 *   `node --import tsx`, the tests under vitest) and `worker.js` beside a build: a worker thread
 *   does not inherit vitest's transform, so from sources it loads tsx itself (`--import` with
 *   tsx's own path, found from this file, whatever the working folder).
 * - `closeDocumentPool()` lets the workers finish what they draw and stops them; the next
 *   render starts a new pool.
 */

/** The pool's threads: the machine's cores less one, at least one. */
export const DOCUMENT_THREADS = Math.max(1, availableParallelism() - 1);
/** Documents one thread draws at once, taking turns. */
export const DOCUMENT_TASKS_PER_THREAD = 2;
/** How long a worker with nothing to draw stays (a head teacher printing class after class finds it warm). */
export const DOCUMENT_IDLE_MS = 30_000;

/** The worker's file and, from the TypeScript sources, the loader it needs. */
export function documentWorkerEntry(moduleUrl: string = import.meta.url): { filename: string; execArgv?: string[] } {
  if (!fileURLToPath(moduleUrl).endsWith('.ts')) return { filename: fileURLToPath(new URL('./worker.js', moduleUrl)) };
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx')).href;
  return { filename: fileURLToPath(new URL('./worker.ts', moduleUrl)), execArgv: ['--import', tsx] };
}

let pool: Piscina<DocumentTask, Uint8Array> | null = null;
/** The most threads the pool has held at once since the process started (the tests read it). */
let mostThreads = 0;

function documentPool(): Piscina<DocumentTask, Uint8Array> {
  if (pool) return pool;
  const started = new Piscina<DocumentTask, Uint8Array>({
    ...documentWorkerEntry(),
    minThreads: 0,
    maxThreads: DOCUMENT_THREADS,
    concurrentTasksPerWorker: DOCUMENT_TASKS_PER_THREAD,
    idleTimeout: DOCUMENT_IDLE_MS,
  });
  started.on('workerCreate', () => {
    mostThreads = Math.max(mostThreads, started.threads.length);
  });
  pool = started;
  return started;
}

/** The pool's live threads now, and the most it has held at once. */
export function documentThreads(): { live: number; most: number } {
  const live = pool?.threads.length ?? 0;
  mostThreads = Math.max(mostThreads, live);
  return { live, most: mostThreads };
}

/**
 * One document drawn in the pool by the drawer at `drawer` (drawers.ts), typed by its input.
 * `onProgress` hears every piece (done, total) before the promise settles; a callback that
 * throws fails the render with its error rather than the process.
 */
export async function renderDocument<Input>(drawer: DrawerAddress<Input>, input: Input, onProgress?: DocumentProgress): Promise<Buffer> {
  const task = { drawer: { module: drawer.module, name: drawer.name }, input };
  const asBuffer = (pdf: Uint8Array) => Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  if (!onProgress) return asBuffer(await documentPool().run(task));
  const { port1, port2 } = new MessageChannel();
  let failure: unknown = null;
  const finished = new Promise<void>((resolve) => {
    port1.on('message', (message: ProgressMessage) => {
      if ('finished' in message) return resolve();
      if (failure) return;
      try {
        onProgress(message.done, message.total);
      } catch (error) {
        failure = error;
      }
    });
    port1.once('close', () => resolve());
  });
  try {
    const pdf = await documentPool().run({ ...task, progress: port2 }, { transferList: [port2] });
    await finished;
    if (failure) throw failure;
    return asBuffer(pdf);
  } finally {
    port1.close();
  }
}

/** Lets the workers finish the files they draw, then stops them (server shutdown). A later render starts a new pool. */
export async function closeDocumentPool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.close();
}
