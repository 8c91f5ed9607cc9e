import {
  type AppAbility,
  type ListQuery,
  members,
  RESULT_MESSAGES,
  type RoleChoice,
  SUPERADMIN_ROLE,
  USER_MESSAGES,
  type User,
  type UserUpdate,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import { forbidden, invalid, notFound, unauthorized } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { EXPORT_LIMIT, listWorkbook } from '../../resources/resource-routes.js';
import {
  deleteMembership,
  findMember,
  listMembers,
  permissionsOfRoles,
  replaceMemberRoles,
  rolesByName,
  toUser,
} from './users.repository.js';

/*
 * A school's people (issue 11: one service shape). Each service takes the route's `TenantTx`
 * and its input; the grantor (the acting member's rights) comes in the input.
 */

/** Who is handing out roles: an administrator may hand out any; anyone else only their own rights. */
export interface Grantor {
  isAdmin: boolean;
  ability: AppAbility;
}

/**
 * A member who may manage users must not make anyone (themselves included) more powerful than
 * they are: no superadmin role, and no role with a permission the grantor lacks. The same holds
 * for taking roles away, so a head teacher cannot strip the school's administrator. Joining
 * checks the sender's rights the same way, in the school's tenant (`bindTenant`).
 */
export async function assertMayHandOut(tx: TenantTx, grantor: Grantor, roleIds: string[]): Promise<void> {
  for (const role of await permissionsOfRoles(tx, roleIds)) if (!mayHandOut(grantor, role)) throw forbidden();
}

type RoleGrants = { name: string; permissions: Array<{ subject_class: string; action: string }> };

/** Whether the grantor may give or take this role (the rule of assertMayHandOut, for one role). */
function mayHandOut(grantor: Grantor, role: RoleGrants): boolean {
  if (grantor.isAdmin) return true;
  return (
    role.name.toLowerCase() !== SUPERADMIN_ROLE && role.permissions.every((grant) => grantor.ability.can(grant.action, grant.subject_class))
  );
}

/** The school's roles for the member form, each marked whether the grantor may hand it out. */
export async function roleChoices({ tx, member }: ActionContext): Promise<{ roles: RoleChoice[] }> {
  const roles = await permissionsOfRoles(tx);
  return { roles: roles.map((role) => ({ id: role.id, name: role.name, grantable: mayHandOut(member, role) })) };
}

export async function resolveRoles(tx: TenantTx, names: string[]): Promise<string[]> {
  const found = await rolesByName(tx, names);
  const unknown = names.filter((name) => !found.has(name.toLowerCase()));
  // The catalogue's text, then the name at fault (the web translates the text and keeps the name).
  if (unknown.length > 0) throw invalid({ roles: unknown.map((name) => `${USER_MESSAGES.roleUnknown}: ${name}`) });
  return [...new Set(found.values())];
}

/** The member acting in a tenant route (a tenant route always has one). */
export function actingUser(tx: TenantTx): string {
  if (!tx.userId) throw unauthorized();
  return tx.userId;
}

/**
 * The school's members, searchable and paged; with `excel` every member (to the export limit)
 * as a spreadsheet of the list's columns, the roles as one cell.
 */
export async function listUsers({ tx }: ActionContext, query: ListQuery & { excel: boolean }) {
  const paging = query.excel ? { page: 1, perPage: EXPORT_LIMIT } : { page: query.page, perPage: query.per_page };
  const answer = await listMembers(tx, { search: query.search, ...paging });
  if (!query.excel) return answer;
  return listWorkbook(
    members,
    answer.users.map((user) => ({ ...user, role_names: user.roles.map((role) => role.name).join(', ') })),
  );
}

/** One member of the school; 404 for anyone else. */
export async function getUser({ tx }: ActionContext, input: { id: string }): Promise<{ user: User }> {
  const row = await findMember(tx, input.id);
  if (!row) throw notFound();
  return { user: toUser(row) };
}

/** Replaces a member's roles; the roles taken away and given count as handed out. */
export async function updateMember({ tx, member }: ActionContext, input: UserUpdate & { id: string }): Promise<User> {
  const before = await findMember(tx, input.id);
  if (!before) throw notFound();
  const roleIds = await resolveRoles(tx, input.roles);
  const held = (before.roles ?? []).map((role) => role.id);
  const changed = [...roleIds.filter((id) => !held.includes(id)), ...held.filter((id) => !roleIds.includes(id))];
  await assertMayHandOut(tx, member, changed);
  await replaceMemberRoles(tx, before.membership_id, roleIds);
  const after = await findMember(tx, input.id);
  const updated = toUser(after as NonNullable<typeof after>);
  await recordAudit(tx, {
    userId: member.userId,
    action: 'update',
    entity: 'user',
    entityId: input.id,
    before: toUser(before),
    after: updated,
  });
  return updated;
}

/**
 * Removes a person from the current tenant (their account and other schools stay). One cannot
 * remove oneself, so a school is never left without the administrator who was acting.
 */
export async function removeMember({ tx, member }: ActionContext, input: { id: string }) {
  const userId = input.id;
  if (userId === member.userId) throw invalid({ id: [USER_MESSAGES.removeSelf] });
  const before = await findMember(tx, userId);
  if (!before) throw notFound();
  await assertMayHandOut(
    tx,
    member,
    (before.roles ?? []).map((role) => role.id),
  );
  // Invitations they sent go with them: an invitation is only as good as its sender's rights.
  await deleteMembership(tx, before.membership_id, userId);
  await recordAudit(tx, {
    userId: member.userId,
    action: 'delete',
    entity: 'user',
    entityId: userId,
    before: toUser(before),
  });
  return { message: RESULT_MESSAGES.deleted };
}
