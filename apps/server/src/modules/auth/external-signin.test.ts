import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOGIN_MESSAGES, SIGNIN_DOMAIN_MESSAGES } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/factories.js';
import { startOpenIdProvider, type TestOpenIdProvider } from '../../test/openid-provider.js';
import { buildTestApp, type Caller, caller, login, type TestApp, tokenOf } from '../../test/test-app.js';
import { upsertProvider } from './external-signin.repository.js';

/*
 * External sign-in over OpenID Connect (issue 29 point 6) against a real OpenID provider started
 * here (test/openid-provider.ts): one client, and accounts whose claims each test sets (email,
 * email_verified). The person's part at the provider is its login form, posted as a browser would.
 */

const DOMAIN = 'sso-school.ug';
const PUBLIC_URL = 'http://mustard.test';
const CALLBACK = `${PUBLIC_URL}/auth/external/callback`;

let provider: TestOpenIdProvider;
let issuer: string;
let t: TestApp;
let platformAdmin: Caller;
let headteacher: Caller;
let school: { id: string; tenantcode: string };
let teacher: { id: string; email: string };

/** Signs `accountId` in at the provider and answers the callback's query (`?code=…&state=…&iss=…`). */
async function signInAtProvider(authorizationUrl: string, accountId: string): Promise<string> {
  const back = await provider.signIn(authorizationUrl, accountId);
  expect(back.startsWith(`${CALLBACK}?`)).toBe(true);
  return back.slice(CALLBACK.length);
}

async function startSignIn(email: string): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email } });
  expect(response.statusCode).toBe(200);
  const answer = response.json();
  expect(answer.type).toBe('redirect');
  return answer.url;
}

async function callback(query: string) {
  const response = await t.app.inject({ method: 'GET', url: `/auth/external/callback${query}` });
  expect(response.statusCode).toBe(302);
  return response.headers.location as string;
}

/** The whole round: /auth/type, the provider's sign-in as `accountId`, the callback; answers where it sent the browser. */
async function signInAs(accountId: string, claims: { email: string; email_verified: boolean }, typed = claims.email) {
  provider.accounts.set(accountId, claims);
  return callback(await signInAtProvider(await startSignIn(typed), accountId));
}

beforeAll(async () => {
  provider = await startOpenIdProvider(CALLBACK);
  issuer = provider.issuer;
  t = await buildTestApp({ publicUrl: PUBLIC_URL });
  school = await makeTenant(t.database, { name: 'Kampala Parents School' });
  teacher = await makeUser(t.database, {
    email: `grace@${DOMAIN}`,
    name: 'Grace Nakato',
    memberOf: [{ tenantId: school.id, roles: ['teacher'] }],
  });
  const admin = await makeUser(t.database, { isAdmin: true, memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
  platformAdmin = caller(t.app, await login(t.app, admin.email), school.tenantcode);
  headteacher = caller(t.app, await login(t.app, head.email), school.tenantcode);
  const saved = await platformAdmin.put('/api/admin/signin-domains', {
    domain: DOMAIN.toUpperCase(),
    issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
  });
  expect(saved.statusCode, saved.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
  await provider?.close();
});

describe('the platform administrator’s sign-in domains', () => {
  it('keeps the client secret sealed in the table and never answers it', async () => {
    const row = await t.database.db
      .selectFrom('external_signin_providers')
      .selectAll()
      .where('domain', '=', DOMAIN)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ domain: DOMAIN, issuer, client_id: provider.clientId });
    expect(row.client_secret_sealed).not.toContain(provider.clientSecret);
    expect(row.client_secret_sealed).not.toContain(Buffer.from(provider.clientSecret).toString('base64url').slice(0, 12));
    const list = await platformAdmin.get('/api/admin/signin-domains');
    expect(list.statusCode).toBe(200);
    expect(list.json().domains).toEqual([{ domain: DOMAIN, issuer, client_id: provider.clientId, updated_at: expect.any(String) }]);
    expect(list.body).not.toContain(provider.clientSecret);
    expect(list.body).not.toContain(row.client_secret_sealed);
    // Saved again without a secret: the issuer and client id change, the sealed secret stays.
    const again = await platformAdmin.put('/api/admin/signin-domains', {
      domain: DOMAIN,
      issuer,
      client_id: provider.clientId,
      client_secret: '',
    });
    expect(again.statusCode).toBe(200);
    expect(again.body).not.toContain(provider.clientSecret);
    const after = await t.database.db
      .selectFrom('external_signin_providers')
      .select('client_secret_sealed')
      .where('domain', '=', DOMAIN)
      .executeTakeFirstOrThrow();
    expect(after.client_secret_sealed).toBe(row.client_secret_sealed);
  });

  it('refuses anyone but a platform administrator, a school’s own administrator too (403), and changes nothing', async () => {
    for (const response of [
      await headteacher.get('/api/admin/signin-domains'),
      await headteacher.put('/api/admin/signin-domains', { domain: 'other-school.ug', issuer, client_id: 'x', client_secret: 'y' }),
      await headteacher.delete(`/api/admin/signin-domains?domain=${DOMAIN}`),
    ]) {
      expect(response.statusCode).toBe(403);
    }
    const domains = await t.database.db.selectFrom('external_signin_providers').select('domain').execute();
    expect(domains).toEqual([{ domain: DOMAIN }]);
  });

  it('names what is wrong: a new domain without a secret, an issuer that is no OpenID provider, a malformed issuer or domain', async () => {
    const noSecret = await platformAdmin.put('/api/admin/signin-domains', { domain: 'new-school.ug', issuer, client_id: 'x' });
    expect(noSecret.statusCode).toBe(422);
    expect(noSecret.json().errors).toEqual({ client_secret: [SIGNIN_DOMAIN_MESSAGES.secretRequired] });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nobody = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await platformAdmin.put('/api/admin/signin-domains', {
      domain: 'new-school.ug',
      issuer: nobody,
      client_id: 'x',
      client_secret: 'y',
    });
    expect(unreachable.statusCode).toBe(422);
    expect(unreachable.json().errors).toEqual({ issuer: [SIGNIN_DOMAIN_MESSAGES.issuerUnreachable] });
    const plainHttp = await platformAdmin.put('/api/admin/signin-domains', {
      domain: 'new-school.ug',
      issuer: 'http://login.example.com',
      client_id: 'x',
      client_secret: 'y',
    });
    expect(plainHttp.json().errors).toEqual({ issuer: [SIGNIN_DOMAIN_MESSAGES.issuerInvalid] });
    const badDomain = await platformAdmin.put('/api/admin/signin-domains', {
      domain: 'not a domain',
      issuer,
      client_id: 'x',
      client_secret: 'y',
    });
    expect(badDomain.statusCode).toBe(422);
    expect(Object.keys(badDomain.json().errors)).toEqual(['domain']);
    expect(await platformAdmin.delete('/api/admin/signin-domains?domain=never-set.ug')).toMatchObject({ statusCode: 404 });
    const domains = await t.database.db.selectFrom('external_signin_providers').select('domain').execute();
    expect(domains).toEqual([{ domain: DOMAIN }]);
  });
});

describe('POST /auth/type', () => {
  it('answers the provider’s authorization URL (code flow, PKCE S256, state, nonce) for the domain, the same for known and unknown people', async () => {
    const known = new URL(await startSignIn(teacher.email.toUpperCase()));
    const unknown = new URL(await startSignIn(`nobody@${DOMAIN}`));
    for (const url of [known, unknown]) {
      expect(url.origin).toBe(issuer);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: provider.clientId,
        response_type: 'code',
        redirect_uri: CALLBACK,
        code_challenge_method: 'S256',
        scope: 'openid email',
      });
      for (const check of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(check)?.length).toBeGreaterThanOrEqual(43);
    }
    expect(known.searchParams.get('state')).not.toBe(unknown.searchParams.get('state'));
    expect([...known.searchParams.keys()].sort()).toEqual([...unknown.searchParams.keys()].sort());
    // Only the hash of the state is kept.
    const stored = await t.database.db.selectFrom('external_signin_attempts').select('state_hash').execute();
    expect(stored.map((row) => row.state_hash)).not.toContain(known.searchParams.get('state'));
  });

  it('answers password, exactly as before, for a domain without a provider', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: 'head@other-school.ug' } });
    expect(response.json()).toEqual({ type: 'password', url: '' });
  });

  it('answers 502 with a clear message when the domain’s provider cannot be reached', async () => {
    await upsertProvider(t.database.db, {
      domain: 'down-school.ug',
      issuer: 'http://127.0.0.1:9',
      client_id: 'x',
      client_secret_sealed: 'v1.x.x.x',
    });
    const response = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: 'head@down-school.ug' } });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe(LOGIN_MESSAGES.externalUnreachable);
    await t.database.db.deleteFrom('external_signin_providers').where('domain', '=', 'down-school.ug').execute();
  });
});

describe('GET /auth/external/callback', () => {
  it('signs a verified teacher of the domain in: a one-time code for /login, redeemed into a session', async () => {
    const location = await signInAs('grace', { email: teacher.email, email_verified: true });
    expect(location).toMatch(/^\/login\?code=[\w-]{43}$/);
    const code = new URLSearchParams(location.split('?')[1]).get('code');
    const redeemed = await t.app.inject({ method: 'POST', url: '/auth/redeemcode', payload: { code } });
    expect(redeemed.statusCode).toBe(200);
    expect(redeemed.json()).toMatchObject({ email: teacher.email });
    const profile = await caller(t.app, tokenOf(redeemed), school.tenantcode).get('/api/users/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ id: teacher.id, email: teacher.email });
    // The code is single use.
    const twice = await t.app.inject({ method: 'POST', url: '/auth/redeemcode', payload: { code } });
    expect(twice.statusCode).toBe(401);
  });

  it('refuses a state it did not give out, and a callback replayed', async () => {
    provider.accounts.set('grace', { email: teacher.email, email_verified: true });
    const query = await signInAtProvider(await startSignIn(teacher.email), 'grace');
    const forged = new URLSearchParams(query.slice(1));
    forged.set('state', 'a-state-mustard-never-gave-out-0123456789abc');
    expect(await callback(`?${forged}`)).toBe('/login?external=state');
    expect(await callback(query)).toMatch(/^\/login\?code=/);
    expect(await callback(query)).toBe('/login?external=state');
    expect(await callback('')).toBe('/login?external=state');
  });

  it('refuses a code used once already, brought back with a new sign-in’s state (the provider refuses it)', async () => {
    provider.accounts.set('grace', { email: teacher.email, email_verified: true });
    const first = new URLSearchParams((await signInAtProvider(await startSignIn(teacher.email), 'grace')).slice(1));
    expect(await callback(`?${first}`)).toMatch(/^\/login\?code=/);
    const fresh = new URL(await startSignIn(teacher.email));
    const replay = new URLSearchParams(first);
    replay.set('state', fresh.searchParams.get('state') ?? '');
    expect(await callback(`?${replay}`)).toBe('/login?external=provider');
  });

  it('refuses a sign-in that took longer than ten minutes', async () => {
    provider.accounts.set('grace', { email: teacher.email, email_verified: true });
    const query = await signInAtProvider(await startSignIn(teacher.email), 'grace');
    await t.database.db
      .updateTable('external_signin_attempts')
      .set({ expires_at: sql<Date>`created_at - interval '1 second'` })
      .where('used_at', 'is', null)
      .execute();
    expect(await callback(query)).toBe('/login?external=expired');
  });

  it('refuses an e-mail the provider has not verified', async () => {
    expect(await signInAs('grace-unverified', { email: teacher.email, email_verified: false })).toBe('/login?external=unverified');
  });

  it('refuses an e-mail of another domain, even one with an account here', async () => {
    const elsewhere = await makeUser(t.database, {
      email: 'grace@other-school.ug',
      memberOf: [{ tenantId: school.id, roles: ['teacher'] }],
    });
    expect(await signInAs('other-domain', { email: elsewhere.email, email_verified: true }, teacher.email)).toBe('/login?external=domain');
  });

  it('makes no account: a verified e-mail of the domain with no account here, or a disabled one, is refused', async () => {
    expect(await signInAs('stranger', { email: `stranger@${DOMAIN}`, email_verified: true })).toBe('/login?external=account');
    const disabled = await makeUser(t.database, { email: `gone@${DOMAIN}`, memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    await t.database.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', disabled.id).execute();
    expect(await signInAs('gone', { email: disabled.email, email_verified: true })).toBe('/login?external=account');
    const users = await t.database.db.selectFrom('users').select('email').where('email', '=', `stranger@${DOMAIN}`).execute();
    expect(users).toEqual([]);
  });

  it('ends the domain’s sign-ins under way when the domain is removed', async () => {
    provider.accounts.set('grace', { email: teacher.email, email_verified: true });
    const query = await signInAtProvider(await startSignIn(teacher.email), 'grace');
    const removed = await platformAdmin.delete(`/api/admin/signin-domains?domain=${DOMAIN}`);
    expect(removed.statusCode).toBe(200);
    expect(await callback(query)).toBe('/login?external=state');
    const after = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: teacher.email } });
    expect(after.json()).toEqual({ type: 'password', url: '' });
  });
});
