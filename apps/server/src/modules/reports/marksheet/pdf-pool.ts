import type { MarksheetCounts, MarksheetTable, ReportModel } from '@mustard/shared';
import { Piscina } from 'piscina';
import { REPORT_PDF_IDLE_MS, REPORT_PDF_THREADS, reportWorkerEntry } from '../pdf/index.js';
import type { MarksheetPdfTask } from './worker.js';

/*
 * Mark sheet PDFs drawn off the event loop, as the report cards are (pdf/index.ts): a pool of
 * worker threads (piscina) started on first use, as many as the report cards' at most, whose
 * idle workers close. The worker file is found the report cards' way (`worker.ts` beside this
 * module from the sources, with tsx; `worker.js` beside a build).
 */

let pool: Piscina<MarksheetPdfTask, Uint8Array> | null = null;

function marksheetPool(): Piscina<MarksheetPdfTask, Uint8Array> {
  pool ??= new Piscina<MarksheetPdfTask, Uint8Array>({
    ...reportWorkerEntry(import.meta.url),
    minThreads: 0,
    maxThreads: REPORT_PDF_THREADS,
    idleTimeout: REPORT_PDF_IDLE_MS,
  });
  return pool;
}

/** The mark sheet's PDF, drawn in the pool. */
export async function renderMarksheetPdf(model: ReportModel, table: MarksheetTable, counts: MarksheetCounts): Promise<Buffer> {
  const pdf = await marksheetPool().run({ model, table, counts });
  return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}

/** Lets the workers finish what they draw, then stops them (server shutdown); a later render starts a new pool. */
export async function closeMarksheetPdfPool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.close();
}
