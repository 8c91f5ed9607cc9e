import {
  IdParamsSchema,
  InvitationAcceptedSchema,
  InvitationCodeSchema,
  JoinBodySchema,
  JoinDetailsSchema,
  JoinResponseSchema,
  MessageResponseSchema,
  MyInvitationsResponseSchema,
  USER_MESSAGES,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withUser } from '../../db/tenant.js';
import { currentUser } from '../../plugins/access.js';
import { openSession, sendSignedIn } from '../auth/auth.service.js';
import { myInvitations } from './invitations.repository.js';
import { acceptInvitation, declineInvitation, joinDetails, joinWithCode } from './invitations.service.js';

/**
 * The invited person's side of invitations (issue 9 point 2); the school's side is in
 * users.routes.ts. No tenant: the person is not yet a member of the school that invites them,
 * and may be a member of none (a new teacher's first day).
 *
 * GET  /auth/join?code=               public: what the code invites to (school, name, roles)
 * POST /auth/join {code, password}    public: join with the code, signing in (a new account's
 *                                     password is chosen here); answers the sign-in and the school
 * GET  /auth/invitations              signed in: their pending invitations
 * POST /auth/invitations/:id/accept   signed in, {code}: join from the banner
 * POST /auth/invitations/:id/decline  signed in, {code}: say no; the school sees it gone
 */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const rateLimit = { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' };

  app.get(
    '/auth/join',
    { config: { access: 'public', rateLimit }, schema: { querystring: InvitationCodeSchema, response: { 200: JoinDetailsSchema } } },
    async (request) => joinDetails(db, request.query.code),
  );

  app.post(
    '/auth/join',
    { config: { access: 'public', rateLimit }, schema: { body: JoinBodySchema, response: { 200: JoinResponseSchema } } },
    async (request, reply) => {
      const { user, joined } = await joinWithCode(db, app.failureLimiter, request.body.code, request.body.password);
      const signedIn = await openSession(app, user);
      return sendSignedIn(reply, { token: signedIn.token, response: { ...signedIn.response, tenant: joined.tenant } });
    },
  );

  app.get(
    '/auth/invitations',
    { config: { access: 'signed-in' }, schema: { response: { 200: MyInvitationsResponseSchema } } },
    async (request) => {
      const user = currentUser(request);
      return { invitations: await withUser(db, user.id, (trx) => myInvitations(trx, user.id)) };
    },
  );

  app.post(
    '/auth/invitations/:id/accept',
    {
      config: { access: 'signed-in', rateLimit },
      schema: { params: IdParamsSchema, body: InvitationCodeSchema, response: { 200: InvitationAcceptedSchema } },
    },
    async (request) => acceptInvitation(db, app.failureLimiter, currentUser(request), request.params.id, request.body.code),
  );

  app.post(
    '/auth/invitations/:id/decline',
    {
      config: { access: 'signed-in', rateLimit },
      schema: { params: IdParamsSchema, body: InvitationCodeSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      await declineInvitation(db, app.failureLimiter, currentUser(request), request.params.id, request.body.code);
      return { message: USER_MESSAGES.invitationDeclined };
    },
  );
};
