import type { Invitation, MyInvitation } from '@mustard/shared';
import { sql } from 'kysely';
import { TENANT_SUMMARY_COLUMNS, toTenantSummary } from '../../access/membership.repository.js';
import { newId } from '../../db/ids.js';
import type { TenantTx, Trx } from '../../db/tenant.js';
import { bindTenant } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { enqueueMail, type OutgoingMail } from '../../mail/outbox.js';
import { rolesColumn } from './users.repository.js';

/*
 * A school's invitations take its `TenantTx`. What admitting, declining and the join page read
 * (role ids and names, the delete) takes a transaction and the tenant it was bound to on the way:
 * those flows start before any tenant (the person is not yet a member) and bind one mid-way.
 * The accounts they make, read and give a password to are global (`users`), as are the schools
 * they name (`tenants`).
 */

/** How many pending invitations a person sees at once; nobody is invited by fifty schools. */
const MY_INVITATIONS_SHOWN = 50;

export const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** A school's invitations, each with its roles by name. */
function invitationsQuery(tx: TenantTx) {
  const { trx, tenantId } = tx;
  return trx
    .selectFrom('invitations')
    .select([
      'invitations.id',
      'invitations.name',
      'invitations.email',
      'invitations.user_id',
      'invitations.created_at',
      rolesColumn('invitation_roles', 'invitations'),
    ])
    .$call(inTenant(tenantId, 'invitations.tenant_id'));
}

type InvitationRow = {
  id: string;
  name: string;
  email: string;
  created_at: Date | string;
  roles: Array<{ id: string; name: string }> | null;
};

export function toInvitation(row: InvitationRow): Invitation {
  return { id: row.id, name: row.name, email: row.email, roles: row.roles ?? [], status: 'pending', invited_at: iso(row.created_at) };
}

export async function listInvitations(tx: TenantTx, query: { page: number; perPage: number }) {
  const { trx, tenantId } = tx;
  const rows = await invitationsQuery(tx)
    .orderBy('invitations.created_at', 'desc')
    .orderBy('invitations.id')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  const total = await trx
    .selectFrom('invitations')
    .select(sql<number>`count(*)::int`.as('total'))
    .$call(inTenant(tenantId))
    .executeTakeFirstOrThrow();
  return { invitations: rows.map(toInvitation), totalRecords: total.total };
}

export function findInvitation(tx: TenantTx, id: string) {
  return invitationsQuery(tx).where('invitations.id', '=', id).executeTakeFirst();
}

/**
 * Invites the account, or renews its pending invitation with the school's latest words and
 * roles (the same request twice, or twice at once, is one invitation: the row lock of the
 * upsert makes the second wait for the first).
 */
export async function upsertInvitation(
  tx: TenantTx,
  invitation: { userId: string; email: string; name: string; invitedBy: string; roleIds: string[]; codeHash: string; expiresAt: Date },
): Promise<string> {
  const { trx, tenantId } = tx;
  const { id } = await trx
    .insertInto('invitations')
    .values({
      tenant_id: tenantId,
      id: newId(),
      user_id: invitation.userId,
      email: invitation.email,
      name: invitation.name,
      invited_by: invitation.invitedBy,
      code_hash: invitation.codeHash,
      expires_at: invitation.expiresAt,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'user_id']).doUpdateSet((eb) => ({
        email: eb.ref('excluded.email'),
        name: eb.ref('excluded.name'),
        invited_by: eb.ref('excluded.invited_by'),
        code_hash: eb.ref('excluded.code_hash'),
        expires_at: eb.ref('excluded.expires_at'),
        created_at: sql`now()`,
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.deleteFrom('invitation_roles').$call(inTenant(tenantId)).where('invitation_id', '=', id).execute();
  if (invitation.roleIds.length > 0) {
    await trx
      .insertInto('invitation_roles')
      .values(invitation.roleIds.map((roleId) => ({ tenant_id: tenantId, invitation_id: id, role_id: roleId })))
      .execute();
  }
  return id;
}

export async function deleteInvitation(tx: TenantTx, id: string): Promise<boolean> {
  const { trx, tenantId } = tx;
  const deleted = await trx.deleteFrom('invitations').$call(inTenant(tenantId)).where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** The role ids an invitation carries (read inside the invitation's tenant). */
export async function invitationRoleIds(tx: TenantTx, invitationId: string): Promise<string[]> {
  const { trx, tenantId } = tx;
  const rows = await trx
    .selectFrom('invitation_roles')
    .select('role_id')
    .$call(inTenant(tenantId))
    .where('invitation_id', '=', invitationId)
    .execute();
  return rows.map((row) => row.role_id);
}

const ADMISSION_COLUMNS = ['tenant_id', 'id', 'user_id', 'invited_by', 'code_hash', 'email', 'name', 'expires_at'] as const;

/**
 * One of the person's own pending invitations, read before any tenant is set (the
 * `invitations_own` policy): its tenant, for the transaction to bind to next.
 */
export function findOwnInvitation(trx: Trx, userId: string, id: string) {
  return trx
    .selectFrom('invitations')
    .select(ADMISSION_COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

/**
 * The pending invitation a code belongs to, read before any tenant is set by whoever holds the
 * code (the `invitations_by_code` policy, bound to this transaction only).
 */
export async function findInvitationByCode(trx: Trx, codeHash: string) {
  await sql`SELECT set_config('app.invitation_code', ${codeHash}, true)`.execute(trx);
  // Two rows would mean two codes alike (60 random bits): neither is trusted.
  const rows = await trx
    .selectFrom('invitations')
    .select(ADMISSION_COLUMNS)
    .where('code_hash', '=', codeHash)
    .where('expires_at', '>', sql<Date>`now()`)
    .limit(2)
    .execute();
  await sql`SELECT set_config('app.invitation_code', '', true)`.execute(trx);
  return rows.length === 1 ? rows[0] : undefined;
}

/** Role names of an invitation, read with the transaction bound to its tenant. */
export async function invitationRoleNames(tx: TenantTx, invitationId: string): Promise<string[]> {
  const { trx, tenantId } = tx;
  const roles = await trx
    .selectFrom('invitation_roles')
    .innerJoin('roles', (join) =>
      join.onRef('roles.tenant_id', '=', 'invitation_roles.tenant_id').onRef('roles.id', '=', 'invitation_roles.role_id'),
    )
    .select('roles.name')
    .$call(inTenant(tenantId, 'invitation_roles.tenant_id'))
    .where('invitation_roles.invitation_id', '=', invitationId)
    .orderBy('roles.name')
    .execute();
  return roles.map((role) => role.name);
}

/**
 * The person's pending invitations with their schools. The role names live in each school's
 * rows, so each invitation's are read with the transaction bound to that school in turn (at
 * most MY_INVITATIONS_SHOWN); the tenant is unset again after each.
 */
export async function myInvitations(trx: Trx, userId: string): Promise<MyInvitation[]> {
  const rows = await trx
    .selectFrom('invitations')
    .innerJoin('tenants', 'tenants.id', 'invitations.tenant_id')
    .select([
      'invitations.id',
      'invitations.tenant_id',
      'invitations.created_at',
      'invitations.expires_at',
      'tenants.tenantcode',
      'tenants.name',
      'tenants.logo_path',
      'tenants.category',
      'tenants.schooltype',
    ])
    .where('invitations.user_id', '=', userId)
    .where('invitations.expires_at', '>', sql<Date>`now()`)
    .orderBy('invitations.created_at')
    .limit(MY_INVITATIONS_SHOWN)
    .execute();
  const invitations: MyInvitation[] = [];
  for (const row of rows) {
    const roles = await invitationRoleNames(await bindTenant(trx, row.tenant_id), row.id);
    await bindTenant(trx, null);
    invitations.push({
      id: row.id,
      tenant: toTenantSummary({ ...row, id: row.tenant_id }),
      roles,
      invited_at: iso(row.created_at),
      expires_at: iso(row.expires_at),
    });
  }
  return invitations;
}

/**
 * The account of an invited e-mail, made without a password if the e-mail has none (two
 * invitations of it at once share one): its id. Accounts are global, not the school's.
 */
export async function accountOfInvitedEmail(tx: TenantTx, account: { email: string; name: string }): Promise<string> {
  const { trx } = tx;
  await trx
    .insertInto('users')
    .values({ id: newId(), email: account.email, name: account.name, password_hash: null })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .execute();
  const user = await trx.selectFrom('users').select(['id']).where(sql`lower(email)`, '=', account.email).executeTakeFirstOrThrow();
  return user.id;
}

/** The school's pending invitation of an account, if any. */
export function findPendingInvitationOf(tx: TenantTx, userId: string) {
  const { trx, tenantId } = tx;
  return trx.selectFrom('invitations').select('id').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
}

/** An invitation's sender's account: whether an administrator, and whether disabled. */
export function findSenderAccount(trx: Trx, userId: string) {
  return trx.selectFrom('users').select(['is_admin', 'disabled_at']).where('id', '=', userId).executeTakeFirst();
}

/** The school an invitation is to, as a tenant summary's row. */
export function findInvitingTenant(trx: Trx, tenantId: string) {
  return trx.selectFrom('tenants').select(TENANT_SUMMARY_COLUMNS).where('id', '=', tenantId).executeTakeFirstOrThrow();
}

/** The invited account, whole (its password hash too). */
export function findInvitedAccount(trx: Trx, userId: string) {
  return trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
}

/**
 * Sets the password of an account that has none: whether this call set it (of two joins at
 * once only the first does).
 */
export async function setFirstPassword(trx: Trx, userId: string, passwordHash: string): Promise<boolean> {
  const set = await trx
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: new Date() })
    .where('id', '=', userId)
    .where('password_hash', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return Boolean(set);
}

/** An account's password hash as it is now (null: none yet). */
export async function passwordHashOf(trx: Trx, userId: string): Promise<string | null> {
  const row = await trx.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.password_hash;
}

/** Makes the transaction act as this user (`app.user_id`, local to the transaction): the invited account joining. */
export async function actAsUser(trx: Trx, userId: string): Promise<void> {
  await sql`SELECT set_config('app.user_id', ${userId}, true)`.execute(trx);
}

/** Writes the invitation's message to the outbox, as the school's, in the invitation's transaction. */
export function enqueueInvitationMail(tx: TenantTx, mail: Pick<OutgoingMail, 'to' | 'locale' | 'values'>): Promise<boolean> {
  return enqueueMail(tx.trx, { ...mail, template: 'invitation', tenantId: tx.tenantId });
}
