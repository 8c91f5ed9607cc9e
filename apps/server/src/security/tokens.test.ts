import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TENANT_HEADER } from '@mustard/shared';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, resolveJwtSecret } from '../config.js';
import { makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, login, type TestApp } from '../test/test-app.js';

/**
 * security.md item 9: the token is HS256 with the server's secret, `exp`, `iss` and `aud`; any
 * forged, expired or malformed token is answered 401 "Please login" on a tenant route.
 * Each forgery below differs from a token the server accepts (the control) in one thing only.
 */

let t: TestApp;
let school: { id: string; tenantcode: string };
let teacher: { id: string; email: string };
let other: { id: string; email: string };
let realToken: string;
let sessionId: string;

const nowSeconds = () => Math.floor(Date.now() / 1000);

interface Forgery {
  alg?: string;
  secret?: Uint8Array;
  sub?: string;
  sid?: string;
  iss?: string;
  /** null leaves the claim out. */
  aud?: string | null;
  /** Seconds since the epoch; null leaves the claim out. */
  exp?: number | null;
  iat?: number | null;
}

/** A token made like the server's own (signToken), with the given differences. */
async function craft(forgery: Forgery = {}): Promise<string> {
  const jwt = new SignJWT({ sid: forgery.sid ?? sessionId })
    .setProtectedHeader({ alg: forgery.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(forgery.sub ?? teacher.id)
    .setIssuer(forgery.iss ?? 'mustard');
  if (forgery.aud !== null) jwt.setAudience(forgery.aud ?? 'mustard-web');
  if (forgery.iat !== null) jwt.setIssuedAt(forgery.iat ?? nowSeconds());
  if (forgery.exp !== null) jwt.setExpirationTime(forgery.exp ?? nowSeconds() + 3600);
  return jwt.sign(forgery.secret ?? t.config.jwtSecret);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function profileWith(authorization: string | undefined) {
  return t.app.inject({
    method: 'GET',
    url: '/api/users/profile',
    headers: { [TENANT_HEADER]: school.tenantcode, ...(authorization === undefined ? {} : { authorization }) },
  });
}

async function expectPleaseLogin(token: string) {
  const response = await profileWith(`Bearer ${token}`);
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({ statusCode: 401, message: 'Please login' });
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database);
  teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  other = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  realToken = await login(t.app, teacher.email);
  sessionId = decodeJwt(realToken).sid as string;
});
afterAll(() => t.close());

describe('tokens the server accepts (the controls)', () => {
  it('accepts its own token, whose claims are sub, sid, iss, aud, iat, exp with alg HS256', async () => {
    const [header] = realToken.split('.');
    expect(JSON.parse(Buffer.from(header as string, 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    const claims = decodeJwt(realToken);
    expect(claims).toMatchObject({ sub: teacher.id, iss: 'mustard', aud: 'mustard-web' });
    const session = await t.database.db.selectFrom('sessions').select(['id', 'user_id']).where('id', '=', sessionId).executeTakeFirst();
    expect(session).toEqual({ id: sessionId, user_id: teacher.id });
    const response = await profileWith(`Bearer ${realToken}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(teacher.id);
  });

  it('accepts a token crafted here like the server’s, so each forgery differs in one thing only', async () => {
    const response = await profileWith(`Bearer ${await craft()}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(teacher.id);
  });
});

describe('forged, expired and malformed tokens -> 401 "Please login"', () => {
  it('alg none (an unsigned token)', async () => {
    const token = new UnsecuredJWT({ sid: sessionId })
      .setSubject(teacher.id)
      .setIssuer('mustard')
      .setAudience('mustard-web')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    expect(token.endsWith('.')).toBe(true);
    await expectPleaseLogin(token);
    // The same unsigned token with a made-up signature, and with alg "None" / "nOnE".
    await expectPleaseLogin(`${token}${b64('x')}`);
    const [, payload] = token.split('.');
    await expectPleaseLogin(`${b64({ alg: 'None', typ: 'JWT' })}.${payload}.`);
    await expectPleaseLogin(`${b64({ alg: 'nOnE', typ: 'JWT' })}.${payload}.`);
  });

  it('alg swap: HS384 and HS512 signed with the server’s own secret', async () => {
    await expectPleaseLogin(await craft({ alg: 'HS384' }));
    await expectPleaseLogin(await craft({ alg: 'HS512' }));
  });

  it('alg swap: an RS256 header, signed with an RSA key, and with an HMAC of the server’s secret', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsa = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setSubject(teacher.id)
      .setIssuer('mustard')
      .setAudience('mustard-web')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    await expectPleaseLogin(rsa);

    // The classic key confusion: header says RS256, signature is an HMAC with the secret.
    const [, payload] = (await craft()).split('.');
    const signingInput = `${b64({ alg: 'RS256', typ: 'JWT' })}.${payload}`;
    const hmac = createHmac('sha256', t.config.jwtSecret).update(signingInput).digest('base64url');
    await expectPleaseLogin(`${signingInput}.${hmac}`);
    // And the control: the same payload and HMAC under an HS256 header is accepted.
    const hsInput = `${b64({ alg: 'HS256', typ: 'JWT' })}.${payload}`;
    const hsSignature = createHmac('sha256', t.config.jwtSecret).update(hsInput).digest('base64url');
    expect((await profileWith(`Bearer ${hsInput}.${hsSignature}`)).statusCode).toBe(200);
  });

  it('no exp', async () => {
    await expectPleaseLogin(await craft({ exp: null }));
  });

  it('no iat', async () => {
    await expectPleaseLogin(await craft({ iat: null }));
  });

  it('expired (a minute ago), though the session itself is live', async () => {
    await expectPleaseLogin(await craft({ exp: nowSeconds() - 60, iat: nowSeconds() - 3600 }));
  });

  it('wrong aud, and no aud', async () => {
    await expectPleaseLogin(await craft({ aud: 'mustard-mobile' }));
    await expectPleaseLogin(await craft({ aud: 'Mustard-Web' }));
    await expectPleaseLogin(await craft({ aud: null }));
  });

  it('wrong iss', async () => {
    await expectPleaseLogin(await craft({ iss: 'evil' }));
    await expectPleaseLogin(await craft({ iss: 'mustard ' }));
  });

  it('tampered payload: sub changed to another user, signature kept', async () => {
    const [header, payload, signature] = realToken.split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    const tampered = `${header}.${b64({ ...claims, sub: other.id })}.${signature}`;
    await expectPleaseLogin(tampered);
    // Tampered exp (extending the lifetime) as well.
    await expectPleaseLogin(`${header}.${b64({ ...claims, exp: claims.exp + 86_400 })}.${signature}`);
  });

  it('a properly signed token whose sub is another user but whose sid is this user’s session', async () => {
    await expectPleaseLogin(await craft({ sub: other.id }));
  });

  it('a properly signed token naming a session that does not exist', async () => {
    await expectPleaseLogin(await craft({ sid: '0190f0f0-0000-7000-8000-000000000000' }));
  });

  it('signed with another secret', async () => {
    await expectPleaseLogin(await craft({ secret: new Uint8Array(randomBytes(32)) }));
    // A secret that differs in its last byte only.
    const near = new Uint8Array(t.config.jwtSecret);
    near[near.length - 1] = ((near[near.length - 1] ?? 0) + 1) % 256;
    await expectPleaseLogin(await craft({ secret: near }));
  });

  it('garbage and malformed values', async () => {
    for (const value of ['garbage', 'a.b.c', 'eyJ.eyJ.eyJ', '...', `${realToken}x`, realToken.split('.').slice(0, 2).join('.')]) {
      await expectPleaseLogin(value);
    }
    for (const authorization of ['', 'Bearer ', 'Bearer', `Basic ${Buffer.from('a:b').toString('base64')}`]) {
      const response = await profileWith(authorization);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: 401, message: 'Please login' });
    }
    const none = await profileWith(undefined);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ statusCode: 401, message: 'Please login' });
  });

  it('a revoked session’s token, and a disabled account’s token', async () => {
    const person = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const token = await login(t.app, person.email);
    const sid = decodeJwt(token).sid as string;
    expect((await profileWith(`Bearer ${token}`)).statusCode).toBe(200);
    await t.database.db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sid).execute();
    await expectPleaseLogin(token);

    const disabled = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const disabledToken = await login(t.app, disabled.email);
    expect((await profileWith(`Bearer ${disabledToken}`)).statusCode).toBe(200);
    await t.database.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', disabled.id).execute();
    await expectPleaseLogin(disabledToken);
  });
});

describe('the signing secret (item 9)', () => {
  it('refuses a JWT_SECRET shorter than 256 bits and accepts one of 32 bytes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mustard-secret-'));
    expect(() => resolveJwtSecret('x'.repeat(31), dir)).toThrow(ConfigError);
    expect(() => resolveJwtSecret('', dir)).toThrow(ConfigError);
    expect(resolveJwtSecret('y'.repeat(32), dir)).toHaveLength(32);
  });

  it('generates a random secret of at least 256 bits when none is configured, the same on the next start', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mustard-secret-'));
    const first = resolveJwtSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(resolveJwtSecret(undefined, dir)).equals(Buffer.from(first))).toBe(true);
    const another = resolveJwtSecret(undefined, mkdtempSync(path.join(tmpdir(), 'mustard-secret-')));
    expect(Buffer.from(another).equals(Buffer.from(first))).toBe(false);
  });
});
