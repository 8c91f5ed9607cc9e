import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID provider for tests (oidc-provider), on a free port of this machine: one client
 * (its secret sent in the body, PKCE required) and accounts whose claims the test sets (email,
 * email_verified). The person's part at the provider is its development login form, which takes
 * any account id; consent is taken as given.
 */
export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's accounts by account id: the claims its ID token carries. */
  accounts: Map<string, { email: string; email_verified: boolean }>;
  /**
   * Signs `accountId` in from the authorization URL as a browser would (cookies kept) and
   * answers where the provider sends the browser back: the redirect URI with its query.
   */
  signIn(authorizationUrl: string, accountId: string): Promise<string>;
  close(): Promise<void>;
}

export async function startOpenIdProvider(redirectUri: string): Promise<TestOpenIdProvider> {
  let handle: (request: IncomingMessage, response: ServerResponse) => void = () => {};
  const server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'mustard-test-client';
  const clientSecret = 'provider-client-secret-0123456789abcdef';
  const accounts = new Map<string, { email: string; email_verified: boolean }>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The e-mail in the ID token itself, as Google and Microsoft put it there.
    conformIdTokenClaims: false,
    findAccount: async (_context, sub) => ({ accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) }),
    loadExistingGrant: async (context: KoaContextWithOIDC) => {
      const grant = new context.oidc.provider.Grant({
        clientId: context.oidc.client?.clientId,
        accountId: context.oidc.session?.accountId,
      });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  handle = provider.callback();

  async function signIn(authorizationUrl: string, accountId: string): Promise<string> {
    const cookies = new Map<string, string>();
    const step = async (url: string, init: RequestInit = {}) => {
      const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(new URL(url, issuer), { ...init, redirect: 'manual', headers: { ...init.headers, cookie } });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (!location) throw new Error(`the provider answered ${response.status} at ${url}: ${await response.text()}`);
      return location;
    };
    const interaction = await step(authorizationUrl);
    const resume = await step(interaction, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login: accountId, password: 'any' }).toString(),
    });
    return step(resume);
  }

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signIn,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
