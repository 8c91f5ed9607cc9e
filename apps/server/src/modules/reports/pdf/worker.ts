import type { MessagePort } from 'node:worker_threads';
import type { ReportLayout, ReportModel } from '@mustard/shared';
import { move } from 'piscina';
import { drawReportPdf, type ReportImages } from './draw.js';

/*
 * The report worker (piscina, index.ts): one task draws one file. Progress goes back on the
 * task's own MessagePort, one message per learner and a last one when the file is done, so the
 * caller hears every learner before the promise settles. The PDF goes back transferred, not
 * copied.
 */

export interface ReportPdfTask {
  model: ReportModel;
  layout: ReportLayout;
  images: ReportImages;
  /** Where progress is posted: `{ done, total }` per learner, then `{ finished: true }`. */
  progress?: MessagePort;
}

export type ProgressMessage = { done: number; total: number } | { finished: true };

export default async function renderTask({ model, layout, images, progress }: ReportPdfTask): Promise<Uint8Array> {
  try {
    const pdf = await drawReportPdf(
      model,
      layout,
      images,
      progress ? (done, total) => progress.postMessage({ done, total } satisfies ProgressMessage) : undefined,
    );
    // A buffer of its own (not a slice of Node's shared pool), so it can be moved to the caller.
    const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : new Uint8Array(pdf);
    return move(owned) as Uint8Array;
  } finally {
    progress?.postMessage({ finished: true } satisfies ProgressMessage);
    progress?.close();
  }
}
