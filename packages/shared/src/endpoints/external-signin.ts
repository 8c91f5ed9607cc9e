import { z } from 'zod';
import { MessageResponseSchema } from '../schemas/common.js';
import {
  SigninDomainBodySchema,
  SigninDomainListSchema,
  SigninDomainQuerySchema,
  SigninDomainRecordSchema,
} from '../schemas/external-signin.js';
import { defineEndpoint } from './definition.js';

/*
 * External sign-in over OpenID Connect (issue 29 point 6). `/auth/type` (users.ts) answers a
 * configured domain with its provider's authorization URL; the provider sends the browser back
 * to the callback below, which answers a redirect to `/login?code=` (or `/login?external=<why>`).
 * The domains are the platform's, kept by a platform administrator (users.is_admin): the routes
 * are tenant routes like every /api route, and answer 403 to anyone else.
 */

/** Where the provider sends the browser back: a redirect to /login, never JSON. */
export const externalSignInCallbackEndpoint = defineEndpoint({
  method: 'GET',
  path: '/auth/external/callback',
  access: 'public',
  query: z.object({
    code: z.string().max(2000).optional(),
    state: z.string().max(500).optional(),
    error: z.string().max(500).optional(),
  }),
  response: 'file',
});

/** Every domain that signs in elsewhere, with its issuer and client id (never the secret). */
export const signinDomainsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/admin/signin-domains',
  access: 'member',
  response: SigninDomainListSchema,
});

/** Sets a domain's provider (added or replaced); the issuer must answer OpenID discovery. */
export const saveSigninDomainEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/admin/signin-domains',
  access: 'member',
  body: SigninDomainBodySchema,
  response: SigninDomainRecordSchema,
});

/** The domain signs in with passwords again; its sign-ins under way end. */
export const deleteSigninDomainEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/admin/signin-domains',
  access: 'member',
  query: SigninDomainQuerySchema,
  response: MessageResponseSchema,
});
