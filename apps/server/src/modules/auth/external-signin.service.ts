import {
  type AuthTypeResponse,
  type ExternalSignInFailure,
  externalSignInCallbackEndpoint,
  LOGIN_MESSAGES,
  SIGNIN_DOMAIN_MESSAGES,
  type SigninDomain,
  type SigninDomainInput,
} from '@mustard/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { AppError, forbidden, invalid, notFound } from '../../errors.js';
import { findUserByEmail, hashCode, recordAuthEvent } from './auth.repository.js';
import { type AuthDeps, issueSignInCode } from './auth.service.js';
import {
  consumeAttempt,
  deleteProvider,
  findProvider,
  insertAttempt,
  listProviders,
  updateProviderKeepingSecret,
  upsertProvider,
} from './external-signin.repository.js';
import { authorizationRequest, exchangeCode, ProviderUnreachableError, serverMetadata } from './openid-providers.js';
import { openSecret, sealSecret } from './secret-box.js';

/*
 * External sign-in over OpenID Connect (issue 29 point 6; spec §4). A domain a platform
 * administrator has set signs in at its organisation's provider: `/auth/type` answers the
 * provider's authorization URL, and the provider sends the browser back to the callback, which
 * turns the verified ID token's e-mail into a one-time code for /login?code= (the code of
 * security.md item 13). Only people who already have an account here sign in this way: no
 * account is made, and the e-mail must be verified and of the provider's own domain, so one
 * school's provider cannot sign anyone in as another school's teacher.
 */

/** A sign-in under way lives at most this long, like the one-time code it ends in. */
export const EXTERNAL_SIGNIN_TTL_SECONDS = 10 * 60;

/** What external sign-in needs besides the database: the secrets key and this server's address. */
export interface ExternalSignInKeys {
  secretsKey: Uint8Array;
  /** The address people reach this server at (config.publicUrl): the base of the redirect URI. */
  publicUrl: string;
}

type Deps = Pick<AuthDeps, 'db' | 'externalSignIn'>;

const domainOf = (email: string) => email.trim().toLowerCase().split('@').pop() ?? '';
/** What a client secret is sealed for: its domain, so a sealed secret opens on its own row alone. */
const sealedFor = (domain: string) => `external-signin:${domain}`;
const redirectUri = (keys: ExternalSignInKeys) => `${keys.publicUrl}${externalSignInCallbackEndpoint.path}`;

/**
 * Whether the e-mail signs in here with a password, or at its domain's provider (spec §4). The
 * answer depends on the domain alone: known and unknown people of a domain get the same.
 */
export async function authType(deps: Deps, input: { email: string }): Promise<AuthTypeResponse> {
  const domain = domainOf(input.email);
  const provider = await findProvider(deps.db, domain);
  if (!provider) return { type: 'password', url: '' };
  let request: Awaited<ReturnType<typeof authorizationRequest>>;
  try {
    request = await authorizationRequest(provider, redirectUri(deps.externalSignIn), input.email.trim());
  } catch (error) {
    if (error instanceof ProviderUnreachableError) throw new AppError(502, LOGIN_MESSAGES.externalUnreachable);
    throw error;
  }
  await insertAttempt(deps.db, {
    state_hash: hashCode(request.state),
    domain,
    nonce: request.nonce,
    code_verifier: request.codeVerifier,
    ttlSeconds: EXTERNAL_SIGNIN_TTL_SECONDS,
  });
  return { type: 'redirect', url: request.url };
}

export interface CallbackOutcome {
  /** Where the browser goes: /login?code=… or /login?external=<reason>. */
  location: string;
  /** Why the provider's part failed, for the server's log (never shown to the person). */
  problem?: unknown;
}

/**
 * The provider's return: the sign-in under way is looked up by its state (once, unexpired), the
 * code exchanged with its PKCE verifier, the ID token checked (issuer, audience, nonce), then the
 * e-mail must be verified, of the provider's domain and an enabled account's. Every failure sends
 * the browser back to /login saying which.
 */
export async function finishExternalSignIn(deps: Deps, input: { query: string; ip: string }): Promise<CallbackOutcome> {
  const { db } = deps;
  const failed = async (reason: ExternalSignInFailure, details: { email?: string; problem?: unknown } = {}) => {
    await recordAuthEvent(db, 'external_failed', { email: details.email ?? null, ip: input.ip });
    return { location: `/login?external=${reason}`, problem: details.problem };
  };
  const callbackUrl = new URL(`${redirectUri(deps.externalSignIn)}${input.query}`);
  const state = callbackUrl.searchParams.get('state');
  const attempt = state ? await consumeAttempt(db, hashCode(state)) : undefined;
  if (!state || !attempt) return failed('state');
  if (!attempt.live) return failed('expired');
  const provider = await findProvider(db, attempt.domain);
  if (!provider) return failed('state');
  const secret = openSecret(deps.externalSignIn.secretsKey, sealedFor(provider.domain), provider.client_secret_sealed);
  if (secret === null)
    return failed('provider', {
      problem: new Error(`the client secret of ${provider.domain} does not open with this server's secrets key`),
    });
  let claims: Record<string, unknown>;
  try {
    claims = await exchangeCode(provider, secret, callbackUrl, { state, nonce: attempt.nonce, codeVerifier: attempt.code_verifier });
  } catch (problem) {
    return failed('provider', { problem });
  }
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email || claims.email_verified !== true) return failed('unverified', { email });
  if (domainOf(email) !== provider.domain) return failed('domain', { email });
  const user = await findUserByEmail(db, email);
  if (!user || user.disabled_at) return failed('account', { email });
  const code = await issueSignInCode({ db }, user.id);
  await recordAuthEvent(db, 'external_signin', { userId: user.id, email, ip: input.ip });
  return { location: `/login?code=${encodeURIComponent(code)}` };
}

// The platform administrator's list of domains (users.is_admin; a school's administrator is not one).

function refuseAllButPlatformAdmin(actor: { is_admin: boolean }) {
  if (!actor.is_admin) throw forbidden();
}

const shown = (row: { domain: string; issuer: string; client_id: string; updated_at: Date }): SigninDomain => ({
  domain: row.domain,
  issuer: row.issuer,
  client_id: row.client_id,
  updated_at: row.updated_at.toISOString(),
});

export async function listSigninDomains(db: Kysely<DB>, actor: { is_admin: boolean }) {
  refuseAllButPlatformAdmin(actor);
  return { domains: (await listProviders(db)).map(shown) };
}

/**
 * Sets the domain's provider. The issuer must answer OpenID discovery now, so a mistyped one is
 * named at once rather than at the first teacher's sign-in. A blank secret keeps the stored one.
 */
export async function saveSigninDomain(deps: Deps, actor: { is_admin: boolean }, input: SigninDomainInput): Promise<SigninDomain> {
  refuseAllButPlatformAdmin(actor);
  const { domain, issuer, client_id, client_secret } = input;
  try {
    await serverMetadata(issuer);
  } catch (error) {
    if (error instanceof ProviderUnreachableError) throw invalid({ issuer: [SIGNIN_DOMAIN_MESSAGES.issuerUnreachable] });
    throw error;
  }
  const row = client_secret
    ? await upsertProvider(deps.db, {
        domain,
        issuer,
        client_id,
        client_secret_sealed: sealSecret(deps.externalSignIn.secretsKey, sealedFor(domain), client_secret),
      })
    : await updateProviderKeepingSecret(deps.db, { domain, issuer, client_id });
  if (!row) throw invalid({ client_secret: [SIGNIN_DOMAIN_MESSAGES.secretRequired] });
  return shown(row);
}

export async function deleteSigninDomain(db: Kysely<DB>, actor: { is_admin: boolean }, domain: string) {
  refuseAllButPlatformAdmin(actor);
  if (!(await deleteProvider(db, domain))) throw notFound();
  return { message: SIGNIN_DOMAIN_MESSAGES.removed };
}
