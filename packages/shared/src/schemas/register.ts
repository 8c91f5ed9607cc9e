import { z } from 'zod';
import {
  DEFAULT_COUNTRY,
  DEFAULT_SCHOOL_TYPE,
  LANGUAGES,
  PASSWORD_MAX,
  PASSWORD_MIN,
  REGISTRATION_CATEGORIES,
  type RegistrationCategory,
  SCHOOL_TYPES,
  TENANT_NAME_MAX,
  type TenantCategory,
} from '../constants.js';
import { INPUT_MESSAGES, LOGIN_MESSAGES, REGISTER_MESSAGES, TENANT_MESSAGES, USER_MESSAGES } from '../messages.js';
import { requiredText, text } from './common.js';

/*
 * The sign-up rules of spec §5 with their exact messages. The web's forms validate with these,
 * and the registration route (`POST /auth/register`) with the same ones. Beyond §5 each field is
 * bounded, and a name or an e-mail is one line: both go into the verification mail, where a line
 * break could start a header of its own.
 */

/** International (+256 772 123456) or local (0772 123456, 0414-123456) numbers. */
export const PHONE_PATTERN = /^(\+?\d{1,3}[\s-]?)?\(?\d{2,4}\)?[\s-]?\d{3,4}[\s-]?\d{3,4}$/;
/** A lowercase and an uppercase letter, a digit and one of ! @ # $ % ^ & *. */
export const PASSWORD_COMPOSITION = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*]).{8,}$/;

const required = requiredText;

/** No CR or LF: the text is written into a mail (issue 29: header injection refused). */
const ONE_LINE = /^[^\r\n]*$/;
const email = (requiredMessage: string) =>
  required(requiredMessage).max(254, REGISTER_MESSAGES.emailInvalid).pipe(z.email(REGISTER_MESSAGES.emailInvalid));
const telephone = (requiredMessage: string) =>
  required(requiredMessage).max(30, REGISTER_MESSAGES.telephoneInvalid).regex(PHONE_PATTERN, REGISTER_MESSAGES.telephoneInvalid);

export const LoginEmailSchema = z.object({ email: required(LOGIN_MESSAGES.emailRequired) });

export const RegisterSchema = z.object({
  name: required(REGISTER_MESSAGES.nameRequired)
    .min(3, REGISTER_MESSAGES.tooShort)
    .max(100, TENANT_MESSAGES.nameTooLong)
    .regex(ONE_LINE, INPUT_MESSAGES.textInvalid),
  email: email(REGISTER_MESSAGES.emailRequired),
  telephone: telephone(REGISTER_MESSAGES.telephoneRequired),
  password: z
    .string({ error: REGISTER_MESSAGES.passwordRequired })
    .min(1, { error: REGISTER_MESSAGES.passwordRequired, abort: true })
    .min(PASSWORD_MIN, { error: REGISTER_MESSAGES.tooShort, abort: true })
    .max(PASSWORD_MAX, { error: USER_MESSAGES.passwordTooLong, abort: true })
    .regex(PASSWORD_COMPOSITION, REGISTER_MESSAGES.passwordComposition),
});
export type Register = z.infer<typeof RegisterSchema>;

export const BusinessSchema = z.object({
  // A tenant's name is at most 25 characters (spec §5 "Tenant create and edit").
  name: required(REGISTER_MESSAGES.businessNameRequired)
    .min(3, REGISTER_MESSAGES.tooShort)
    .max(TENANT_NAME_MAX, TENANT_MESSAGES.nameTooLong)
    .regex(ONE_LINE, INPUT_MESSAGES.textInvalid),
  email: email(REGISTER_MESSAGES.businessEmailRequired),
  telephone: telephone(REGISTER_MESSAGES.businessTelephoneRequired),
  category: z.enum(REGISTRATION_CATEGORIES, TENANT_MESSAGES.categoryRequired),
  country: text().trim().min(1).max(80).default(DEFAULT_COUNTRY),
  address: text().trim().max(200).optional(),
  tin: text().trim().max(30).optional(),
  /** A school's type (spec §9: primary by default); a business's is ignored. */
  schooltype: z.enum(SCHOOL_TYPES).default(DEFAULT_SCHOOL_TYPE),
});
export type Business = z.infer<typeof BusinessSchema>;

/** The tenant category a registration category makes (spec §1 has six; the form offers eleven). */
export const TENANT_CATEGORY_OF: Record<RegistrationCategory, TenantCategory> = {
  school: 'School',
  retail: 'Retail',
  products: 'Retail',
  stock: 'Retail',
  restaurant: 'Services',
  hotel: 'Services',
  'property management': 'Services',
  services: 'Services',
  farm: 'Farm',
  hospital: 'Hospital',
  microfinance: 'Microfinance',
};

/**
 * The three sign-up steps sent once at the end (`POST /auth/register`): the person, the school
 * or business, a business's starter products by code (packages/shared starter-products.ts), and
 * the language of the verification mail.
 */
export const RegistrationBodySchema = z.strictObject({
  person: RegisterSchema.strict(),
  organisation: BusinessSchema.strict(),
  products: z.array(z.string().max(40)).max(20).default([]),
  locale: z.enum(LANGUAGES).default('en'),
});
export type RegistrationBody = z.input<typeof RegistrationBodySchema>;

/** A verification link's token (256 bits, base64url), as the `/register/verify` page sends it. */
export const VerifyRegistrationBodySchema = z.strictObject({ token: z.string().min(1).max(200) });

/** Asking for the link again: the address it goes to. */
export const ResendRegistrationBodySchema = z.strictObject({
  email: requiredText(LOGIN_MESSAGES.emailRequired).max(254, LOGIN_MESSAGES.emailInvalid).pipe(z.email(LOGIN_MESSAGES.emailInvalid)),
  locale: z.enum(LANGUAGES).default('en'),
});

/** Field -> first message, the shape forms show beside each field. */
export function firstErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.');
    if (!(field in errors)) errors[field] = issue.message;
  }
  return errors;
}
