import { z } from 'zod';
import { LANGUAGES, PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import { USER_MESSAGES } from '../messages.js';
import { LoginResponseSchema } from './auth.js';
import { ListQuerySchema, requiredText, text } from './common.js';
import { TenantSummarySchema } from './tenant.js';

export const UserSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  path: z.string().nullable(),
  is_admin: z.boolean(),
  roles: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type User = z.infer<typeof UserSchema>;

const roleNames = z.array(text().trim().min(1).max(60)).max(20);

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

/**
 * A role of the school as the member form offers it: `grantable` is false for a role the asking
 * member may not hand out (more than their own rights), which the form shows but disables.
 */
export const RoleChoiceSchema = z.object({ id: z.uuid(), name: z.string(), grantable: z.boolean() });
export type RoleChoice = z.infer<typeof RoleChoiceSchema>;
export const RoleChoicesResponseSchema = z.object({ roles: z.array(RoleChoiceSchema) });

export const UserListResponseSchema = z.object({ users: z.array(UserSchema), totalRecords: z.number() });
export const UserResponseSchema = z.object({ user: UserSchema });

/**
 * A school inviting a person: the name and e-mail it knows them by, and the roles it offers. No
 * password: an invitation never sets a credential (the person chooses their own when they join).
 */
export const InvitationCreateSchema = UserCreateSchema.omit({ password: true });
export type InvitationCreate = z.infer<typeof InvitationCreateSchema>;
/** The invitation as sent: the school's fields and the sender's language, which the e-mail to the person is written in. */
export const InviteBodySchema = InvitationCreateSchema.extend({ locale: z.enum(LANGUAGES).default('en') });
export type InviteBody = z.infer<typeof InviteBodySchema>;

/** Days an invitation's code stays good; inviting again gives a new code. */
export const INVITATION_DAYS = 14;

/** Letters of invitation codes: no I, L, O or U, so a code read aloud or off paper is typed right. */
const CODE_LETTERS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LOOKALIKES: Record<string, string> = { O: '0', I: '1', L: '1', U: 'V' };

/** An invitation code as typed (`k7qm 2xpd-9wtr`, an O for a 0) in its one spelling: `K7QM2XPD9WTR`. */
export function normalizeInvitationCode(text: string): string {
  return [...text.toUpperCase()]
    .map((char) => CODE_LOOKALIKES[char] ?? char)
    .filter((char) => CODE_LETTERS.includes(char))
    .join('');
}

/** `K7QM2XPD9WTR` as a person reads it: `K7QM-2XPD-9WTR`. */
export function formatInvitationCode(code: string): string {
  return normalizeInvitationCode(code).replace(/(.{4})(?=.)/g, '$1-');
}

const invitationCode = text(USER_MESSAGES.invitationCodeRequired)
  .max(40, USER_MESSAGES.invitationCodeInvalid)
  .transform(normalizeInvitationCode)
  .pipe(z.string().min(1, USER_MESSAGES.invitationCodeRequired));

/**
 * A school's invitation of a person (GET /api/users/invitations lists them): the name and e-mail
 * as the school typed them, never the account's own, so adding an e-mail tells nothing about
 * whether it has an account. The person becomes a member when they join with its code.
 */
export const InvitationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.object({ id: z.uuid(), name: z.string() })),
  status: z.literal('pending'),
  /** When the school sent it, ISO 8601. */
  invited_at: z.string(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

/** What POST /api/users answers: the invitation and its code, shown this once (only its hash is kept). */
export const InvitationCreatedSchema = InvitationSchema.extend({
  /** `K7QM-2XPD-9WTR`: the school hands it to the person, alone or as the link /join?code=... */
  code: z.string(),
  expires_at: z.string(),
});
export type InvitationCreated = z.infer<typeof InvitationCreatedSchema>;

/** The code of an invitation, as the join page and the banner send it. */
export const InvitationCodeSchema = z.object({ code: invitationCode });

/** Joining with the code: the person's own password (chosen now if the account is new). */
export const JoinBodySchema = z.strictObject({
  code: invitationCode,
  password: z
    .string({ error: USER_MESSAGES.passwordRequired })
    .min(PASSWORD_MIN, USER_MESSAGES.passwordTooShort)
    .max(PASSWORD_MAX, USER_MESSAGES.passwordTooLong),
});
export type JoinBody = z.infer<typeof JoinBodySchema>;

/** What the join page shows of an invitation: who invites, whom (as the school typed it), as what. */
export const JoinDetailsSchema = z.object({
  tenant: TenantSummarySchema,
  name: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  expires_at: z.string(),
});
export type JoinDetails = z.infer<typeof JoinDetailsSchema>;
/** The school's pending invitations: paging only (no search). */
export const InvitationListQuerySchema = ListQuerySchema.omit({ search: true });
export const InvitationListResponseSchema = z.object({ invitations: z.array(InvitationSchema), totalRecords: z.number() });

/** An invitation as the invited person sees it at sign-in: which school, which roles. */
export const MyInvitationSchema = z.object({
  id: z.uuid(),
  tenant: TenantSummarySchema,
  roles: z.array(z.string()),
  invited_at: z.string(),
  /** After this the code no longer works, and the invitation is no longer shown. */
  expires_at: z.string(),
});
export type MyInvitation = z.infer<typeof MyInvitationSchema>;
export const MyInvitationsResponseSchema = z.object({ invitations: z.array(MyInvitationSchema) });
export type MyInvitationsResponse = z.infer<typeof MyInvitationsResponseSchema>;

/** What joining with a code answers: the sign-in of the account (token in the header), and the school joined. */
export const JoinResponseSchema = LoginResponseSchema.extend({ tenant: TenantSummarySchema });
export type JoinResponse = z.infer<typeof JoinResponseSchema>;

/** Accepting: the school joined, and the person's schools now (the switcher's list). */
export const InvitationAcceptedSchema = z.object({ tenant: TenantSummarySchema, tenants: z.array(TenantSummarySchema) });
export type InvitationAccepted = z.infer<typeof InvitationAcceptedSchema>;
