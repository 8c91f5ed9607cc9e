import { LoginResponseSchema } from '../schemas/auth.js';
import { MessageResponseSchema } from '../schemas/common.js';
import { RegistrationBodySchema, ResendRegistrationBodySchema, VerifyRegistrationBodySchema } from '../schemas/register.js';
import { defineEndpoint } from './definition.js';

/*
 * A school or business signs itself up (issue 29 point 2): the three steps of /register are sent
 * once, kept pending, and become an account, a tenant and its administrator only when the link
 * mailed to the address is followed. No tenant: these come before there is one.
 */

/**
 * The person, the organisation and a business's starter products; always "check your e-mail".
 * With the organisation's logo (a JPEG, PNG or WebP picture, optional) the body is multipart:
 * the same fields as `person[name]`, `organisation[tin]`, `products[]`, and the file `logo`.
 */
export const registerEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/register',
  access: 'public',
  body: RegistrationBodySchema,
  file: { field: 'logo', required: false },
  response: MessageResponseSchema,
});

/** The mailed link's token: the account, the tenant and the membership made, and a sign-in (token in `authorization`). */
export const verifyRegistrationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/register/verify',
  access: 'public',
  body: VerifyRegistrationBodySchema,
  response: LoginResponseSchema,
});

/** The link again, for a registration not yet verified; the same answer as registering. */
export const resendRegistrationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/register/resend',
  access: 'public',
  body: ResendRegistrationBodySchema,
  response: MessageResponseSchema,
});
