import type { MessagePort } from 'node:worker_threads';
import { move } from 'piscina';
import { DOCUMENT_DRAWERS, type DocumentDrawer, type DocumentKind, isDocumentKind } from './drawers.js';

/*
 * The one document worker (piscina, pool.ts): a task names its kind and carries that kind's
 * input; the worker draws it with the kind's drawer (drawers.ts).
 * Progress goes back on the task's own MessagePort, one message per piece and a last one when
 * the file is done, so the caller hears every piece before the promise settles. The PDF goes
 * back transferred, not copied.
 */

export interface DocumentTask {
  kind: DocumentKind;
  input: unknown;
  /** Where progress is posted: `{ done, total }` per piece, then `{ finished: true }`. */
  progress?: MessagePort;
}

export type ProgressMessage = { done: number; total: number } | { finished: true };

export default async function drawDocument({ kind, input, progress }: DocumentTask): Promise<Uint8Array> {
  try {
    if (!isDocumentKind(kind)) throw new Error(`No drawer for documents of kind "${String(kind)}"`);
    const draw = DOCUMENT_DRAWERS[kind] as DocumentDrawer<never>;
    const pdf = await draw(
      input as never,
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
