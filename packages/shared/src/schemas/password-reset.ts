import { z } from 'zod';
import { LANGUAGES, PASSWORD_MAX } from '../constants.js';
import { LOGIN_MESSAGES, PASSWORD_RESET_MESSAGES, USER_MESSAGES } from '../messages.js';
import { requiredText, text } from './common.js';
import { RegisterSchema } from './register.js';

/** A reset link works this long (security.md item 13: at most 30 minutes). */
export const PASSWORD_RESET_MINUTES = 30;

/** Asking for a reset link (spec §2 /auth/password/reset, Send Request). */
export const PasswordResetRequestSchema = z.strictObject({
  email: requiredText(LOGIN_MESSAGES.emailRequired)
    .max(254)
    .refine((value) => z.email().safeParse(value).success, LOGIN_MESSAGES.emailInvalid),
  /** The language of the page that asked: the e-mail is written in it. */
  locale: z.enum(LANGUAGES).default('en'),
});
export type PasswordResetRequest = z.input<typeof PasswordResetRequestSchema>;

/** The new password: §5's registration rule and messages, and the length a hash request allows. */
export const NewPasswordSchema = RegisterSchema.shape.password.max(PASSWORD_MAX, USER_MESSAGES.passwordTooLong);

/** Choosing the new password with the link's token. */
export const PasswordResetConfirmSchema = z.strictObject({
  token: text(PASSWORD_RESET_MESSAGES.linkInvalid)
    .min(1, PASSWORD_RESET_MESSAGES.linkInvalid)
    .max(200, PASSWORD_RESET_MESSAGES.linkInvalid),
  password: NewPasswordSchema,
});
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirmSchema>;
