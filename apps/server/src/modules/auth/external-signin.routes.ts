import {
  deleteSigninDomainEndpoint,
  externalSignInCallbackEndpoint,
  saveSigninDomainEndpoint,
  signinDomainsEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.js';
import { endpointRoute, RedirectAnswer } from '../../plugins/endpoints.js';
import { deleteSigninDomain, finishExternalSignIn, listSigninDomains, saveSigninDomain } from './external-signin.service.js';
import { authDeps, guessLimit } from './routing.js';

/**
 * External sign-in over OpenID Connect (contracts in shared endpoints/external-signin.ts): the
 * provider's return, and the platform administrator's domains. `/auth/type` is in auth.routes.ts.
 */
export const externalSignInRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = authDeps(app);

  endpointRoute(
    app,
    externalSignInCallbackEndpoint,
    async (_input, request) => {
      // The query exactly as the provider sent it (code, state, iss, …): openid-client checks it whole.
      const at = request.url.indexOf('?');
      const query = at < 0 ? '' : request.url.slice(at);
      const outcome = await finishExternalSignIn(deps, { query, ip: request.ip });
      if (outcome.problem) request.log.warn({ err: outcome.problem }, 'external sign-in failed at the provider');
      return new RedirectAnswer(outcome.location);
    },
    guessLimit(app),
  );

  endpointRoute(app, signinDomainsEndpoint, async (_input, request) => listSigninDomains(deps.db, currentUser(request)));

  endpointRoute(app, saveSigninDomainEndpoint, async ({ body }, request) => saveSigninDomain(deps, currentUser(request), body));

  endpointRoute(app, deleteSigninDomainEndpoint, async ({ query }, request) =>
    deleteSigninDomain(deps.db, currentUser(request), query.domain),
  );
};
