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
import { authType, changePassword, loginWithPassword, logout, noteLaunchInterest, redeemSignInCode } from './auth.service.js';
import { authDeps, limitedEndpointRoute, sendSignedIn } from './routing.js';

/** Signing in and out, and the password (contracts in shared endpoints/auth.ts). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = authDeps(app);

  await limitedEndpointRoute(app, authTypeEndpoint, async ({ body }) => authType(deps, body));

  await limitedEndpointRoute(app, notifyMeEndpoint, ({ body }) => noteLaunchInterest(deps.db, body));

  await limitedEndpointRoute(app, loginEndpoint, async ({ body }, request, reply) =>
    sendSignedIn(reply, await loginWithPassword(deps, { ...body.user, ip: request.ip })),
  );

  await limitedEndpointRoute(app, redeemCodeEndpoint, async ({ body }, request, reply) =>
    sendSignedIn(reply, await redeemSignInCode(deps, { code: body.code, ip: request.ip })),
  );

  endpointRoute(app, logoutEndpoint, (_input, request) =>
    logout(deps.db, { userId: currentUser(request).id, sessionId: request.sessionId, ip: request.ip }),
  );

  await limitedEndpointRoute(app, changePasswordEndpoint, async ({ body }, request, reply) =>
    sendSignedIn(reply, await changePassword(deps, { ...body, userId: currentUser(request).id, ip: request.ip })),
  );
};
