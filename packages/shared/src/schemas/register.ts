import { z } from 'zod';
import { DEFAULT_COUNTRY, PASSWORD_MIN, REGISTRATION_CATEGORIES } from '../constants.js';
import { LOGIN_MESSAGES, REGISTER_MESSAGES, TENANT_MESSAGES } from '../messages.js';
import { requiredText, text } from './common.js';

/*
 * The sign-up rules of spec §5 with their exact messages. The web's forms validate with these;
 * the onboarding issue's server routes will use the same ones.
 */

/** International (+256 772 123456) or local (0772 123456, 0414-123456) numbers. */
export const PHONE_PATTERN = /^(\+?\d{1,3}[\s-]?)?\(?\d{2,4}\)?[\s-]?\d{3,4}[\s-]?\d{3,4}$/;
/** A lowercase and an uppercase letter, a digit and one of ! @ # $ % ^ & *. */
export const PASSWORD_COMPOSITION = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*]).{8,}$/;

const required = requiredText;

export const LoginEmailSchema = z.object({ email: required(LOGIN_MESSAGES.emailRequired) });

export const RegisterSchema = z.object({
  name: required(REGISTER_MESSAGES.nameRequired).min(3, REGISTER_MESSAGES.tooShort),
  email: required(REGISTER_MESSAGES.emailRequired).pipe(z.email(REGISTER_MESSAGES.emailInvalid)),
  telephone: required(REGISTER_MESSAGES.telephoneRequired).regex(PHONE_PATTERN, REGISTER_MESSAGES.telephoneInvalid),
  password: z
    .string({ error: REGISTER_MESSAGES.passwordRequired })
    .min(1, { error: REGISTER_MESSAGES.passwordRequired, abort: true })
    .min(PASSWORD_MIN, { error: REGISTER_MESSAGES.tooShort, abort: true })
    .regex(PASSWORD_COMPOSITION, REGISTER_MESSAGES.passwordComposition),
});
export type Register = z.infer<typeof RegisterSchema>;

export const BusinessSchema = z.object({
  name: required(REGISTER_MESSAGES.businessNameRequired).min(3, REGISTER_MESSAGES.tooShort),
  email: required(REGISTER_MESSAGES.businessEmailRequired).pipe(z.email(REGISTER_MESSAGES.emailInvalid)),
  telephone: required(REGISTER_MESSAGES.businessTelephoneRequired).regex(PHONE_PATTERN, REGISTER_MESSAGES.telephoneInvalid),
  category: z.enum(REGISTRATION_CATEGORIES, TENANT_MESSAGES.categoryRequired),
  country: text().trim().min(1).default(DEFAULT_COUNTRY),
  address: text().trim().max(200).optional(),
  tin: text().trim().max(30).optional(),
});
export type Business = z.infer<typeof BusinessSchema>;

/** Field -> first message, the shape forms show beside each field. */
export function firstErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.');
    if (!(field in errors)) errors[field] = issue.message;
  }
  return errors;
}
