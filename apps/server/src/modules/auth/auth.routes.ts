import {
  AuthTypeBodySchema,
  AuthTypeResponseSchema,
  LOGIN_MESSAGES,
  LoginBodySchema,
  LoginResponseSchema,
  MessageResponseSchema,
  NotifyMeBodySchema,
  PASSWORD_MAX,
  PASSWORD_MIN,
  RedeemCodeBodySchema,
  USER_MESSAGES,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { revokeSession } from '../../access/sessions.repository.js';
import { currentUser } from '../../plugins/access.js';
import { recordAuthEvent } from './auth.repository.js';
import { authType, changePassword, loginWithPassword, redeemSignInCode, sendSignedIn } from './auth.service.js';

const ChangePasswordBodySchema = z.object({
  current_password: z.string().min(1, USER_MESSAGES.passwordRequired).max(PASSWORD_MAX),
  password: z.string().min(PASSWORD_MIN, USER_MESSAGES.passwordTooShort).max(PASSWORD_MAX, USER_MESSAGES.passwordTooLong),
});

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const rateLimit = { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' };

  app.post(
    '/auth/type',
    { config: { access: 'public', rateLimit }, schema: { body: AuthTypeBodySchema, response: { 200: AuthTypeResponseSchema } } },
    async (request) => authType(app, request.body.email),
  );

  /**
   * Coming Soon's "notify me": the address is kept once, whatever its case; the answer is the
   * same for a new and a known address, so it tells nobody who asked before.
   */
  app.post(
    '/auth/notify',
    { config: { access: 'public', rateLimit }, schema: { body: NotifyMeBodySchema, response: { 200: MessageResponseSchema } } },
    async (request) => {
      await app.database.db
        .insertInto('launch_notifications')
        .values({ email: request.body.email })
        .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
        .execute();
      return { message: LOGIN_MESSAGES.notifyNoted };
    },
  );

  app.post(
    '/auth/login',
    { config: { access: 'public', rateLimit }, schema: { body: LoginBodySchema, response: { 200: LoginResponseSchema } } },
    async (request, reply) =>
      sendSignedIn(reply, await loginWithPassword(app, request.body.user.email, request.body.user.password, request.ip)),
  );

  app.post(
    '/auth/redeemcode',
    { config: { access: 'public', rateLimit }, schema: { body: RedeemCodeBodySchema, response: { 200: LoginResponseSchema } } },
    async (request, reply) => sendSignedIn(reply, await redeemSignInCode(app, request.body.code, request.ip)),
  );

  app.post('/auth/logout', { config: { access: 'signed-in' }, schema: { response: { 200: MessageResponseSchema } } }, async (request) => {
    if (request.sessionId) await revokeSession(app.database.db, request.sessionId);
    await recordAuthEvent(app.database.db, 'logout', { userId: currentUser(request).id, ip: request.ip });
    return { message: 'You are Logged Out' };
  });

  app.post(
    '/auth/password',
    { config: { access: 'signed-in', rateLimit }, schema: { body: ChangePasswordBodySchema, response: { 200: LoginResponseSchema } } },
    async (request, reply) =>
      sendSignedIn(
        reply,
        await changePassword(app, currentUser(request).id, request.body.current_password, request.body.password, request.ip),
      ),
  );
};
