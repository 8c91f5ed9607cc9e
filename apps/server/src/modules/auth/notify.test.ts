import { LOGIN_MESSAGES } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.js';

/* Coming Soon's "notify me" (spec §2, issue 10 point 15): POST /auth/notify. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const notify = (payload: unknown) => t.app.inject({ method: 'POST', url: '/auth/notify', payload: payload as object });
const kept = async () =>
  (await t.database.db.selectFrom('launch_notifications').select('email').orderBy('email').execute()).map((row) => row.email);

describe('POST /auth/notify', () => {
  it('keeps an address once whatever its case, with the same answer for a new and a known one', async () => {
    const first = await notify({ email: 'head@kisubi.ac.ug' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: LOGIN_MESSAGES.notifyNoted });
    const again = await Promise.all([notify({ email: 'HEAD@kisubi.ac.ug' }), notify({ email: 'head@kisubi.ac.ug' })]);
    expect(again.map((response) => [response.statusCode, response.json()])).toEqual([
      [200, { message: LOGIN_MESSAGES.notifyNoted }],
      [200, { message: LOGIN_MESSAGES.notifyNoted }],
    ]);
    expect(await kept()).toEqual(['head@kisubi.ac.ug']);
  });

  it('refuses what is no address with a clear 422, and keeps nothing', async () => {
    for (const [payload, message] of [
      [{ email: 'not an address' }, LOGIN_MESSAGES.emailInvalid],
      [{ email: '' }, LOGIN_MESSAGES.emailRequired],
      [{}, LOGIN_MESSAGES.emailRequired],
      [{ email: `${'a'.repeat(300)}@example.com` }, null],
      [{ email: 'x\u0000@example.com' }, null],
      [{ email: 'extra@example.com', name: 'x' }, null],
      [{ email: 42 }, null],
    ] as const) {
      const response = await notify(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(payload)).toBeLessThan(500);
      if (message) expect(response.json().errors.email).toEqual([message]);
    }
    expect(await kept()).toEqual(['head@kisubi.ac.ug']);
  });
});
