import {
  authTypeEndpoint,
  changePasswordEndpoint,
  loginEndpoint,
  logoutEndpoint,
  notifyMeEndpoint,
  redeemCodeEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.js';
import { endpointRoute } from '../../plugins/endpoints.js';
import { changePassword, loginWithPassword, logout, noteLaunchInterest, redeemSignInCode } from './auth.service.js';
import { authType } from './external-signin.service.js';
import { authDeps, guessLimit, sendSignedIn } from './routing.js';

/** Signing in and out, and the password (contracts in shared endpoints/auth.ts). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = authDeps(app);
  const limit = guessLimit(app);

  endpointRoute(app, authTypeEndpoint, async ({ body }) => authType(deps, body), limit);

  endpointRoute(app, notifyMeEndpoint, ({ body }) => noteLaunchInterest(deps.db, body), limit);

  endpointRoute(
    app,
    loginEndpoint,
    async ({ body }, request, reply) => sendSignedIn(reply, await loginWithPassword(deps, { ...body.user, ip: request.ip })),
    limit,
  );

  endpointRoute(
    app,
    redeemCodeEndpoint,
    async ({ body }, request, reply) => sendSignedIn(reply, await redeemSignInCode(deps, { code: body.code, ip: request.ip })),
    limit,
  );

  endpointRoute(app, logoutEndpoint, (_input, request) =>
    logout(deps.db, { userId: currentUser(request).id, sessionId: request.sessionId, ip: request.ip }),
  );

  endpointRoute(
    app,
    changePasswordEndpoint,
    async ({ body }, request, reply) =>
      sendSignedIn(reply, await changePassword(deps, { ...body, userId: currentUser(request).id, ip: request.ip })),
    limit,
  );
};
