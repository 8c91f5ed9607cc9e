/*
 * How many admitted documents this process reads the data of at once (issue 30, found by the
 * scale benchmark). A school printing every class at once had every admitted class read at once:
 * their queries took the server's whole pool of PostgreSQL connections and their models the
 * event loop, and another school's class list on the same server waited seconds behind them
 * (p95 fine, slowest calls up to 4.6 s). A document now reads in its turn, a few at a time; its
 * turn passes on as soon as it hands its input to be drawn (or ends), so drawing, here or on a
 * worker, never holds a reading turn. What waits here is already admitted, so the waiting are
 * as bounded as the admissions.
 */

/** Documents read at once by one app server: fewer than half its pool of 10 database connections, the rest for everyone else. */
export const DOCUMENT_READS_AT_ONCE = 4;

/** Turns to read, first come first served; `enter` answers the function that hands the turn on (once, however often called). */
export class ReadingTurns {
  private reading = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number = DOCUMENT_READS_AT_ONCE) {}

  async enter(): Promise<() => void> {
    if (this.reading < this.limit) this.reading += 1;
    // The leaving reader hands its turn straight to the first in line (reading stays counted).
    else await new Promise<void>((start) => this.waiting.push(start));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.reading -= 1;
    };
  }

  /** Documents reading and waiting to read now (both 0 when idle). */
  counts() {
    return { reading: this.reading, waiting: this.waiting.length };
  }
}
