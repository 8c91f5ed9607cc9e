import type { MarksheetCounts, MarksheetTable, ReportModel } from '@mustard/shared';
import { closeDocumentPool, renderDocument } from '../../../documents/pool.js';

/*
 * Mark sheet PDFs, drawn by the one document pool (documents/pool.ts) with this kind's drawer
 * (`drawMarksheetPdf`, pdf.ts; registered in documents/drawers.ts as 'marksheet'): no pool of
 * their own, so the report cards and the mark sheets together never start more threads than
 * the process's bound.
 */

/** The mark sheet's PDF, drawn in the document pool. */
export function renderMarksheetPdf(model: ReportModel, table: MarksheetTable, counts: MarksheetCounts): Promise<Buffer> {
  return renderDocument('marksheet', { model, table, counts });
}

/** Stops the document pool (server shutdown); a later render starts a new one. */
export const closeMarksheetPdfPool = closeDocumentPool;
