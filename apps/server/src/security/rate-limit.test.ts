import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, TEST_PASSWORD, type TestApp, tokenOf } from '../test/test-app.js';

/**
 * Sign-in is rate-limited per account and per client address (security.md item 11).
 */

const TOO_MANY = { statusCode: 429, message: 'Too many attempts. Please wait a moment and try again.' };

function signIn(t: TestApp, email: string, password: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email, password } }, remoteAddress });
}

describe('per account: 10 failures -> 429 (authMaxFailures 10)', () => {
  let t: TestApp;
  let victim: { email: string };
  let bystander: { email: string };

  beforeAll(async () => {
    t = await buildTestApp({ authMaxFailures: 10 });
    const school = await makeTenant(t.database);
    victim = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    bystander = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  });
  afterAll(() => t.close());

  it('10 wrong passwords answer 401; the 11th attempt answers 429 even with the right password', async () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      // From different addresses: the account limit does not depend on who is trying.
      const response = await signIn(t, victim.email, `wrong-${attempt}`, `10.0.0.${attempt}`);
      expect({ attempt, status: response.statusCode }).toEqual({ attempt, status: 401 });
    }
    const blocked = await signIn(t, victim.email, TEST_PASSWORD, '10.0.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
    expect(blocked.headers.authorization).toBeUndefined();
    // The same account in other spellings is the same account.
    expect((await signIn(t, victim.email.toUpperCase(), TEST_PASSWORD)).statusCode).toBe(429);
    expect((await signIn(t, `  ${victim.email} `, TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('another account still signs in, from the same address', async () => {
    const response = await signIn(t, bystander.email, TEST_PASSWORD, '10.0.0.1');
    expect(response.statusCode).toBe(200);
    expect(response.headers.authorization).toMatch(/^Bearer /);
  });

  it('9 failures and then the right password signs in, and clears the count', async () => {
    const person = await makeUser(t.database);
    for (let attempt = 1; attempt <= 9; attempt++) expect((await signIn(t, person.email, 'wrong')).statusCode).toBe(401);
    expect((await signIn(t, person.email, TEST_PASSWORD)).statusCode).toBe(200);
    for (let attempt = 1; attempt <= 9; attempt++) expect((await signIn(t, person.email, 'wrong')).statusCode).toBe(401);
    expect((await signIn(t, person.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('an unknown email is limited the same way, so the 429 tells nothing about which emails exist', async () => {
    const ghost = 'ghost-of-the-school@school.test';
    for (let attempt = 1; attempt <= 10; attempt++) expect((await signIn(t, ghost, 'wrong')).statusCode).toBe(401);
    const blocked = await signIn(t, ghost, 'wrong');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
  });
});

describe('parallel guesses and the password change share one count', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ authMaxFailures: 10 });
  });
  afterAll(() => t.close());

  it('30 wrong passwords sent at once get 10 password checks; the other 20 answer 429 without one', async () => {
    const person = await makeUser(t.database);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => signIn(t, person.email, `wrong-${n}`, `10.1.0.${n}`)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    // Each real check records a failed sign-in; a refusal before the check records none.
    const checked = await t.database.db
      .selectFrom('auth_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', '=', person.email)
      .where('kind', '=', 'login_failed')
      .executeTakeFirstOrThrow();
    expect(Number(checked.n)).toBe(10);
    expect((await signIn(t, person.email, TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('POST /auth/password: 10 wrong current passwords answer 422, the 11th answers 429 even when right', async () => {
    const person = await makeUser(t.database);
    const token = tokenOf(await signIn(t, person.email, TEST_PASSWORD));
    const change = (current: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/password',
        headers: { authorization: `Bearer ${token}` },
        payload: { current_password: current, password: 'New-Password-8!' },
      });
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect({ attempt, status: (await change(`wrong-${attempt}`)).statusCode }).toEqual({ attempt, status: 422 });
    }
    const blocked = await change(TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
    // The password did not change, and sign-in is paused for the account too.
    expect((await signIn(t, person.email, TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('POST /auth/password: parallel wrong guesses are counted before they are checked', async () => {
    const person = await makeUser(t.database);
    const token = tokenOf(await signIn(t, person.email, TEST_PASSWORD));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/password',
          headers: { authorization: `Bearer ${token}` },
          payload: { current_password: `wrong-${n}`, password: 'New-Password-8!' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 422)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it('the right current password gives the count back', async () => {
    const person = await makeUser(t.database);
    const token = tokenOf(await signIn(t, person.email, TEST_PASSWORD));
    for (let attempt = 1; attempt <= 9; attempt++) {
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/auth/password',
        headers: { authorization: `Bearer ${token}` },
        payload: { current_password: 'wrong', password: 'New-Password-8!' },
      });
      expect(wrong.statusCode).toBe(422);
    }
    const changed = await t.app.inject({
      method: 'POST',
      url: '/auth/password',
      headers: { authorization: `Bearer ${token}` },
      payload: { current_password: TEST_PASSWORD, password: 'New-Password-8!' },
    });
    expect(changed.statusCode).toBe(200);
    for (let attempt = 1; attempt <= 9; attempt++) expect((await signIn(t, person.email, 'wrong')).statusCode).toBe(401);
    expect((await signIn(t, person.email, 'New-Password-8!')).statusCode).toBe(200);
  });
});

describe('per address: authRateLimitPerMinute 5', () => {
  let t: TestApp;
  let person: { email: string };

  beforeAll(async () => {
    t = await buildTestApp({ authRateLimitPerMinute: 5 });
    person = await makeUser(t.database);
  });
  afterAll(() => t.close());

  it('the 6th POST /auth/type within a minute from one address -> 429; another address is not limited', async () => {
    for (let call = 1; call <= 5; call++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/type',
        payload: { email: person.email },
        remoteAddress: '192.0.2.7',
      });
      expect({ call, status: response.statusCode }).toEqual({ call, status: 200 });
    }
    const sixth = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: person.email }, remoteAddress: '192.0.2.7' });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual(TOO_MANY);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/auth/type',
      payload: { email: person.email },
      remoteAddress: '192.0.2.8',
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('the 6th POST /auth/login within a minute from one address -> 429, even with the right password', async () => {
    for (let call = 1; call <= 5; call++) {
      const response = await signIn(t, `nobody-${call}@school.test`, 'wrong', '192.0.2.20');
      expect({ call, status: response.statusCode }).toEqual({ call, status: 401 });
    }
    const sixth = await signIn(t, person.email, TEST_PASSWORD, '192.0.2.20');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual(TOO_MANY);
    expect((await signIn(t, person.email, TEST_PASSWORD, '192.0.2.21')).statusCode).toBe(200);
  });

  it('the 6th POST /auth/redeemcode within a minute from one address -> 429', async () => {
    for (let call = 1; call <= 5; call++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/redeemcode',
        payload: { code: `guess-${call}` },
        remoteAddress: '192.0.2.30',
      });
      expect({ call, status: response.statusCode }).toEqual({ call, status: 401 });
    }
    const sixth = await t.app.inject({
      method: 'POST',
      url: '/auth/redeemcode',
      payload: { code: 'guess-6' },
      remoteAddress: '192.0.2.30',
    });
    expect(sixth.statusCode).toBe(429);
  });
});
