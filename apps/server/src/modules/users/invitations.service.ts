import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  allows,
  defineAbilityFor,
  formatInvitationCode,
  INVITATION_DAYS,
  type InvitationAccepted,
  type InvitationCreate,
  type InvitationCreated,
  isAdministrator,
  type JoinDetails,
  LOGIN_MESSAGES,
  USER_MESSAGES,
} from '@mustard/shared';
import { type Kysely, sql } from 'kysely';
import {
  findMembership,
  rolesOfMember,
  TENANT_SUMMARY_COLUMNS,
  tenantsOfUser,
  toTenantSummary,
} from '../../access/membership.repository.js';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { type TenantScope, type Trx, withTenant, withUser } from '../../db/tenant.js';
import type { DB } from '../../db/types.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { hashCode } from '../auth/auth.repository.js';
import type { FailureLimiter } from '../auth/failure-limiter.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { addMember } from '../tenants/tenants.service.js';
import {
  deleteInvitation,
  findInvitation,
  findInvitationByCode,
  findOwnInvitation,
  invitationRoleIds,
  invitationRoleNames,
  iso,
  toInvitation,
  upsertInvitation,
} from './invitations.repository.js';
import { findMember } from './users.repository.js';
import { assertMayHandOut, type Grantor, resolveRoles } from './users.service.js';

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

/**
 * Invites a person to the current tenant with the given roles. Inviting an e-mail already invited
 * renews that invitation (new roles, new code); one offering rights beyond the grantor's own stays
 * as it is (403). One transaction.
 */
export async function inviteMember(
  db: Kysely<DB>,
  scope: Required<TenantScope>,
  grantor: Grantor,
  input: InvitationCreate,
): Promise<InvitationCreated> {
  const code = newCode();
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000);
  return withTenant(db, scope, async (trx) => {
    const roleIds = await resolveRoles(trx, scope.tenantId, input.roles);
    await assertMayHandOut(trx, scope.tenantId, grantor, roleIds);
    // A new e-mail gets an account without a password; two invitations of it at once share one.
    await trx
      .insertInto('users')
      .values({ id: newId(), email: input.email, name: input.name, password_hash: null })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .execute();
    const user = await trx.selectFrom('users').select(['id']).where(sql`lower(email)`, '=', input.email).executeTakeFirstOrThrow();
    if (await findMember(trx, scope.tenantId, user.id)) throw invalid({ email: [USER_MESSAGES.alreadyMember] });
    const pending = await trx
      .selectFrom('invitations')
      .select('id')
      .where('tenant_id', '=', scope.tenantId)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (pending) await assertMayHandOut(trx, scope.tenantId, grantor, await invitationRoleIds(trx, scope.tenantId, pending.id));
    const id = await upsertInvitation(trx, scope.tenantId, {
      userId: user.id,
      email: input.email,
      name: input.name,
      invitedBy: scope.userId,
      roleIds,
      codeHash: hashCode(code),
      expiresAt,
    });
    const invitation = toInvitation(
      (await findInvitation(trx, scope.tenantId, id)) as NonNullable<Awaited<ReturnType<typeof findInvitation>>>,
    );
    await recordAudit(trx, scope.tenantId, { userId: scope.userId, action: 'invite', entity: 'user', entityId: id, after: invitation });
    return { ...invitation, code: formatInvitationCode(code), expires_at: iso(expiresAt) };
  });
}

/** Withdraws a pending invitation of the school (one offering rights beyond the grantor's stays). */
export async function withdrawInvitation(db: Kysely<DB>, scope: Required<TenantScope>, grantor: Grantor, id: string): Promise<void> {
  await withTenant(db, scope, async (trx) => {
    const before = await findInvitation(trx, scope.tenantId, id);
    if (!before) throw notFound();
    await assertMayHandOut(
      trx,
      scope.tenantId,
      grantor,
      (before.roles ?? []).map((role) => role.id),
    );
    if (!(await deleteInvitation(trx, scope.tenantId, id))) throw notFound();
    await recordAudit(trx, scope.tenantId, {
      userId: scope.userId,
      action: 'withdraw',
      entity: 'user',
      entityId: id,
      before: toInvitation(before),
    });
  });
}

type PendingInvitation = NonNullable<Awaited<ReturnType<typeof findOwnInvitation>>>;

/**
 * Makes the invited account a member, in the transaction's tenant-bound state, and ends the
 * invitation. An invitation is only as good as its sender's rights now: if the sender is no
 * longer a member, may no longer add people, or may no longer hand out its roles, it is void.
 */
async function admit(trx: Trx, invitation: PendingInvitation): Promise<string> {
  const tenantId = invitation.tenant_id;
  await sql`SELECT set_config('app.tenant_id', ${tenantId}, true)`.execute(trx);
  const roleIds = await invitationRoleIds(trx, tenantId, invitation.id);
  const sender = invitation.invited_by
    ? await trx.selectFrom('users').select(['is_admin', 'disabled_at']).where('id', '=', invitation.invited_by).executeTakeFirst()
    : undefined;
  if (!invitation.invited_by || !sender || sender.disabled_at || !(await findMembership(trx, tenantId, invitation.invited_by))) {
    throw invitationVoid();
  }
  const subject = { is_admin: sender.is_admin, roles: await rolesOfMember(trx, tenantId, invitation.invited_by) };
  const ability = defineAbilityFor(subject);
  if (!allows(ability, 'create', 'user')) throw invitationVoid();
  await assertMayHandOut(trx, tenantId, { isAdmin: isAdministrator(subject), ability }, roleIds).catch(() => {
    throw invitationVoid();
  });
  if (!(await deleteInvitation(trx, tenantId, invitation.id))) throw codeInvalid();
  if (!(await findMembership(trx, tenantId, invitation.user_id))) await addMember(trx, tenantId, invitation.user_id, roleIds);
  await recordAudit(trx, tenantId, {
    userId: invitation.user_id,
    action: 'accept',
    entity: 'user',
    entityId: invitation.user_id,
    after: { invitation: invitation.id, roles: roleIds },
  });
  return tenantId;
}

async function joined(trx: Trx, tenantId: string, userId: string): Promise<InvitationAccepted> {
  const tenant = await trx.selectFrom('tenants').select(TENANT_SUMMARY_COLUMNS).where('id', '=', tenantId).executeTakeFirstOrThrow();
  await sql`SELECT set_config('app.tenant_id', '', true)`.execute(trx);
  return { tenant: toTenantSummary(tenant), tenants: await tenantsOfUser(trx, userId) };
}

/**
 * A signed-in person accepts one of their invitations with its code (the banner). The code is
 * what the school handed the person it meant; a guess counts against the account like a wrong
 * password.
 */
export async function acceptInvitation(
  db: Kysely<DB>,
  limiter: FailureLimiter,
  user: { id: string; email: string },
  id: string,
  code: string,
): Promise<InvitationAccepted> {
  return withUser(db, user.id, async (trx) => {
    const own = await findOwnInvitation(trx, user.id, id);
    if (!own) throw notFound();
    if (!limiter.attempt(user.email)) throw new AppError(429);
    if (!sameHash(hashCode(code), own.code_hash)) throw invalid({ code: [USER_MESSAGES.invitationCodeInvalid] });
    limiter.succeed(user.email);
    return joined(trx, await admit(trx, own), user.id);
  });
}

/**
 * The invited person declines with the invitation's code: the invitation ends, and the school
 * sees it gone. The code is asked here too, so that whoever got into an account first (another
 * school that invited the same e-mail, say) cannot quietly turn down invitations meant for the
 * person.
 */
export async function declineInvitation(
  db: Kysely<DB>,
  limiter: FailureLimiter,
  user: { id: string; email: string },
  id: string,
  code: string,
): Promise<void> {
  const userId = user.id;
  await withUser(db, userId, async (trx) => {
    const own = await findOwnInvitation(trx, userId, id);
    if (!own) throw notFound();
    if (!limiter.attempt(user.email)) throw new AppError(429);
    if (!sameHash(hashCode(code), own.code_hash)) throw invalid({ code: [USER_MESSAGES.invitationCodeInvalid] });
    limiter.succeed(user.email);
    await sql`SELECT set_config('app.tenant_id', ${own.tenant_id}, true)`.execute(trx);
    if (!(await deleteInvitation(trx, own.tenant_id, id))) throw notFound();
    await recordAudit(trx, own.tenant_id, { userId, action: 'decline', entity: 'user', entityId: userId, after: { invitation: id } });
  });
}

/** What the join page shows for a code: who invites, whom, as what. */
export async function joinDetails(db: Kysely<DB>, code: string): Promise<JoinDetails> {
  return db.transaction().execute(async (trx) => {
    const invitation = await findInvitationByCode(trx, hashCode(code));
    if (!invitation) throw codeInvalid();
    await sql`SELECT set_config('app.tenant_id', ${invitation.tenant_id}, true)`.execute(trx);
    const roles = await invitationRoleNames(trx, invitation.tenant_id, invitation.id);
    const tenant = await trx
      .selectFrom('tenants')
      .select(TENANT_SUMMARY_COLUMNS)
      .where('id', '=', invitation.tenant_id)
      .executeTakeFirstOrThrow();
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
 * none yet (made by this or another invitation), the password the person chooses now. Answers
 * the account, for a session, and the school joined. One transaction.
 */
export async function joinWithCode(
  db: Kysely<DB>,
  limiter: FailureLimiter,
  code: string,
  password: string,
): Promise<{ user: { id: string; name: string; email: string; path: string | null; is_admin: boolean }; joined: InvitationAccepted }> {
  return db.transaction().execute(async (trx) => {
    const invitation = await findInvitationByCode(trx, hashCode(code));
    if (!invitation) throw codeInvalid();
    const account = await trx.selectFrom('users').selectAll().where('id', '=', invitation.user_id).executeTakeFirstOrThrow();
    if (!limiter.attempt(account.email)) throw new AppError(429);
    let passwordOk = false;
    if (account.password_hash === null) {
      // Only the first of two joins at once sets it; the other must then know it.
      const set = await trx
        .updateTable('users')
        .set({ password_hash: await hashPassword(password), updated_at: new Date() })
        .where('id', '=', account.id)
        .where('password_hash', 'is', null)
        .returning('id')
        .executeTakeFirst();
      passwordOk = Boolean(set);
      if (!set) {
        const now = await trx.selectFrom('users').select('password_hash').where('id', '=', account.id).executeTakeFirstOrThrow();
        passwordOk = await verifyPassword(now.password_hash, password);
      }
    } else {
      passwordOk = await verifyPassword(account.password_hash, password);
    }
    if (!passwordOk || account.disabled_at) throw new AppError(401, LOGIN_MESSAGES.invalidCredentials);
    limiter.succeed(account.email);
    await sql`SELECT set_config('app.user_id', ${account.id}, true)`.execute(trx);
    const tenantId = await admit(trx, invitation);
    return {
      user: { id: account.id, name: account.name, email: account.email, path: account.path, is_admin: account.is_admin },
      joined: await joined(trx, tenantId, account.id),
    };
  });
}
