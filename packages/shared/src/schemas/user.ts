import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import { USER_MESSAGES } from '../messages.js';
import { requiredText } from './common.js';

export const UserSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  path: z.string().nullable(),
  is_admin: z.boolean(),
  roles: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type User = z.infer<typeof UserSchema>;

const roleNames = z.array(z.string().trim().min(1).max(60)).max(20);

export const UserCreateSchema = z.strictObject({
  name: requiredText(USER_MESSAGES.nameRequired).min(3, USER_MESSAGES.nameTooShort).max(120),
  email: requiredText(USER_MESSAGES.emailRequired)
    .max(254)
    .pipe(z.email(USER_MESSAGES.emailInvalid))
    .transform((email) => email.toLowerCase()),
  password: z
    .string({ error: USER_MESSAGES.passwordRequired })
    .min(PASSWORD_MIN, USER_MESSAGES.passwordTooShort)
    .max(PASSWORD_MAX, USER_MESSAGES.passwordTooLong),
  /** Role names of the current tenant, e.g. ["teacher"]. */
  roles: roleNames.default([]),
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

/** What a school changes about a member: their roles there. Names and passwords are the person's own. */
export const UserUpdateSchema = z.strictObject({
  roles: roleNames,
});
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

export const UserListResponseSchema = z.object({ users: z.array(UserSchema), totalRecords: z.number() });
export const UserResponseSchema = z.object({ user: UserSchema });
