import type { MarksheetCounts, MarksheetTable, ReportLayout, ReportModel } from '@mustard/shared';
import { drawMarksheetPdf } from '../modules/reports/marksheet/pdf.js';
import { drawReportPdf } from '../modules/reports/pdf/draw.js';

/*
 * Every kind of document the pool draws, and its drawer: the one place a kind registers (issue
 * 25 point 5). A drawer is pure (its input in, the PDF's bytes out; the input crosses to a worker
 * thread, so it is plain data: no functions or classes), starts from the one PDF set-up
 * (pdf.ts), calls `progress` after each piece (a learner) when it has pieces, and yields
 * (`yieldToOtherDocuments`) every so many pieces so another school's document drawn by the same
 * thread is not held behind it. Only the worker loads this file (the server's thread takes its
 * types).
 *
 * A new kind (the analysis, statistics, cumulative sheet, the new curriculum's cards) adds one
 * line to each of the two lists below: its name and input type, its name and drawer;
 * `renderDocument(kind, input)` then draws it, typed by that input. This file is the documents
 * module's one import of the modules (their pure drawers).
 */

/** Told after each piece drawn: how many are done, of how many. */
export type DocumentProgress = (done: number, total: number) => void;

/** Draws one document of a kind. */
export type DocumentDrawer<Input> = (input: Input, progress?: DocumentProgress) => Promise<Uint8Array>;

/** Image bytes (JPEG or PNG) by the URL the model names them with. */
export type DocumentImages = ReadonlyMap<string, Uint8Array>;

export interface ReportCardsInput {
  model: ReportModel;
  layout: ReportLayout;
  /** The bytes (JPEG or PNG) of the logo and photos the model names, by URL: each embedded once. */
  images: DocumentImages;
}

export interface MarksheetInput {
  model: ReportModel;
  table: MarksheetTable;
  counts: MarksheetCounts;
}

/** Each kind's input: what `renderDocument(kind, input)` takes. */
export interface DocumentInputs {
  'report-cards': ReportCardsInput;
  marksheet: MarksheetInput;
}

export type DocumentKind = keyof DocumentInputs;

/** Each kind's drawer. */
export const DOCUMENT_DRAWERS: { [K in DocumentKind]: DocumentDrawer<DocumentInputs[K]> } = {
  'report-cards': ({ model, layout, images }, progress) => drawReportPdf(model, layout, images, progress),
  marksheet: ({ model, table, counts }) => drawMarksheetPdf(model, table, counts),
};

export const isDocumentKind = (kind: string): kind is DocumentKind => Object.hasOwn(DOCUMENT_DRAWERS, kind);
