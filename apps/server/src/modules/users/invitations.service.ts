import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  allows,
  defineAbilityFor,
  formatInvitationCode,
  INVITATION_DAYS,
  type InvitationAccepted,
  type InvitationCreated,
  type InviteBody,
  isAdministrator,
  type JoinDetails,
  type JoinResponse,
  LOGIN_MESSAGES,
  type MyInvitationsResponse,
  USER_MESSAGES,
} from '@mustard/shared';
import type { Kysely } from 'kysely';
import { findMembership, rolesOfMember, tenantsOfUser, toTenantSummary } from '../../access/membership.repository.js';
import { recordAudit } from '../../audit/audit.repository.js';
import { bindTenant, type Trx, withUser } from '../../db/tenant.js';
import type { DB } from '../../db/types.js';
import { AppError, invalid, notFound } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { hashCode } from '../auth/auth.repository.js';
import { type AuthDeps, openSession, type SignedIn } from '../auth/auth.service.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { refuseDemoOutsideDemo } from '../tenants/demo-confinement.js';
import { addMember } from '../tenants/tenants.service.js';
import {
  accountOfInvitedEmail,
  actAsUser,
  deleteInvitation,
  enqueueInvitationMail,
  findInvitation,
  findInvitationByCode,
  findInvitedAccount,
  findInvitingTenant,
  findOwnInvitation,
  findPendingInvitationOf,
  findSenderAccount,
  invitationRoleIds,
  invitationRoleNames,
  iso,
  myInvitations,
  passwordHashOf,
  setFirstPassword,
  toInvitation,
  upsertInvitation,
} from './invitations.repository.js';
import { findMember } from './users.repository.js';
import { assertMayHandOut, resolveRoles } from './users.service.js';

/*
 * Invitations (issue 9 point 2). A school adding a person's e-mail invites the account (made, with
 * no password, if the e-mail has none) and gets back a code to hand the person: on paper, by SMS,
 * or as the link /join?code=.... The person joins with that code, and with their own password
 * (chosen then if the account is new), or, signed in, from the banner with the code.
 *
 * Why a code and no password from the school: whoever chose a new account's password would own
 * it. A head teacher could make an account for a teacher of another school before that school
 * invites them, and then accept that school's invitation in the teacher's name. Now joining any
 * school takes the code that school handed to the person it meant, and an invitation never sets a
 * credential. The answer to the school is the same whether or not the e-mail had an account.
 */

const invitationVoid = () => new AppError(409, USER_MESSAGES.invitationVoid);

/**
 * A sender never redeems their own invitation (issue 23 item 13): a head teacher who invited a
 * new e-mail and joined with its code would choose the account's password and own it, and the
 * real person could not use a later invitation from another school. The account is the invited
 * person's, who joins with the code alone; the sender's session is refused, before anything is
 * written. (Until invitations go by e-mail, a sender who joins signed out cannot be told apart.)
 */
function refuseSender(invitation: { invited_by: string | null }, redeemer: string | null) {
  if (redeemer !== null && invitation.invited_by === redeemer) throw new AppError(403, USER_MESSAGES.invitationOwn);
}
const codeInvalid = () => new AppError(404, USER_MESSAGES.invitationCodeInvalid);

const CODE_LETTERS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 12 letters of 32: 60 random bits, typed from paper in three groups of four. */
function newCode(): string {
  return Array.from({ length: 12 }, () => CODE_LETTERS[randomInt(CODE_LETTERS.length)]).join('');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The join page with the invitation's code: the link the invitation e-mail carries. */
export function joinLink(publicUrl: string, code: string): string {
  return `${publicUrl}/join?code=${encodeURIComponent(code)}`;
}

/**
 * Invites a person to the current tenant with the given roles, and e-mails them its link and code
 * (issue 29 point 4) in the action's transaction: the message goes out after the commit, and an
 * invitation refused here sends nothing. Inviting an e-mail already invited renews that invitation
 * (new roles, new code, a new message); one offering rights beyond the grantor's own stays as it
 * is (403).
 */
export async function inviteMember(
  { tx, member, school }: ActionContext,
  input: InviteBody,
  mail: { publicUrl: string },
): Promise<InvitationCreated> {
  const invitedBy = member.userId;
  await refuseDemoOutsideDemo(tx, invitedBy, 'sender');
  const code = newCode();
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000);
  const roleIds = await resolveRoles(tx, input.roles);
  await assertMayHandOut(tx, member, roleIds);
  // A new e-mail gets an account without a password; two invitations of it at once share one.
  const userId = await accountOfInvitedEmail(tx, { email: input.email, name: input.name });
  if (await findMember(tx, userId)) throw invalid({ email: [USER_MESSAGES.alreadyMember] });
  await refuseDemoOutsideDemo(tx, userId);
  const pending = await findPendingInvitationOf(tx, userId);
  if (pending) await assertMayHandOut(tx, member, await invitationRoleIds(tx, pending.id));
  const id = await upsertInvitation(tx, {
    userId,
    email: input.email,
    name: input.name,
    invitedBy,
    roleIds,
    codeHash: hashCode(code),
    expiresAt,
  });
  const invitation = toInvitation((await findInvitation(tx, id)) as NonNullable<Awaited<ReturnType<typeof findInvitation>>>);
  await recordAudit(tx, { userId: invitedBy, action: 'invite', entity: 'user', entityId: id, after: invitation });
  const shownCode = formatInvitationCode(code);
  await enqueueInvitationMail(tx, {
    to: input.email,
    locale: input.locale,
    values: { inviter: member.name, organisation: school.name, link: joinLink(mail.publicUrl, shownCode), code: shownCode },
  });
  return { ...invitation, code: shownCode, expires_at: iso(expiresAt) };
}

/** Withdraws a pending invitation of the school (one offering rights beyond the grantor's stays). */
export async function withdrawInvitation({ tx, member }: ActionContext, input: { id: string }) {
  const before = await findInvitation(tx, input.id);
  if (!before) throw notFound();
  await assertMayHandOut(
    tx,
    member,
    (before.roles ?? []).map((role) => role.id),
  );
  if (!(await deleteInvitation(tx, input.id))) throw notFound();
  await recordAudit(tx, {
    userId: member.userId,
    action: 'withdraw',
    entity: 'user',
    entityId: input.id,
    before: toInvitation(before),
  });
  return { message: USER_MESSAGES.invitationWithdrawn };
}

/** The signed-in person's pending invitations, in their own transaction (`withUser`). */
export async function pendingInvitations(trx: Trx, input: { userId: string }): Promise<MyInvitationsResponse> {
  return { invitations: await myInvitations(trx, input.userId) };
}

type PendingInvitation = NonNullable<Awaited<ReturnType<typeof findOwnInvitation>>>;

/**
 * Makes the invited account a member, in the transaction's tenant-bound state, and ends the
 * invitation. An invitation is only as good as its sender's rights now: if the sender is no
 * longer a member, may no longer add people, or may no longer hand out its roles, it is void.
 */
async function admit(trx: Trx, invitation: PendingInvitation): Promise<string> {
  const tenantId = invitation.tenant_id;
  const tx = await bindTenant(trx, tenantId, invitation.user_id);
  const roleIds = await invitationRoleIds(tx, invitation.id);
  const sender = invitation.invited_by ? await findSenderAccount(trx, invitation.invited_by) : undefined;
  if (!invitation.invited_by || !sender || sender.disabled_at || !(await findMembership(tx, invitation.invited_by))) {
    throw invitationVoid();
  }
  const subject = { is_admin: sender.is_admin, roles: await rolesOfMember(tx, invitation.invited_by) };
  const ability = defineAbilityFor(subject);
  if (!allows(ability, 'create', 'user')) throw invitationVoid();
  await assertMayHandOut(tx, { isAdmin: isAdministrator(subject), ability }, roleIds).catch(() => {
    throw invitationVoid();
  });
  if (!(await deleteInvitation(tx, invitation.id))) throw codeInvalid();
  if (!(await findMembership(tx, invitation.user_id))) await addMember(tx, invitation.user_id, roleIds);
  await recordAudit(tx, {
    action: 'accept',
    entity: 'user',
    entityId: invitation.user_id,
    after: { invitation: invitation.id, roles: roleIds },
  });
  return tenantId;
}

async function joined(trx: Trx, tenantId: string, userId: string): Promise<InvitationAccepted> {
  const tenant = await findInvitingTenant(trx, tenantId);
  await bindTenant(trx, null);
  return { tenant: toTenantSummary(tenant), tenants: await tenantsOfUser(trx, userId) };
}

/** The person acting on one of their own invitations from the banner, with the code they were given. */
interface OwnInvitationInput {
  user: { id: string; email: string };
  id: string;
  code: string;
}

/**
 * A signed-in person accepts one of their invitations with its code (the banner). The code is
 * what the school handed the person it meant; a guess counts against the account like a wrong
 * password. One transaction.
 */
export async function acceptInvitation(deps: Pick<AuthDeps, 'db' | 'limiter'>, input: OwnInvitationInput): Promise<InvitationAccepted> {
  const { user } = input;
  return withUser(deps.db, user.id, async (trx) => {
    const own = await findOwnInvitation(trx, user.id, input.id);
    if (!own) throw notFound();
    refuseSender(own, user.id);
    if (!(await deps.limiter.attempt(user.email))) throw new AppError(429);
    if (!sameHash(hashCode(input.code), own.code_hash)) throw invalid({ code: [USER_MESSAGES.invitationCodeInvalid] });
    await deps.limiter.succeed(user.email);
    return joined(trx, await admit(trx, own), user.id);
  });
}

/**
 * The invited person declines with the invitation's code: the invitation ends, and the school
 * sees it gone. The code is asked here too, so that whoever got into an account first (another
 * school that invited the same e-mail, say) cannot quietly turn down invitations meant for the
 * person. One transaction.
 */
export async function declineInvitation(deps: Pick<AuthDeps, 'db' | 'limiter'>, input: OwnInvitationInput) {
  const { user, id } = input;
  await withUser(deps.db, user.id, async (trx) => {
    const own = await findOwnInvitation(trx, user.id, id);
    if (!own) throw notFound();
    if (!(await deps.limiter.attempt(user.email))) throw new AppError(429);
    if (!sameHash(hashCode(input.code), own.code_hash)) throw invalid({ code: [USER_MESSAGES.invitationCodeInvalid] });
    await deps.limiter.succeed(user.email);
    const tx = await bindTenant(trx, own.tenant_id, user.id);
    if (!(await deleteInvitation(tx, id))) throw notFound();
    await recordAudit(tx, {
      action: 'decline',
      entity: 'user',
      entityId: user.id,
      after: { invitation: id },
    });
  });
  return { message: USER_MESSAGES.invitationDeclined };
}

/** What the join page shows for a code: who invites, whom, as what. One transaction. */
export async function joinDetails(db: Kysely<DB>, input: { code: string }): Promise<JoinDetails> {
  return db.transaction().execute(async (trx) => {
    const invitation = await findInvitationByCode(trx, hashCode(input.code));
    if (!invitation) throw codeInvalid();
    const roles = await invitationRoleNames(await bindTenant(trx, invitation.tenant_id), invitation.id);
    const tenant = await findInvitingTenant(trx, invitation.tenant_id);
    return {
      tenant: toTenantSummary(tenant),
      name: invitation.name,
      email: invitation.email,
      roles,
      expires_at: iso(invitation.expires_at),
    };
  });
}

/**
 * Joining with the code, signed in or not: the account's password, or, for an account that has
 * none yet (made by this or another invitation), the password the person chooses now. One
 * transaction; then a session for the account, answered with the school joined. `sentBy` is
 * whose token came with the request, if any: the invitation's sender is refused.
 */
export async function joinWithCode(
  deps: Pick<AuthDeps, 'db' | 'limiter' | 'session'>,
  input: { code: string; password: string; sentBy: string | null },
): Promise<SignedIn<JoinResponse>> {
  const { limiter } = deps;
  const { password } = input;
  const { account, school } = await deps.db.transaction().execute(async (trx) => {
    const invitation = await findInvitationByCode(trx, hashCode(input.code));
    if (!invitation) throw codeInvalid();
    refuseSender(invitation, input.sentBy);
    const account = await findInvitedAccount(trx, invitation.user_id);
    if (!(await limiter.attempt(account.email))) throw new AppError(429);
    let passwordOk = false;
    if (account.password_hash === null) {
      // Only the first of two joins at once sets it; the other must then know it.
      passwordOk = await setFirstPassword(trx, account.id, await hashPassword(password));
      if (!passwordOk) passwordOk = await verifyPassword(await passwordHashOf(trx, account.id), password);
    } else {
      passwordOk = await verifyPassword(account.password_hash, password);
    }
    if (!passwordOk || account.disabled_at) throw new AppError(401, LOGIN_MESSAGES.invalidCredentials);
    await limiter.succeed(account.email);
    await actAsUser(trx, account.id);
    const tenantId = await admit(trx, invitation);
    return { account, school: await joined(trx, tenantId, account.id) };
  });
  const user = { id: account.id, name: account.name, email: account.email, path: account.path, is_admin: account.is_admin };
  const signedIn = await openSession(deps, user);
  return { token: signedIn.token, response: { ...signedIn.response, tenant: school.tenant } };
}
