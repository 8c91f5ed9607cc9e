import type { DocumentProgress } from '../../../documents/drawers.js';
import { closeDocumentPool, DOCUMENT_IDLE_MS, DOCUMENT_THREADS, renderDocument } from '../../../documents/pool.js';
import { REPORT_CARDS_DRAWER } from '../document-drawers.js';
import type { ReportCardsInput } from './draw.js';

/*
 * Report card PDFs (issue 15 point 6), drawn by the one document pool (documents/pool.ts) with
 * this kind's drawer (`drawReportCards`, draw.ts; addressed in ../document-drawers.ts). What was this module's own pool is the documents' one: these names stay for
 * the callers that knew them.
 */

export { type CardColumn, drawReportPdf, type LearnerDone, type ReportImages, subjectColumns } from './draw.js';
export { imagesForPrint, PRINT_IMAGE_PX } from './images.js';

export type ReportPdfInput = ReportCardsInput;
/** Called once per learner drawn: how many are done, of how many. */
export type ReportPdfProgress = DocumentProgress;

/** The one pool's threads (documents/pool.ts). */
export const REPORT_PDF_THREADS = DOCUMENT_THREADS;
export const REPORT_PDF_IDLE_MS = DOCUMENT_IDLE_MS;

/** A class's report cards as one PDF, drawn in the document pool; `onProgress` hears every learner. */
export function renderReportPdf(input: ReportPdfInput, onProgress?: ReportPdfProgress): Promise<Buffer> {
  return renderDocument(REPORT_CARDS_DRAWER, input, onProgress);
}

/** Stops the document pool (server shutdown); a later render starts a new one. */
export const closeReportPdfPool = closeDocumentPool;
