import { type AppAbility, SUPERADMIN_ROLE, USER_MESSAGES, type User, type UserUpdate } from '@mustard/shared';
import type { Kysely } from 'kysely';
import { recordAudit } from '../../audit/audit.repository.js';
import { type TenantScope, type Trx, withTenant } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import type { DB } from '../../db/types.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import { findMember, permissionsOfRoles, replaceMemberRoles, rolesByName, toUser } from './users.repository.js';

/** Who is handing out roles: an administrator may hand out any; anyone else only their own rights. */
export interface Grantor {
  isAdmin: boolean;
  ability: AppAbility;
}

/**
 * A member who may manage users must not make anyone (themselves included) more powerful than
 * they are: no superadmin role, and no role with a permission the grantor lacks. The same holds
 * for taking roles away, so a head teacher cannot strip the school's administrator.
 */
export async function assertMayHandOut(trx: Trx, tenantId: string, grantor: Grantor, roleIds: string[]): Promise<void> {
  if (grantor.isAdmin) return;
  for (const role of await permissionsOfRoles(trx, tenantId, roleIds)) {
    const beyond =
      role.name.toLowerCase() === SUPERADMIN_ROLE ||
      role.permissions.some((grant) => !grantor.ability.can(grant.action, grant.subject_class));
    if (beyond) throw forbidden();
  }
}

export async function resolveRoles(trx: Trx, tenantId: string, names: string[]): Promise<string[]> {
  const found = await rolesByName(trx, tenantId, names);
  const unknown = names.filter((name) => !found.has(name.toLowerCase()));
  if (unknown.length > 0) throw invalid({ roles: unknown.map((name) => `${USER_MESSAGES.roleUnknown}: ${name}`) });
  return [...new Set(found.values())];
}

export async function updateMember(
  db: Kysely<DB>,
  scope: Required<TenantScope>,
  grantor: Grantor,
  userId: string,
  input: UserUpdate,
): Promise<User> {
  return withTenant(db, scope, async (trx) => {
    const before = await findMember(trx, scope.tenantId, userId);
    if (!before) throw notFound();
    const roleIds = await resolveRoles(trx, scope.tenantId, input.roles);
    const held = (before.roles ?? []).map((role) => role.id);
    const changed = [...roleIds.filter((id) => !held.includes(id)), ...held.filter((id) => !roleIds.includes(id))];
    await assertMayHandOut(trx, scope.tenantId, grantor, changed);
    await replaceMemberRoles(trx, scope.tenantId, before.membership_id, roleIds);
    const after = await findMember(trx, scope.tenantId, userId);
    const updated = toUser(after as NonNullable<typeof after>);
    await recordAudit(trx, scope.tenantId, {
      userId: scope.userId,
      action: 'update',
      entity: 'user',
      entityId: userId,
      before: toUser(before),
      after: updated,
    });
    return updated;
  });
}

/**
 * Removes a person from the current tenant (their account and other schools stay). One cannot
 * remove oneself, so a school is never left without the administrator who was acting.
 */
export async function removeMember(db: Kysely<DB>, scope: Required<TenantScope>, grantor: Grantor, userId: string): Promise<void> {
  if (userId === scope.userId) throw invalid({ id: [USER_MESSAGES.removeSelf] });
  await withTenant(db, scope, async (trx) => {
    const before = await findMember(trx, scope.tenantId, userId);
    if (!before) throw notFound();
    await assertMayHandOut(
      trx,
      scope.tenantId,
      grantor,
      (before.roles ?? []).map((role) => role.id),
    );
    await trx.deleteFrom('memberships').$call(inTenant(scope.tenantId)).where('id', '=', before.membership_id).execute();
    // Invitations they sent go with them: an invitation is only as good as its sender's rights.
    await trx.deleteFrom('invitations').$call(inTenant(scope.tenantId)).where('invited_by', '=', userId).execute();
    await recordAudit(trx, scope.tenantId, {
      userId: scope.userId,
      action: 'delete',
      entity: 'user',
      entityId: userId,
      before: toUser(before),
    });
  });
}
