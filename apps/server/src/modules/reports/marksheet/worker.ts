import type { MarksheetCounts, MarksheetTable, ReportModel } from '@mustard/shared';
import { move } from 'piscina';
import { drawMarksheetPdf } from './pdf.js';

/*
 * The mark sheet's PDF worker (pdf-pool.ts): one task draws one file; the PDF goes back
 * transferred, not copied.
 */

export interface MarksheetPdfTask {
  model: ReportModel;
  table: MarksheetTable;
  counts: MarksheetCounts;
}

export default async function drawTask({ model, table, counts }: MarksheetPdfTask): Promise<Uint8Array> {
  const pdf = await drawMarksheetPdf(model, table, counts);
  // A buffer of its own (not a slice of Node's shared pool), so it can be moved to the caller.
  const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : new Uint8Array(pdf);
  return move(owned) as Uint8Array;
}
