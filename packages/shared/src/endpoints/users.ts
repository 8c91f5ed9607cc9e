import { listQuerySchema } from '../resources/definition.js';
import { members } from '../resources/people.js';
import {
  AuthTypeBodySchema,
  AuthTypeResponseSchema,
  ChangePasswordBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  NotifyMeBodySchema,
  ProfileQuerySchema,
  ProfileResponseSchema,
  RedeemCodeBodySchema,
} from '../schemas/auth.js';
import { MessageResponseSchema } from '../schemas/common.js';
import {
  InvitationAcceptedSchema,
  InvitationCodeSchema,
  InvitationCreatedSchema,
  InvitationListQuerySchema,
  InvitationListResponseSchema,
  InviteBodySchema,
  JoinBodySchema,
  JoinDetailsSchema,
  JoinResponseSchema,
  MyInvitationsResponseSchema,
  RoleChoicesResponseSchema,
  UserListResponseSchema,
  UserResponseSchema,
  UserSchema,
  UserUpdateSchema,
} from '../schemas/user.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * People: signing in and out and the password (/auth), the invited person's side of invitations
 * (/auth/join, /auth/invitations), and a school's members and the invitations it sent
 * (/api/users). The sign-in page and the signed-in frame call some of these by their routes
 * alone (auth.ts), which import no schema.
 */

// Signing in and out (no tenant: these come before one is chosen).

/** Whether an email signs in here with a password or elsewhere (its domain's URL). */
export const authTypeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/type',
  access: 'public',
  body: AuthTypeBodySchema,
  response: AuthTypeResponseSchema,
});

/** Coming Soon's "notify me": the same answer for a new and a known address. */
export const notifyMeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/notify',
  access: 'public',
  body: NotifyMeBodySchema,
  response: MessageResponseSchema,
});

/** Sign-in with a password; the token comes in the `authorization` header. */
export const loginEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/login',
  access: 'public',
  body: LoginBodySchema,
  response: LoginResponseSchema,
});

/** Sign-in with a one-time code from the external sign-in (`/login?code=`). */
export const redeemCodeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/redeemcode',
  access: 'public',
  body: RedeemCodeBodySchema,
  response: LoginResponseSchema,
});

/** Ends the session of the token sent. */
export const logoutEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/logout',
  access: 'signed-in',
  response: MessageResponseSchema,
});

/** A new password: every session of the account ends, and the answer is a fresh sign-in. */
export const changePasswordEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/password',
  access: 'signed-in',
  body: ChangePasswordBodySchema,
  response: LoginResponseSchema,
});

// The invited person's side of invitations (no tenant: they are not yet a member).

/** What an invitation's code invites to: the school, the name and e-mail, the roles. */
export const joinDetailsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/auth/join',
  access: 'public',
  query: InvitationCodeSchema,
  response: JoinDetailsSchema,
});

/** Joining with the code and the account's password (chosen now if new): a sign-in and the school joined. */
export const joinEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/join',
  access: 'public',
  body: JoinBodySchema,
  response: JoinResponseSchema,
});

/** The signed-in person's pending invitations (the banner). */
export const myInvitationsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/auth/invitations',
  access: 'signed-in',
  response: MyInvitationsResponseSchema,
});

/** Joining from the banner with the invitation's code. */
export const acceptInvitationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/invitations/:id/accept',
  access: 'signed-in',
  params: IdParamsSchema,
  body: InvitationCodeSchema,
  response: InvitationAcceptedSchema,
});

/** Saying no, with the invitation's code; the school sees it gone. */
export const declineInvitationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/invitations/:id/decline',
  access: 'signed-in',
  params: IdParamsSchema,
  body: InvitationCodeSchema,
  response: MessageResponseSchema,
});

// A school's people (tenant routes).

/** The session user in the selected tenant, with roles and permissions; `tenant_id` switches school. */
export const profileEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/users/profile',
  access: 'member',
  query: ProfileQuerySchema,
  response: ProfileResponseSchema,
});

/** The school's members with their roles, searchable and paged; `excel=1` for a spreadsheet. */
export const usersEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/users',
  access: { action: 'read', subject: 'user' },
  query: listQuerySchema(members),
  response: UserListResponseSchema,
  spreadsheet: true,
});

/** The school's roles for the member form, each saying whether the asker may hand it out. */
export const roleChoicesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/users/roles',
  access: { action: 'read', subject: 'user' },
  response: RoleChoicesResponseSchema,
});

/** One member of the school, as `{ user }`. */
export const userEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/users/:id',
  access: { action: 'read', subject: 'user' },
  params: IdParamsSchema,
  response: UserResponseSchema,
});

/**
 * Invites a person: the invitation's link and code go to them by e-mail, and the answer is the
 * invitation with its code (shown this once), whoever the e-mail belongs to.
 */
export const inviteUserEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/users',
  access: { action: 'create', subject: 'user' },
  body: InviteBodySchema,
  response: InvitationCreatedSchema,
});

/** A member's roles in the school, replaced. */
export const updateUserEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/users/:id',
  access: { action: 'update', subject: 'user' },
  params: IdParamsSchema,
  body: UserUpdateSchema,
  response: UserSchema,
});

/** Removes a person from the school (their account and other schools stay). */
export const removeUserEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/users/:id',
  access: { action: 'delete', subject: 'user' },
  params: IdParamsSchema,
  response: MessageResponseSchema,
});

/** The school's pending invitations, newest first. */
export const invitationsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/users/invitations',
  access: { action: 'read', subject: 'user' },
  query: InvitationListQuerySchema,
  response: InvitationListResponseSchema,
});

/** Withdraws a pending invitation: its code no longer works. */
export const withdrawInvitationEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/users/invitations/:id',
  access: { action: 'create', subject: 'user' },
  params: IdParamsSchema,
  response: MessageResponseSchema,
});
