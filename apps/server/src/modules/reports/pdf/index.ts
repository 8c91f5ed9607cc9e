import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import type { ReportLayout, ReportModel } from '@mustard/shared';
import { Piscina } from 'piscina';
import type { ReportImages } from './draw.js';
import type { ProgressMessage, ReportPdfTask } from './worker.js';

/*
 * Report card PDFs drawn off the event loop (issue 15 point 6): a pool of worker threads
 * (piscina), each drawing one class's file at a time with `drawReportPdf`. A head teacher
 * printing hundreds of cards never slows the requests of everyone else.
 *
 * - At most the machine's cores less one (the event loop keeps one), at least one.
 * - Started on first use; a worker idle for IDLE_MS closes (and an idle worker never keeps the
 *   process alive), so a server that prints nothing holds no threads.
 * - The worker is `worker.ts` from the TypeScript sources (`npm start` runs the server with
 *   `node --import tsx`, the tests under vitest) and `worker.js` beside a build: a worker thread
 *   does not inherit vitest's transform, so from sources it loads tsx itself (`--import` with
 *   tsx's own path, found from this file, whatever the working folder).
 * - `closeReportPdfPool()` lets the workers finish what they draw and stops them; the next
 *   render starts a new pool.
 */

export { type CardColumn, drawReportPdf, type LearnerDone, type ReportImages, subjectColumns } from './draw.js';
export { imagesForPrint, PRINT_IMAGE_PX } from './images.js';

export interface ReportPdfInput {
  model: ReportModel;
  layout: ReportLayout;
  /** The bytes (JPEG or PNG) of the logo and photos the model names, by URL: each embedded once. */
  images: ReportImages;
}

/** Called once per learner drawn: how many are done, of how many. */
export type ReportPdfProgress = (done: number, total: number) => void;

/** The pool's threads: the machine's cores less one, at least one. */
export const REPORT_PDF_THREADS = Math.max(1, availableParallelism() - 1);
/** How long a worker with nothing to draw stays (a head teacher printing class after class finds it warm). */
export const REPORT_PDF_IDLE_MS = 30_000;

/** The worker's file and, from the TypeScript sources, the loader it needs. */
export function reportWorkerEntry(moduleUrl: string = import.meta.url): { filename: string; execArgv?: string[] } {
  if (!fileURLToPath(moduleUrl).endsWith('.ts')) return { filename: fileURLToPath(new URL('./worker.js', moduleUrl)) };
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx')).href;
  return { filename: fileURLToPath(new URL('./worker.ts', moduleUrl)), execArgv: ['--import', tsx] };
}

let pool: Piscina<ReportPdfTask, Uint8Array> | null = null;

function reportPool(): Piscina<ReportPdfTask, Uint8Array> {
  pool ??= new Piscina<ReportPdfTask, Uint8Array>({
    ...reportWorkerEntry(),
    minThreads: 0,
    maxThreads: REPORT_PDF_THREADS,
    idleTimeout: REPORT_PDF_IDLE_MS,
  });
  return pool;
}

/**
 * A class's report cards as one PDF, drawn in the worker pool. `onProgress` hears every learner
 * (done, total) before the promise settles; a callback that throws fails the render with its
 * error rather than the process.
 */
export async function renderReportPdf(input: ReportPdfInput, onProgress?: ReportPdfProgress): Promise<Buffer> {
  const { model, layout, images } = input;
  if (!onProgress) {
    const pdf = await reportPool().run({ model, layout, images });
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }
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
    const pdf = await reportPool().run({ model, layout, images, progress: port2 }, { transferList: [port2] });
    await finished;
    if (failure) throw failure;
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  } finally {
    port1.close();
  }
}

/** Lets the workers finish the files they draw, then stops them (server shutdown). A later render starts a new pool. */
export async function closeReportPdfPool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.close();
}
