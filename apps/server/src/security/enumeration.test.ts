import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';

/**
 * No user enumeration (security.md item 12): a wrong password for a known email and any
 * password for an unknown email answer alike, in status, body and time.
 */

let t: TestApp;
let known: { email: string };

const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email, password } } });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

beforeAll(async () => {
  // The account limit is lifted here: this file measures, it does not lock anyone out.
  t = await buildTestApp({ authMaxFailures: 1_000_000 });
  const school = await makeTenant(t.database);
  known = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
});
afterAll(() => t.close());

describe('login failures', () => {
  it('answer 401 with the same body for a wrong password, an unknown email and a disabled account', async () => {
    const wrong = await signIn(known.email, 'Wrong-Password-1!');
    const unknown = await signIn('nobody-here@school.test', 'Wrong-Password-1!');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ statusCode: 401, message: 'Invalid email or password' });
    expect(unknown.body).toBe(wrong.body);
    const disabled = await makeUser(t.database);
    await t.database.db.updateTable('users').set({ disabled_at: new Date() }).where('email', '=', disabled.email).execute();
    const refused = await signIn(disabled.email, disabled.password);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe(wrong.body);
  });

  it('take the same time: medians of 15 unknown-email and 15 wrong-password logins differ by < 20 ms', async () => {
    // Warm up both paths (the dummy hash is made on first use, JIT, caches).
    for (let i = 0; i < 3; i++) {
      await signIn(`warm-${i}@school.test`, 'Wrong-Password-1!');
      await signIn(known.email, 'Wrong-Password-1!');
    }
    const unknownTimes: number[] = [];
    const knownTimes: number[] = [];
    // Interleaved, so drift in machine load falls on both sides alike.
    for (let i = 0; i < 15; i++) {
      let start = performance.now();
      expect((await signIn(`nobody-${i}@school.test`, `Wrong-Password-${i}!`)).statusCode).toBe(401);
      unknownTimes.push(performance.now() - start);
      start = performance.now();
      expect((await signIn(known.email, `Wrong-Password-${i}!`)).statusCode).toBe(401);
      knownTimes.push(performance.now() - start);
    }
    const unknownMedian = median(unknownTimes);
    const knownMedian = median(knownTimes);
    const detail = `unknown ${unknownMedian.toFixed(1)} ms, known ${knownMedian.toFixed(1)} ms`;
    expect(Math.abs(unknownMedian - knownMedian), detail).toBeLessThan(20);
    // A password hash is really verified on both paths: without the dummy hash an unknown
    // email would answer in a fraction of the time of a known one.
    expect(Math.min(unknownMedian, knownMedian) / Math.max(unknownMedian, knownMedian), detail).toBeGreaterThan(0.5);
  });
});

describe('the email-type check', () => {
  it('answers the same for a known and an unknown email', async () => {
    const a = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: known.email } });
    const b = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: 'nobody-here@school.test' } });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.body).toBe(a.body);
  });
});
