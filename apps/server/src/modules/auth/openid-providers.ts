import * as openid from 'openid-client';

/*
 * Talking to an organisation's OpenID provider (openid-client): its discovery document, cached
 * per issuer, and the two steps of the code flow with PKCE (S256), state and nonce. openid-client
 * checks the answers: the state, the ID token's issuer, audience, nonce and lifetime.
 */

/** Issuers whose discovery documents are kept; the oldest goes first. */
const DISCOVERY_CACHE_LIMIT = 100;
/** How long a discovery document is trusted before it is read again (keys and endpoints may move). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** A provider that takes longer than this is unreachable, for the person waiting at /login. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** The provider could not be reached, or what answered is not an OpenID provider for that issuer. */
export class ProviderUnreachableError extends Error {}

export interface ProviderClient {
  issuer: string;
  client_id: string;
}

const discovered = new Map<string, { metadata: Promise<openid.ServerMetadata>; at: number }>();

/** Plain http is accepted only where the issuer's rule allows it (a provider on this machine). */
const overHttp = (issuer: string) => new URL(issuer).protocol === 'http:';

/** The issuer's discovery document: once per issuer and hour, one request however many ask at once. */
export function serverMetadata(issuer: string): Promise<openid.ServerMetadata> {
  const cached = discovered.get(issuer);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.metadata;
  const metadata = openid
    .discovery(new URL(issuer), 'mustard', undefined, undefined, {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      execute: overHttp(issuer) ? [openid.allowInsecureRequests] : [],
    })
    .then((configuration) => ({ ...configuration.serverMetadata() }))
    .catch((error: unknown) => {
      discovered.delete(issuer);
      throw new ProviderUnreachableError(`OpenID discovery of ${issuer} failed`, { cause: error });
    });
  discovered.delete(issuer);
  discovered.set(issuer, { metadata, at: Date.now() });
  for (const oldest of discovered.keys()) {
    if (discovered.size <= DISCOVERY_CACHE_LIMIT) break;
    discovered.delete(oldest);
  }
  return metadata;
}

async function configuration(provider: ProviderClient, clientSecret?: string): Promise<openid.Configuration> {
  const metadata = await serverMetadata(provider.issuer);
  // The secret goes in the body where the provider takes it there, else as HTTP Basic (the default of the standard).
  const inBody = metadata.token_endpoint_auth_methods_supported?.includes('client_secret_post') ?? false;
  const authentication =
    clientSecret === undefined ? undefined : inBody ? openid.ClientSecretPost(clientSecret) : openid.ClientSecretBasic(clientSecret);
  const config = new openid.Configuration(metadata, provider.client_id, undefined, authentication);
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (overHttp(provider.issuer)) openid.allowInsecureRequests(config);
  return config;
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Where to send the browser to sign in at the provider, and the checks its return must pass. */
export async function authorizationRequest(
  provider: ProviderClient,
  redirectUri: string,
  loginHint: string,
): Promise<AuthorizationRequest> {
  const config = await configuration(provider);
  const codeVerifier = openid.randomPKCECodeVerifier();
  const state = openid.randomState();
  const nonce = openid.randomNonce();
  const url = openid.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email',
    code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: loginHint,
  });
  return { url: url.href, state, nonce, codeVerifier };
}

/** The ID token's claims for the code the provider sent back (`callbackUrl`, our redirect URI with its query). */
export async function exchangeCode(
  provider: ProviderClient,
  clientSecret: string,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<Record<string, unknown>> {
  const config = await configuration(provider, clientSecret);
  const tokens = await openid.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  return { ...tokens.claims() };
}
