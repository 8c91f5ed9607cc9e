import { passwordResetConfirmEndpoint, passwordResetEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../plugins/endpoints.js';
import { confirmPasswordReset, RESET_MAILS_PER_ADDRESS, requestPasswordReset } from './password-reset.service.js';
import { guessLimit } from './routing.js';

/**
 * A forgotten password (contracts in shared endpoints/password-reset.ts). Both routes are public
 * and rate limited per address like the other guessable routes.
 *
 * POST /auth/password/reset          {email, locale}   a link by e-mail if an account uses it; one
 *                                                      answer for every address, in the same time
 * POST /auth/password/reset/confirm  {token, password} the new password; every session of the account ends
 */
export const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = {
    db: app.database.db,
    publicUrl: app.config.publicUrl,
    mailsPerAddress: app.limits.counter('reset-mail', RESET_MAILS_PER_ADDRESS, 60 * 60 * 1000),
  };
  const limit = guessLimit(app);

  endpointRoute(
    app,
    passwordResetEndpoint,
    async ({ body }, request) => {
      const answer = await requestPasswordReset(deps, { ...body, ip: request.ip });
      // Woken for every address alike (it only hints the sender): an account's message goes now.
      app.mail.wake();
      return answer;
    },
    limit,
  );

  endpointRoute(app, passwordResetConfirmEndpoint, ({ body }, request) => confirmPasswordReset(deps, { ...body, ip: request.ip }), limit);
};
