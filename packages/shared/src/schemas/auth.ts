import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import { optionalId } from '../endpoints/fields.js';
import { LOGIN_MESSAGES, USER_MESSAGES } from '../messages.js';
import { requiredText, text } from './common.js';
import { TenantSummarySchema } from './tenant.js';

export const AuthTypeBodySchema = z.object({
  email: requiredText(LOGIN_MESSAGES.emailRequired).max(254),
});
/** Coming Soon's "notify me" (spec §2): an address to write to when the product opens. */
export const NotifyMeBodySchema = z.strictObject({
  email: requiredText(LOGIN_MESSAGES.emailRequired)
    .max(254)
    .refine((value) => z.email().safeParse(value).success, LOGIN_MESSAGES.emailInvalid),
});

/** `redirect` means the email's domain signs in elsewhere, at `url` (spec §4). */
export const AuthTypeResponseSchema = z.object({
  type: z.enum(['password', 'redirect']),
  url: z.string(),
});
export type AuthTypeResponse = z.infer<typeof AuthTypeResponseSchema>;

export const LoginBodySchema = z.object({
  user: z.object({
    email: requiredText(LOGIN_MESSAGES.emailRequired).max(254),
    password: z.string({ error: USER_MESSAGES.passwordRequired }).min(1, USER_MESSAGES.passwordRequired).max(PASSWORD_MAX),
  }),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** Changing one's password: the current one (guessed like a sign-in password), and the new one. */
export const ChangePasswordBodySchema = z.object({
  current_password: z.string().min(1, USER_MESSAGES.passwordRequired).max(PASSWORD_MAX),
  password: z.string().min(PASSWORD_MIN, USER_MESSAGES.passwordTooShort).max(PASSWORD_MAX, USER_MESSAGES.passwordTooLong),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const RedeemCodeBodySchema = z.object({ code: text().min(1, LOGIN_MESSAGES.invalidCode).max(200) });

/** What login and code redemption answer (spec §3 "Login response"); the token is in the header. */
export const LoginResponseSchema = z.object({
  id: z.uuid(),
  path: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  isadmin: z.boolean(),
  admin: z.boolean(),
  tenants: z.array(TenantSummarySchema),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RoleWithPermissionsSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  permissions: z.array(z.object({ subject_class: z.string(), action: z.string() })),
});
export type RoleWithPermissions = z.infer<typeof RoleWithPermissionsSchema>;

export const ProfileQuerySchema = z.object({
  /** Switching school: the profile is answered for this tenant (the user must belong to it). */
  tenant_id: optionalId,
});

/** The session user of spec §3: the login fields plus roles and permissions in the tenant. */
export const ProfileResponseSchema = LoginResponseSchema.extend({
  is_admin: z.boolean(),
  /** The platform's administrator (users.is_admin), who keeps what is no school's; `is_admin` is a school's superadmin too. */
  platform_admin: z.boolean(),
  roles: z.array(RoleWithPermissionsSchema),
  permissions: z.record(z.string(), z.array(z.string())),
  tenant: TenantSummarySchema,
});
export type Profile = z.infer<typeof ProfileResponseSchema>;
