import { pathToFileURL } from 'node:url';
import { DEFAULT_REPORT_LAYOUT, marksheetCounts, marksheetTable } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKSHEET_DRAWER, REPORT_CARDS_DRAWER } from '../modules/reports/document-drawers.js';
import { reportFixture } from '../modules/reports/pdf/fixture.js';
import { documentDrawer } from './drawers.js';
import { closeDocumentPool, DOCUMENT_TASKS_PER_THREAD, DOCUMENT_THREADS, documentThreads, renderDocument } from './pool.js';
import { DEFAULT_DOCUMENT_LIMITS, DocumentQueue } from './queue.js';

/*
 * The one document pool (issue 25 point 5): every kind drawn by the same threads, never more
 * than the process's bound, and one school's five big classes never hold another school's
 * single card behind them. Real drawers in real worker threads; no database.
 */

/** Real PDFs on a machine that may be busy: more than the default 30 s. */
const DRAWING_TIMEOUT = 120_000;

afterAll(() => closeDocumentPool());

const layout = DEFAULT_REPORT_LAYOUT;
const cards = (learners: number, seed = 1) => ({
  model: reportFixture({ learners, streams: ['East', 'West'], photos: 'none', seed }),
  layout,
  images: new Map<string, Uint8Array>(),
});
const sheet = (learners: number) => {
  const model = reportFixture({ learners, streams: ['East'], photos: 'none', seed: 7 });
  return { model, table: marksheetTable(model), counts: marksheetCounts(model) };
};
const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

// The pool's first worker starts here (loading the drawers takes a while on a busy machine), not in a test.
beforeAll(() => renderDocument(REPORT_CARDS_DRAWER, cards(1)));

describe('the document pool', () => {
  it(
    'draws report cards and mark sheets at once with at most the threads of its bound',
    async () => {
      const live: number[] = [];
      const inFlight = { cards: 0, sheets: 0, both: false };
      const track = async (kind: 'cards' | 'sheets', render: Promise<Buffer>) => {
        inFlight[kind] += 1;
        if (inFlight.cards > 0 && inFlight.sheets > 0) inFlight.both = true;
        try {
          return await render;
        } finally {
          inFlight[kind] -= 1;
        }
      };
      const watch = setInterval(() => live.push(documentThreads().live), 5);
      try {
        const files = await Promise.all([
          ...Array.from({ length: DOCUMENT_THREADS + 2 }, (_, index) =>
            track('cards', renderDocument(REPORT_CARDS_DRAWER, cards(20, index + 1))),
          ),
          ...Array.from({ length: DOCUMENT_THREADS + 2 }, () => track('sheets', renderDocument(MARKSHEET_DRAWER, sheet(30)))),
        ]);
        expect(files.every(isPdf)).toBe(true);
      } finally {
        clearInterval(watch);
      }
      expect(inFlight.both).toBe(true);
      expect(Math.max(...live)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...live)).toBeLessThanOrEqual(DOCUMENT_THREADS);
      expect(documentThreads().most).toBeLessThanOrEqual(DOCUMENT_THREADS);
    },
    DRAWING_TIMEOUT,
  );

  it(
    "finishes another school's single card while one school's five big classes are queued",
    async () => {
      // The queue as the app makes it (documents/index.ts).
      const queue = new DocumentQueue({
        drawing: DOCUMENT_THREADS * DOCUMENT_TASKS_PER_THREAD,
        drawingPerSchool: DOCUMENT_THREADS,
        ...DEFAULT_DOCUMENT_LIMITS,
      });
      const reply = { header: () => undefined };
      // Warm the threads, so a worker's start does not decide the order.
      await Promise.all(Array.from({ length: DOCUMENT_THREADS }, () => renderDocument(REPORT_CARDS_DRAWER, cards(1))));
      const finished: string[] = [];
      let waitingWhenBFinished = -1;
      const big = Array.from({ length: 5 }, (_, index) =>
        queue
          .serve('school-a', reply, (draw) => draw(() => renderDocument(REPORT_CARDS_DRAWER, cards(60, index + 1))))
          .then(() => {
            finished.push(`A${index}`);
          }),
      );
      const small = queue
        .serve('school-b', reply, (draw) => draw(() => renderDocument(REPORT_CARDS_DRAWER, cards(1, 9))))
        .then(() => {
          finished.push('B');
          waitingWhenBFinished = queue.counts().waiting;
        });
      await small;
      await Promise.all(big);
      // B's card went first, drawn beside A's first classes; A's others were still queued.
      expect(finished[0]).toBe('B');
      expect(waitingWhenBFinished).toBeGreaterThanOrEqual(1);
      expect(queue.counts()).toEqual({ admitted: 0, drawing: 0, waiting: 0, schools: 0 });
    },
    DRAWING_TIMEOUT,
  );

  it('finds each drawer by its address in a worker, and names an address with no drawer', async () => {
    // The addresses point at the sources here (the test runs them), each at a function.
    for (const drawer of [REPORT_CARDS_DRAWER, MARKSHEET_DRAWER]) {
      expect(drawer.module).toMatch(/^file:.*\/modules\/reports\/.*\.ts$/);
      const loaded = (await import(drawer.module)) as Record<string, unknown>;
      expect(typeof loaded[drawer.name]).toBe('function');
    }
    expect(
      documentDrawer<{ x: () => void }, 'x'>(pathToFileURL('/srv/mustard/modules/reports/document-drawers.js').href, './pdf/draw', 'x')
        .module,
    ).toBe('file:///srv/mustard/modules/reports/pdf/draw.js');
    const wrong = { ...MARKSHEET_DRAWER, name: 'drawNothing' } as typeof MARKSHEET_DRAWER;
    await expect(renderDocument(wrong, sheet(1))).rejects.toThrow(/No drawer "drawNothing" in file:.*marksheet\/pdf\.ts/);
  });
});
