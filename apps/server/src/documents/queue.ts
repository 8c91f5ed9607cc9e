import { REPORT_MESSAGES } from '@mustard/shared';
import { AppError } from '../errors.js';

/*
 * Which documents (report cards, mark sheets, every kind of drawers.ts) are made, and in what
 * order (issue 23 item 10, issue 25 point 5: one queue for the one pool). Every
 * PDF request is admitted before its data is read, and holds its admission until its answer is
 * built: what waits (the model, the photos) stays in memory meanwhile, so a bound on admissions
 * is a bound on memory. Beyond the bound a request answers 503 with Retry-After at once, having
 * read nothing:
 *
 * - one school has at most `perSchool` documents admitted (read, waiting or drawn), so a school
 *   printing every class at once cannot fill the queue;
 * - all schools together at most `total`.
 *
 * Admitted documents are drawn `drawing` at a time (the pool's threads times the documents a
 * thread draws at once, so the pool's own queue stays empty), one school's at most
 * `drawingPerSchool` (the pool's threads): whatever one school asks, room is left for another's
 * document, which a thread draws in turns with the big one (pool.ts). When room frees, the next
 * is taken fairly: first the school with the fewest documents being drawn, then the one whose
 * last turn is oldest (a school with none first), then the one that waited longest. So another
 * school's single card goes ahead of a school's second class, and is drawn beside its first.
 * Everything a school leaves behind is dropped when its last document is done.
 */

export interface DocumentQueueLimits {
  /** Documents drawn at once: the worker pool's threads times the documents each draws at once. */
  drawing: number;
  /** One school's documents drawn at once (the pool's threads); `drawing` when not given. */
  drawingPerSchool?: number;
  /** One school's documents admitted at once, drawn or waiting. */
  perSchool: number;
  /** Documents admitted at once, every school's. */
  total: number;
}

/**
 * Admissions unless configured (`PDF_QUEUE_PER_SCHOOL`, `PDF_QUEUE_TOTAL`): every class of a
 * school at once (P1 to P7, or S1 to S6, each class's PDF asked at the end of term), and a few
 * such schools' worth of class data in memory.
 */
export const DEFAULT_DOCUMENT_LIMITS = { perSchool: 8, total: 24 } as const;

/** What a refused request is told to wait, in seconds: a class's cards take a few seconds to draw. */
export const DOCUMENTS_RETRY_AFTER_SECONDS = 10;

/** Where a refusal says when to come back: the request's reply. */
export interface RetryLater {
  header(name: string, value: string): unknown;
}

/** Runs `render` (the drawing) when the document's turn comes: how the in-process queue hands a turn. */
export type RenderInTurn = <T>(render: () => Promise<T>) => Promise<T>;

interface Waiting {
  school: string;
  start: () => void;
}

export class DocumentQueue {
  private admittedTotal = 0;
  private drawingTotal = 0;
  private turns = 0;
  private readonly admitted = new Map<string, number>();
  private readonly drawingBySchool = new Map<string, number>();
  /** The turn each school last started a drawing in (the higher, the more recent). */
  private readonly lastTurn = new Map<string, number>();
  private readonly waiting: Waiting[] = [];

  constructor(readonly limits: DocumentQueueLimits) {}

  /**
   * Admits one document of the school, then runs `work`, which reads what it needs and draws with
   * `draw` in its turn; the admission ends with `work`, however it ends. A request beyond the
   * bounds answers 503 with Retry-After and a catalogue message, and `work` never runs.
   */
  async serve<T>(school: string, reply: RetryLater, work: (draw: RenderInTurn) => Promise<T>): Promise<T> {
    const refusal = this.refusal(school);
    if (refusal) {
      reply.header('retry-after', String(DOCUMENTS_RETRY_AFTER_SECONDS));
      throw new AppError(503, refusal);
    }
    this.admittedTotal += 1;
    this.admitted.set(school, (this.admitted.get(school) ?? 0) + 1);
    try {
      return await work((render) => this.drawInTurn(school, render));
    } finally {
      this.admittedTotal -= 1;
      const left = (this.admitted.get(school) ?? 1) - 1;
      if (left > 0) this.admitted.set(school, left);
      else {
        this.admitted.delete(school);
        this.lastTurn.delete(school);
      }
    }
  }

  /** What is admitted, drawn and waiting now, and how many schools the queue remembers (all 0 when idle). */
  counts() {
    return {
      admitted: this.admittedTotal,
      drawing: this.drawingTotal,
      waiting: this.waiting.length,
      schools: Math.max(this.admitted.size, this.drawingBySchool.size, this.lastTurn.size),
    };
  }

  private refusal(school: string) {
    if ((this.admitted.get(school) ?? 0) >= this.limits.perSchool) return REPORT_MESSAGES.schoolDocumentsBusy;
    if (this.admittedTotal >= this.limits.total) return REPORT_MESSAGES.documentsBusy;
    return null;
  }

  private async drawInTurn<T>(school: string, render: () => Promise<T>): Promise<T> {
    if (this.mayStart(school) && !this.waiting.some((each) => this.mayStart(each.school))) this.startDrawing(school);
    else await new Promise<void>((start) => this.waiting.push({ school, start }));
    try {
      return await render();
    } finally {
      this.drawingTotal -= 1;
      const left = (this.drawingBySchool.get(school) ?? 1) - 1;
      if (left > 0) this.drawingBySchool.set(school, left);
      else this.drawingBySchool.delete(school);
      this.next();
    }
  }

  private startDrawing(school: string) {
    this.drawingTotal += 1;
    this.drawingBySchool.set(school, (this.drawingBySchool.get(school) ?? 0) + 1);
    this.lastTurn.set(school, ++this.turns);
  }

  /** Whether a document of the school may start now: room in the pool, and in the school's share of it. */
  private mayStart(school: string): boolean {
    const perSchool = this.limits.drawingPerSchool ?? this.limits.drawing;
    return this.drawingTotal < this.limits.drawing && (this.drawingBySchool.get(school) ?? 0) < perSchool;
  }

  /** Starts the fairest waiting document that may start, while there is room. */
  private next() {
    while (this.drawingTotal < this.limits.drawing) {
      let best = -1;
      for (let index = 0; index < this.waiting.length; index++) {
        const each = this.waiting[index] as Waiting;
        if (this.mayStart(each.school) && (best < 0 || this.fairer(each, this.waiting[best] as Waiting))) best = index;
      }
      if (best < 0) return;
      const [chosen] = this.waiting.splice(best, 1) as [Waiting];
      this.startDrawing(chosen.school);
      chosen.start();
    }
  }

  /** Whether `a` goes before `b` (which waited longer): fewer of its school's drawn, then its school's older turn. */
  private fairer(a: Waiting, b: Waiting): boolean {
    const drawnA = this.drawingBySchool.get(a.school) ?? 0;
    const drawnB = this.drawingBySchool.get(b.school) ?? 0;
    if (drawnA !== drawnB) return drawnA < drawnB;
    return (this.lastTurn.get(a.school) ?? 0) < (this.lastTurn.get(b.school) ?? 0);
  }
}
