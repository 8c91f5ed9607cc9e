import { REGISTER_MESSAGES, SUPERADMIN_ROLE } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSignInCode } from '../modules/auth/auth.service.js';
import { RESET_MAILS_PER_ADDRESS } from '../modules/auth/password-reset.service.js';
import { makeTenant, makeUser } from '../test/factories.js';
import { type ReceivedMail, startTestSmtp, type TestSmtp } from '../test/smtp.js';
import { buildTestApp, caller, login, type TestApp } from '../test/test-app.js';

/*
 * The onboarding routes (issue 29) attacked from outside, over HTTP, as a stranger would: sign-up,
 * its link, the password reset, and the invitation mail. Each test fails if its hole
 * opens: another account or tenant taken over, a token of one kind accepted as another, a header
 * or recipient added to a mail, markup run in a mail, an address told apart, a limit dodged.
 */

let t: TestApp;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await buildTestApp({ smtpUrl: smtp.url, mailTiming: { pollMs: 50, retryBaseMs: 50, retryCapMs: 200 } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let clients = 0;
/** A fresh client address per request, so only the limit under attack counts. */
const from = () => `10.77.${Math.floor(++clients / 250)}.${clients % 250}`;
let people = 0;
const newAddress = (domain = 'attack.ug') => `head-${Date.now().toString(36)}-${++people}@${domain}`;

const person = (email: string, name = 'Grace Nakato') => ({ name, email, telephone: '+256 772 123456', password: 'Kampala#2026' });
const school = (name = 'Kisubi Primary') => ({ name, category: 'school', email: 'office@kisubi.ac.ug', telephone: '0414 123456' });

function post(url: string, payload: unknown, remoteAddress = from()): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress });
}
const registerAs = (email: string, change: Record<string, unknown> = {}, remoteAddress?: string) =>
  post('/auth/register', { person: person(email), organisation: school(), ...change }, remoteAddress);
const checkEmail = { message: REGISTER_MESSAGES.checkEmail };

const verifyMail = (email: string) =>
  smtp.waitFor((mail) => mail.to === email && mail.subject === 'Confirm your e-mail address for Mustard');
function linkToken(mail: ReceivedMail, path: string): string {
  const found = new RegExp(`${path.replace(/[/?]/g, '\\$&')}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text ?? '');
  if (!found?.[1]) throw new Error(`no ${path} link in: ${mail.text}`);
  return found[1];
}
/** The header names of a raw message, lower case, in order (folded lines joined). */
function headerNames(raw: Buffer): string[] {
  const head = raw.toString('latin1').split(/\r?\n\r?\n/)[0] ?? '';
  return head
    .split(/\r?\n(?![ \t])/)
    .map((line) => line.split(':')[0]?.trim().toLowerCase() ?? '')
    .filter(Boolean);
}
function expectOneRecipientNoExtraHeaders(mail: ReceivedMail, to: string) {
  expect(mail.recipients).toEqual([to]);
  const names = headerNames(mail.raw);
  for (const forged of ['bcc', 'cc', 'reply-to', 'x-injected']) expect(names, forged).not.toContain(forged);
  expect(names.filter((name) => name === 'to')).toHaveLength(1);
  expect(names.filter((name) => name === 'subject')).toHaveLength(1);
}

async function signUp(email: string, organisation = school()) {
  const registered = await registerAs(email, { organisation });
  expect(registered.statusCode, registered.body).toBe(200);
  const token = linkToken(await verifyMail(email), '/register/verify');
  const verified = await post('/auth/register/verify', { token });
  expect(verified.statusCode, verified.body).toBe(200);
  return verified.json() as { tenants: { id: string; tenantcode: string }[] };
}

describe('sign-up cannot take anything over', () => {
  it('a registration for an address with an account creates nothing and changes no password', async () => {
    const victim = await makeUser(t.database, { email: newAddress() });
    const response = await registerAs(victim.email.toUpperCase());
    expect([response.statusCode, response.json()]).toEqual([200, checkEmail]);
    const mail = await smtp.waitFor((m) => m.to === victim.email && m.subject === 'You already have a Mustard account');
    expect(mail.text).not.toMatch(/register\/verify/);
    expect(await t.database.db.selectFrom('registrations').select('id').where('email', 'ilike', victim.email).execute()).toEqual([]);
    // The victim's own password still works; the attacker's does not.
    await login(t.app, victim.email, victim.password);
    const attacker = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: victim.email, password: 'Kampala#2026' } },
    });
    expect(attacker.statusCode).toBe(401);
  });

  it('a pending sign-up verified after the address got an account is refused, the account untouched', async () => {
    const email = newAddress();
    expect((await registerAs(email)).statusCode).toBe(200);
    const token = linkToken(await verifyMail(email), '/register/verify');
    const owner = await makeUser(t.database, { email });
    const verified = await post('/auth/register/verify', { token });
    expect(verified.statusCode).toBe(400);
    expect(verified.headers.authorization).toBeUndefined();
    await login(t.app, owner.email, owner.password);
  });

  it('an existing tenant code is never taken: the new school gets a code of its own', async () => {
    const existing = await makeTenant(t.database, { tenantcode: 'namirembe-hill', name: 'Namirembe Hill' });
    const signedUp = await signUp(newAddress(), school('Namirembe Hill'));
    expect(signedUp.tenants).toHaveLength(1);
    expect(signedUp.tenants[0]?.tenantcode).not.toBe(existing.tenantcode);
    expect(signedUp.tenants[0]?.id).not.toBe(existing.id);
  });

  it('two schools of one name verified at once both exist, with codes of their own (never a 500)', async () => {
    const name = `Race ${Date.now().toString(36).slice(-6)}`;
    const emails = [newAddress(), newAddress()];
    for (const email of emails) expect((await registerAs(email, { organisation: school(name) })).statusCode).toBe(200);
    const tokens = await Promise.all(emails.map(async (email) => linkToken(await verifyMail(email), '/register/verify')));
    const answers = await Promise.all(tokens.map((token) => post('/auth/register/verify', { token })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const codes = answers.map((answer) => answer.json().tenants[0].tenantcode);
    expect(new Set(codes).size).toBe(2);
  });

  it('extra fields (is_admin, tenant_id, role, tenantcode) are refused, nothing registered', async () => {
    const email = newAddress();
    const attempts = [
      { person: { ...person(email), is_admin: true }, organisation: school() },
      { person: person(email), organisation: { ...school(), tenant_id: '00000000-0000-0000-0000-000000000001' } },
      { person: person(email), organisation: { ...school(), tenantcode: 'demo' } },
      { person: person(email), organisation: school(), role: SUPERADMIN_ROLE },
      { person: person(email), organisation: school(), next: 'https://evil.example/' },
    ];
    for (const body of attempts) {
      const response = await post('/auth/register', body);
      expect(response.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    expect(await t.database.db.selectFrom('registrations').select('id').where('email', '=', email).execute()).toEqual([]);
    // A verified sign-up makes a tenant administrator, never a platform one.
    const admin = newAddress();
    await signUp(admin);
    const user = await t.database.db.selectFrom('users').select('is_admin').where('email', '=', admin).executeTakeFirstOrThrow();
    expect(user.is_admin).toBe(false);
  });

  it('no route follows a redirect or next parameter anywhere: no Location in any answer', async () => {
    const email = newAddress();
    const answers = [
      await post('/auth/register/resend?next=https://evil.example/&redirect=https://evil.example/', { email }),
      await post('/auth/password/reset?next=https://evil.example/&redirect=//evil.example', { email }),
      await post('/auth/register/verify?redirect=https://evil.example/', { token: 'x'.repeat(43) }),
    ];
    for (const answer of answers) {
      expect(answer.headers.location).toBeUndefined();
      expect(answer.body).not.toContain('evil.example');
    }
  });
});

describe('tokens of one kind are good for nothing else', () => {
  it('a reset token does not verify a sign-up, a sign-up token does not reset, a sign-in code does neither, and back', async () => {
    const account = await makeUser(t.database, { email: newAddress() });
    expect((await post('/auth/password/reset', { email: account.email })).statusCode).toBe(200);
    const resetToken = linkToken(
      await smtp.waitFor((m) => m.to === account.email && m.subject === 'Reset your Mustard password'),
      '/auth/password/reset',
    );
    const pendingEmail = newAddress();
    expect((await registerAs(pendingEmail)).statusCode).toBe(200);
    const signUpToken = linkToken(await verifyMail(pendingEmail), '/register/verify');
    const signInCode = await issueSignInCode(t.database, account.id);

    const newPassword = 'Entebbe#2027x';
    for (const token of [signUpToken, signInCode]) {
      const reset = await post('/auth/password/reset/confirm', { token, password: newPassword });
      expect(reset.statusCode).toBe(422);
    }
    for (const token of [resetToken, signInCode]) {
      const verified = await post('/auth/register/verify', { token });
      expect(verified.statusCode).toBe(400);
      expect(verified.headers.authorization).toBeUndefined();
    }
    for (const code of [resetToken, signUpToken]) {
      const redeemed = await post('/auth/redeemcode', { code });
      expect(redeemed.statusCode).toBeGreaterThanOrEqual(400);
      expect(redeemed.headers.authorization).toBeUndefined();
    }
    // Each still works for its own purpose afterwards: nothing above spent it.
    expect((await post('/auth/password/reset/confirm', { token: resetToken, password: newPassword })).statusCode).toBe(200);
    expect((await post('/auth/register/verify', { token: signUpToken })).statusCode).toBe(200);
    // And once only.
    expect((await post('/auth/password/reset/confirm', { token: resetToken, password: 'Jinja#2028xy' })).statusCode).toBe(422);
    expect((await post('/auth/register/verify', { token: signUpToken })).statusCode).toBe(400);
  });

  it('a forged token (the hash, a truncated or padded real one) is refused', async () => {
    const account = await makeUser(t.database, { email: newAddress() });
    expect((await post('/auth/password/reset', { email: account.email })).statusCode).toBe(200);
    const token = linkToken(
      await smtp.waitFor((m) => m.to === account.email && m.subject === 'Reset your Mustard password'),
      '/auth/password/reset',
    );
    const stored = await t.database.db
      .selectFrom('one_time_codes')
      .select('code_hash')
      .where('user_id', '=', account.id)
      .executeTakeFirstOrThrow();
    for (const forged of [stored.code_hash, token.slice(0, -1), `${token}A`, token.toUpperCase(), ` ${token}`, `${token}%00`]) {
      const answer = await post('/auth/password/reset/confirm', { token: forged, password: 'Entebbe#2027x' });
      expect(answer.statusCode, forged).toBe(422);
    }
  });
});

describe('mail headers and markup cannot be forged', () => {
  const lineBreaks = [
    '\r\nBcc: thief@evil.example',
    '\nX-Injected: 1',
    '\u2028Bcc: thief@evil.example',
    '\u2029Cc: thief@evil.example',
    '\u0085Bcc: x@evil.example',
  ];

  it('a name with a line break or a unicode line separator is refused or delivered as one line, to one recipient', async () => {
    for (const tail of lineBreaks) {
      const email = newAddress();
      const response = await post('/auth/register', { person: person(email, `Grace${tail}`), organisation: school() });
      expect(response.statusCode, JSON.stringify(tail)).toBeLessThan(500);
      if (response.statusCode !== 200) continue;
      const mail = await verifyMail(email);
      expectOneRecipientNoExtraHeaders(mail, email);
    }
  });

  it('an address carrying a second recipient, a header or an encoded word is refused', async () => {
    const addresses = [
      'head@attack.ug\r\nBcc: thief@evil.example',
      'head@attack.ug,thief@evil.example',
      'head@attack.ug;thief@evil.example',
      '"head@attack.ug" <thief@evil.example>',
      '=?utf-8?Q?head=0D=0ABcc:thief@evil.example?=@attack.ug',
      'head@attack.ug\u2028Bcc: thief@evil.example',
      'head\u0000@attack.ug',
    ];
    for (const email of addresses) {
      for (const [url, body] of [
        ['/auth/register', { person: person(email), organisation: school() }],
        ['/auth/register/resend', { email }],
        ['/auth/password/reset', { email }],
      ] as const) {
        const response = await post(url, body);
        expect(response.statusCode, `${url} ${JSON.stringify(email)}`).toBeLessThan(500);
        if (url !== '/auth/password/reset') expect(response.statusCode, `${url} ${JSON.stringify(email)}`).toBeGreaterThanOrEqual(400);
      }
    }
    const forged = await t.database.db.selectFrom('mail_outbox').select('recipient').where('recipient', 'like', '%evil.example%').execute();
    expect(forged).toEqual([]);
  });

  it('a school and an inviter named with markup and line separators: invitation escaped, one line, one recipient', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const tenant = await makeTenant(t.database, { name: `${evil}\u2028B` });
    const head = await makeUser(t.database, {
      email: newAddress(),
      name: `Bad ${evil}\u2029Bcc: thief@evil.example`,
      memberOf: [{ tenantId: tenant.id, roles: [SUPERADMIN_ROLE] }],
    });
    const by = caller(t.app, await login(t.app, head.email), tenant.tenantcode);
    const invited = newAddress();
    const response = await by.post('/api/users', { name: 'Moses Okello', email: invited, roles: ['teacher'] });
    expect(response.statusCode, response.body).toBeLessThan(500);
    if (response.statusCode >= 300) return;
    const mail = await smtp.waitFor((m) => m.to === invited);
    expectOneRecipientNoExtraHeaders(mail, invited);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('a person named with markup gets it escaped in the verification mail', async () => {
    const email = newAddress();
    const name = '<img src=x onerror=alert(1)><a href="javascript:x">';
    expect((await post('/auth/register', { person: person(email, name), organisation: school() })).statusCode).toBe(200);
    const mail = await verifyMail(email);
    expect(mail.html).not.toMatch(/<img|javascript:x"/);
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('no enumeration, no limit dodged', () => {
  it('sign-up, resend and reset answer known and unknown addresses with the same status, body and headers', async () => {
    const known = await makeUser(t.database, { email: newAddress() });
    const unknown = newAddress();
    const shape = (answer: LightMyRequestResponse) => {
      const { date: _date, 'x-request-id': _id, 'x-ratelimit-remaining': _left, 'x-ratelimit-reset': _reset, ...headers } = answer.headers;
      return { status: answer.statusCode, body: answer.body, headers };
    };
    for (const [url, body] of [
      ['/auth/register', (email: string) => ({ person: person(email), organisation: school() })],
      ['/auth/register/resend', (email: string) => ({ email })],
      ['/auth/password/reset', (email: string) => ({ email })],
    ] as const) {
      const a = shape(await post(url, body(known.email)));
      const b = shape(await post(url, body(unknown)));
      expect(a, url).toEqual(b);
    }
  });

  it('case, spaces and dots around an address count as the address for the sign-up limit', async () => {
    const email = newAddress('limit.ug');
    const variants = [
      email,
      email.toUpperCase(),
      ` ${email} `,
      `\t${email.replace('head', 'Head')}`,
      email.replace('limit.ug', 'LIMIT.UG'),
    ];
    const statuses: number[] = [];
    for (const variant of variants) statuses.push((await registerAs(variant)).statusCode);
    // Three an hour an address, whatever it looks like.
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.slice(3).every((status) => status === 429 || (status >= 400 && status < 500))).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
  });

  it('a lookalike address (fullwidth or Cyrillic letters) is refused, not a new mailbox to flood', async () => {
    for (const email of ['ｈead@limit.ug', 'hеad@limit.ug', 'head@limit\u3002ug']) {
      const response = await registerAs(email);
      expect(response.statusCode, email).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, email).toBeLessThan(500);
    }
  });

  it('reset requests for one address from many clients send a bounded number of links', async () => {
    const account = await makeUser(t.database, { email: newAddress() });
    const variants = [account.email, account.email.toUpperCase(), ` ${account.email}`];
    const answers: number[] = [];
    for (let i = 0; i < 12; i += 1) answers.push((await post('/auth/password/reset', { email: variants[i % 3] })).statusCode);
    // Every request is answered as an unknown address would be; the inbox gets the hour's few messages.
    expect(answers).toEqual(Array(12).fill(200));
    const written = await t.database.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('recipient', '=', account.email)
      .where('template', '=', 'passwordReset')
      .execute();
    expect(written).toHaveLength(RESET_MAILS_PER_ADDRESS);
  });
});

describe('bad input is a 4xx, never a 500', () => {
  it('NUL bytes, huge fields and a huge body', async () => {
    const email = newAddress();
    const bodies: [string, unknown][] = [
      ['/auth/register', { person: person(email, 'Gr\u0000ace'), organisation: school() }],
      ['/auth/register', { person: person(email), organisation: school('Kis\u0000ubi') }],
      ['/auth/register', { person: person(email, 'x'.repeat(100_000)), organisation: school() }],
      ['/auth/register', { person: { ...person(email), password: `Aa1!${'x'.repeat(100_000)}` }, organisation: school() }],
      ['/auth/register', { person: person(email), organisation: school(), products: Array(10_000).fill('x') }],
      ['/auth/register/verify', { token: '\u0000'.repeat(40) }],
      ['/auth/register/verify', { token: 'x'.repeat(1_000_000) }],
      ['/auth/password/reset/confirm', { token: 'a\u0000b', password: 'Entebbe#2027x' }],
      ['/auth/password/reset', { email: `${'a'.repeat(10_000)}@x.ug` }],
      ['/auth/register/resend', { email: 'a\u0000@x.ug' }],
    ];
    for (const [url, body] of bodies) {
      const response = await post(url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body).slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${url} ${JSON.stringify(body).slice(0, 80)}`).toBeLessThan(500);
    }
    expect(await t.database.db.selectFrom('registrations').select('id').where('email', '=', email).execute()).toEqual([]);
  });
});
