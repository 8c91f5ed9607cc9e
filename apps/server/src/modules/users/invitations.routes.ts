import {
  acceptInvitationEndpoint,
  declineInvitationEndpoint,
  joinDetailsEndpoint,
  joinEndpoint,
  myInvitationsEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.js';
import { endpointRoute } from '../../plugins/endpoints.js';
import { authDeps, guessLimit, sendSignedIn, tokenHolder, userEndpointRoute } from '../auth/routing.js';
import { acceptInvitation, declineInvitation, joinDetails, joinWithCode, pendingInvitations } from './invitations.service.js';

/**
 * The invited person's side of invitations (issue 9 point 2; contracts in shared
 * endpoints/auth.ts); the school's side is in users.routes.ts. No tenant: the person is not yet a
 * member of the school that invites them, and may be a member of none (a new teacher's first day).
 *
 * GET  /auth/join?code=               public: what the code invites to (school, name, roles)
 * POST /auth/join {code, password}    public: join with the code, signing in (a new account's
 *                                     password is chosen here); answers the sign-in and the school;
 *                                     refused when sent with the invitation's sender's token
 * GET  /auth/invitations              signed in: their pending invitations
 * POST /auth/invitations/:id/accept   signed in, {code}: join from the banner
 * POST /auth/invitations/:id/decline  signed in, {code}: say no; the school sees it gone
 */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = authDeps(app);
  const limit = guessLimit(app);

  endpointRoute(app, joinDetailsEndpoint, ({ query }) => joinDetails(deps.db, query), limit);

  endpointRoute(
    app,
    joinEndpoint,
    async ({ body }, request, reply) => sendSignedIn(reply, await joinWithCode(deps, { ...body, sentBy: await tokenHolder(app, request) })),
    limit,
  );

  userEndpointRoute(app, myInvitationsEndpoint, (trx, _input, request) => pendingInvitations(trx, { userId: currentUser(request).id }));

  endpointRoute(
    app,
    acceptInvitationEndpoint,
    ({ params, body }, request) => acceptInvitation(deps, { user: currentUser(request), id: params.id, code: body.code }),
    limit,
  );

  endpointRoute(
    app,
    declineInvitationEndpoint,
    ({ params, body }, request) => declineInvitation(deps, { user: currentUser(request), id: params.id, code: body.code }),
    limit,
  );
};
