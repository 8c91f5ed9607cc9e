import { INPUT_MESSAGES } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { WorkGate } from './spreadsheet.js';

/** The gate that lets only a few workbooks be read at once (issue 9 point 5). No database. */

function deferred() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { done, release };
}

describe('WorkGate', () => {
  it('runs at most `concurrency` at once, the next in line as soon as one ends, in order', async () => {
    const gate = new WorkGate(2, 10, 10_000);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const holds = Array.from({ length: 5 }, () => deferred());
    const runs = holds.map((hold, n) =>
      gate.run(async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(n);
        await hold.done;
        running -= 1;
        return n;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([0, 1]);
    holds[1]?.release();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([0, 1, 2]);
    for (const hold of holds) hold.release();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('answers 503 with a message when the queue is full, and frees the slot of work that fails', async () => {
    const gate = new WorkGate(1, 1, 10_000);
    const hold = deferred();
    const first = gate.run(() => hold.done);
    const second = gate.run(async () => 'second');
    const third = gate.run(async () => 'third');
    await expect(third).rejects.toMatchObject({ statusCode: 503, message: INPUT_MESSAGES.uploadsBusy });
    hold.release();
    await first;
    expect(await second).toBe('second');
    await expect(gate.run(async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await gate.run(async () => 'after')).toBe('after');
  });

  it('answers 503 to work that waited too long, which then never runs', async () => {
    const gate = new WorkGate(1, 5, 50);
    const hold = deferred();
    const first = gate.run(() => hold.done);
    let ran = false;
    const late = gate.run(async () => {
      ran = true;
    });
    await expect(late).rejects.toBeInstanceOf(AppError);
    hold.release();
    await first;
    // The slot passes to the next in line: had the late work still been waiting, it would have
    // run before this.
    expect(await gate.run(async () => 'free again')).toBe('free again');
    expect(ran).toBe(false);
  });
});
