import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { move } from 'piscina';
import type { DocumentDrawer } from './drawers.js';

/*
 * The one document worker (piscina, pool.ts): a task names its drawer by address (drawers.ts)
 * and carries its input; the worker loads the drawer's file (once: imports are cached) and draws.
 * Progress goes back on the task's own MessagePort, one message per piece and a last one when
 * the file is done, so the caller hears every piece before the promise settles. The PDF goes
 * back transferred, not copied.
 */

export interface DocumentTask {
  /** The drawer's module URL and export name (a DrawerAddress without its type). */
  drawer: { module: string; name: string };
  input: unknown;
  /** Where progress is posted: `{ done, total }` per piece, then `{ finished: true }`. */
  progress?: MessagePort;
}

export type ProgressMessage = { done: number; total: number } | { finished: true };

/**
 * A drawer's module. From the TypeScript sources the worker runs under tsx's require hook
 * (pool.ts): Node's own import in a worker thread does not pass through tsx, so a `.ts` drawer is
 * required; beside a build, a `.js` one is imported.
 */
async function load(module: string): Promise<Record<string, unknown>> {
  if (module.endsWith('.ts')) return createRequire(import.meta.url)(fileURLToPath(module)) as Record<string, unknown>;
  return (await import(module)) as Record<string, unknown>;
}

async function drawerAt({ module, name }: DocumentTask['drawer']): Promise<DocumentDrawer<unknown>> {
  const loaded = await load(module);
  const drawer = loaded[name];
  if (typeof drawer !== 'function') throw new Error(`No drawer "${name}" in ${module}`);
  return drawer as DocumentDrawer<unknown>;
}

export default async function drawDocument({ drawer, input, progress }: DocumentTask): Promise<Uint8Array> {
  try {
    const draw = await drawerAt(drawer);
    const pdf = await draw(input, progress ? (done, total) => progress.postMessage({ done, total } satisfies ProgressMessage) : undefined);
    // A buffer of its own (not a slice of Node's shared pool), so it can be moved to the caller.
    const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : new Uint8Array(pdf);
    return move(owned) as Uint8Array;
  } finally {
    progress?.postMessage({ finished: true } satisfies ProgressMessage);
    progress?.close();
  }
}
