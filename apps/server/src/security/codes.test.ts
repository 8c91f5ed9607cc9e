import { TENANT_HEADER } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSignInCode } from '../modules/auth/auth.service.js';
import { makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, TEST_PASSWORD, type TestApp, tokenOf } from '../test/test-app.js';

/**
 * One-time sign-in codes (security.md item 13): >= 128 bits from a CSPRNG, stored hashed,
 * single use even under concurrency, short-lived.
 */

let t: TestApp;
let school: { id: string; tenantcode: string };
let person: { id: string; email: string };

const redeem = (code: string) => t.app.inject({ method: 'POST', url: '/auth/redeemcode', payload: { code } });
const INVALID = { statusCode: 401, message: 'Invalid code' };

const codeRows = (userId: string) =>
  t.database.db.selectFrom('one_time_codes').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Mengo Primary' });
  person = await makeUser(t.database, { name: 'Okello John', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
});
afterAll(() => t.close());

describe('issuing', () => {
  it('makes codes of at least 128 bits, base64url, different every time', async () => {
    const codes = await Promise.all(Array.from({ length: 5 }, () => issueSignInCode(t.database, person.id)));
    for (const code of codes) {
      expect(code).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(code.length).toBeGreaterThanOrEqual(22);
      expect(Buffer.from(code, 'base64url').length).toBeGreaterThanOrEqual(16);
    }
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('stores only a hash of the code, never the code', async () => {
    const stranger = await makeUser(t.database);
    const code = await issueSignInCode(t.database, stranger.id);
    const rows = await codeRows(stranger.id);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.code_hash).not.toBe(code);
    expect(row.code_hash).not.toContain(code);
    expect(code).not.toContain(row.code_hash);
    expect(row.code_hash.length).toBeGreaterThanOrEqual(43);
    // No column of the row holds the code.
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.purpose).toBe('signin');
    expect(row.used_at).toBeNull();
  });

  it('lives 10 minutes at most, whatever is asked', async () => {
    const stranger = await makeUser(t.database);
    const before = Date.now();
    await issueSignInCode(t.database, stranger.id, 24 * 3600);
    const [row] = await codeRows(stranger.id);
    expect(new Date(row!.expires_at).getTime()).toBeLessThanOrEqual(before + 600_000 + 2_000);
    expect(new Date(row!.expires_at).getTime()).toBeGreaterThan(before);
  });
});

describe('redeeming: POST /auth/redeemcode', () => {
  it('signs in like login: the same body shape and a token in the authorization header', async () => {
    const code = await issueSignInCode(t.database, person.id);
    const response = await redeem(code);
    expect(response.statusCode).toBe(200);
    const viaLogin = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: person.email, password: TEST_PASSWORD } },
    });
    expect(viaLogin.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(Object.keys(viaLogin.json()).sort());
    expect(response.json()).toEqual(viaLogin.json());
    expect(response.json()).toMatchObject({ id: person.id, email: person.email, name: 'Okello John' });
    expect(response.headers['cache-control']).toBe('no-store');
    const token = tokenOf(response);
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().id).toBe(person.id);
    const rows = await codeRows(person.id);
    expect(rows.filter((row) => row.used_at !== null).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a replay: 401 "Invalid code", and no new session', async () => {
    const code = await issueSignInCode(t.database, person.id);
    expect((await redeem(code)).statusCode).toBe(200);
    const sessions = await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', person.id).execute();
    const replay = await redeem(code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual(INVALID);
    expect(replay.headers.authorization).toBeUndefined();
    expect(await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', person.id).execute()).toHaveLength(
      sessions.length,
    );
  });

  it('refuses an expired code with 401 "Invalid code"', async () => {
    const stranger = await makeUser(t.database);
    const code = await issueSignInCode(t.database, stranger.id);
    await t.database.db
      .updateTable('one_time_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', stranger.id)
      .execute();
    const response = await redeem(code);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(INVALID);
  });

  it('refuses a code issued with a 1 second life, once that second has passed', async () => {
    const stranger = await makeUser(t.database);
    const code = await issueSignInCode(t.database, stranger.id, 1);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const response = await redeem(code);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(INVALID);
  });

  it('refuses unknown codes, the stored hash itself, a code of a disabled account, and near misses', async () => {
    const stranger = await makeUser(t.database);
    const code = await issueSignInCode(t.database, stranger.id);
    const [row] = await codeRows(stranger.id);
    for (const guess of [
      'x',
      'not-a-code',
      row!.code_hash,
      code.slice(0, -1),
      `${code}A`,
      code.toUpperCase() === code ? code.toLowerCase() : code.toUpperCase(),
    ]) {
      const response = await redeem(guess);
      expect({ guess, status: response.statusCode }).toEqual({ guess, status: 401 });
    }
    await t.database.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', stranger.id).execute();
    const disabled = await redeem(code);
    expect(disabled.statusCode).toBe(401);
    expect(disabled.json()).toEqual(INVALID);
  });

  it('50 parallel redemptions of one fresh code: exactly one 200, 49 x 401', async () => {
    const stranger = await makeUser(t.database);
    const code = await issueSignInCode(t.database, stranger.id);
    const responses = await Promise.all(Array.from({ length: 50 }, () => redeem(code)));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(49);
    const sessions = await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', stranger.id).execute();
    expect(sessions).toHaveLength(1);
  });

  it('a code signs in its own user only', async () => {
    const a = await makeUser(t.database);
    const b = await makeUser(t.database);
    const codeA = await issueSignInCode(t.database, a.id);
    await issueSignInCode(t.database, b.id);
    const response = await redeem(codeA);
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(a.id);
    const sessionsOf = (userId: string) => t.database.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    expect(await sessionsOf(a.id)).toHaveLength(1);
    expect(await sessionsOf(b.id)).toHaveLength(0);
  });
});
