import { describe, expect, it } from 'vitest';
import { DOCUMENT_READS_AT_ONCE, ReadingTurns } from './reading.js';

/** Reading turns (reading.ts): a few admitted documents read their data at once, the rest in order. */

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('reading turns', () => {
  it('lets `limit` read at once; the next waits and gets the first turn handed on, in order', async () => {
    const turns = new ReadingTurns(2);
    const first = await turns.enter();
    const second = await turns.enter();
    const entered: string[] = [];
    const third = turns.enter().then((leave) => {
      entered.push('third');
      return leave;
    });
    const fourth = turns.enter().then((leave) => {
      entered.push('fourth');
      return leave;
    });
    await settle();
    expect(entered).toEqual([]);
    expect(turns.counts()).toEqual({ reading: 2, waiting: 2 });
    first();
    await settle();
    expect(entered).toEqual(['third']);
    expect(turns.counts()).toEqual({ reading: 2, waiting: 1 });
    second();
    await settle();
    expect(entered).toEqual(['third', 'fourth']);
    (await third)();
    (await fourth)();
    expect(turns.counts()).toEqual({ reading: 0, waiting: 0 });
  });

  it('hands a turn on once however often its leave is called (at the first draw, and again when the work ends)', async () => {
    const turns = new ReadingTurns(1);
    const leave = await turns.enter();
    const next = turns.enter();
    leave();
    leave();
    leave();
    const nextLeave = await next;
    expect(turns.counts()).toEqual({ reading: 1, waiting: 0 });
    nextLeave();
    expect(turns.counts()).toEqual({ reading: 0, waiting: 0 });
  });

  it('leaves most of an app server’s 10 database connections to everyone else', () => {
    expect(DOCUMENT_READS_AT_ONCE).toBeLessThanOrEqual(4);
    expect(new ReadingTurns().limit).toBe(DOCUMENT_READS_AT_ONCE);
  });
});
