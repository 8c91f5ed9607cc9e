import { MessageResponseSchema } from '../schemas/common.js';
import { PasswordResetConfirmSchema, PasswordResetRequestSchema } from '../schemas/password-reset.js';
import { defineEndpoint } from './definition.js';

/*
 * A forgotten password (issue 29 point 3): the person asks for a link by e-mail, then chooses a
 * new password on the link's page. Both are public and guessable, so rate limited.
 */

/** Sends a reset link to the address if an account uses it; the answer is the same either way. */
export const passwordResetEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/password/reset',
  access: 'public',
  body: PasswordResetRequestSchema,
  response: MessageResponseSchema,
});

/** Sets the new password with the link's token (single use); every sign-in of the account ends. */
export const passwordResetConfirmEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/password/reset/confirm',
  access: 'public',
  body: PasswordResetConfirmSchema,
  response: MessageResponseSchema,
});
