import type { User } from '@mustard/shared';
import { sql } from 'kysely';
import { containsPattern } from '../../db/search.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/**
 * The roles a membership or an invitation carries, as one JSON column `roles`: `[{id, name}]` by
 * name. `link` pairs them with roles; `owner` is the membership or invitation row of the query.
 */
export function rolesColumn(link: 'membership_roles' | 'invitation_roles', owner: 'memberships' | 'invitations') {
  const ownerColumn = link === 'membership_roles' ? 'membership_id' : 'invitation_id';
  return sql<Array<{ id: string; name: string }> | null>`(
    SELECT coalesce(json_agg(json_build_object('id', roles.id, 'name', roles.name) ORDER BY roles.name), '[]'::json)
    FROM ${sql.table(link)} AS link
    JOIN roles ON roles.tenant_id = link.tenant_id AND roles.id = link.role_id
    WHERE link.tenant_id = ${sql.ref(`${owner}.tenant_id`)} AND link.${sql.ref(ownerColumn)} = ${sql.ref(`${owner}.id`)}
  )`.as('roles');
}

/** Users of one tenant: the global user joined to its membership there, with role names. */
function membersQuery(tx: TenantTx) {
  const { trx, tenantId } = tx;
  return trx
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'users.path',
      'users.is_admin',
      'memberships.id as membership_id',
      rolesColumn('membership_roles', 'memberships'),
    ])
    .$call(inTenant(tenantId, 'memberships.tenant_id'));
}

type MemberRow = {
  id: string;
  name: string;
  email: string;
  path: string | null;
  is_admin: boolean;
  roles: Array<{ id: string; name: string }> | null;
};

export function toUser(row: MemberRow): User {
  return { id: row.id, name: row.name, email: row.email, path: row.path, is_admin: row.is_admin, roles: row.roles ?? [] };
}

export async function listMembers(tx: TenantTx, query: { search?: string; page: number; perPage: number }) {
  const { trx } = tx;
  let base = membersQuery(tx);
  if (query.search) {
    const pattern = containsPattern(query.search);
    base = base.where((eb) => eb.or([eb('users.name', 'ilike', pattern), eb('users.email', 'ilike', pattern)]));
  }
  const rows = await base
    .orderBy('users.name')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  const total = await trx.selectFrom(base.as('members')).select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  return { users: rows.map(toUser), totalRecords: total.total };
}

export function findMember(tx: TenantTx, userId: string) {
  return membersQuery(tx).where('users.id', '=', userId).executeTakeFirst();
}

/**
 * Role ids by lower-case name, for the names given; unknown names are absent. Takes a transaction
 * and its tenant: the CLI and the test factories add members in transactions of their own.
 */
export async function rolesByName(tx: TenantTx, names: string[]) {
  const { trx, tenantId } = tx;
  if (names.length === 0) return new Map<string, string>();
  const rows = await trx
    .selectFrom('roles')
    .select(['id', 'name'])
    .$call(inTenant(tenantId))
    .where(
      sql`lower(name)`,
      'in',
      names.map((name) => name.toLowerCase()),
    )
    .execute();
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}

export async function replaceMemberRoles(tx: TenantTx, membershipId: string, roleIds: string[]) {
  const { trx, tenantId } = tx;
  await trx.deleteFrom('membership_roles').$call(inTenant(tenantId)).where('membership_id', '=', membershipId).execute();
  if (roleIds.length > 0) {
    await trx
      .insertInto('membership_roles')
      .values(roleIds.map((roleId) => ({ tenant_id: tenantId, membership_id: membershipId, role_id: roleId })))
      .execute();
  }
}

/** A school has a handful of roles; the member form's list stops here. */
const ROLES_LIMIT = 200;

/**
 * Roles with their permissions: the named ones (also read when a join binds the school's tenant
 * mid-way), or every role of the school, by name, when no ids are given (the member form).
 */
export async function permissionsOfRoles(tx: TenantTx, roleIds?: string[]) {
  const { trx, tenantId } = tx;
  if (roleIds?.length === 0) return [];
  let roleRows = trx.selectFrom('roles').select(['tenant_id', 'id', 'name']).$call(inTenant(tenantId)).orderBy('name').limit(ROLES_LIMIT);
  if (roleIds) roleRows = roleRows.where('id', 'in', roleIds);
  // Joined on tenant_id as well as the role: a join a database spread by school answers on the school's node.
  const rows = await trx
    .selectFrom(roleRows.as('roles'))
    .leftJoin('role_permissions', (join) =>
      join.onRef('role_permissions.tenant_id', '=', 'roles.tenant_id').onRef('role_permissions.role_id', '=', 'roles.id'),
    )
    .select(['roles.id', 'roles.name', 'role_permissions.subject_class', 'role_permissions.action'])
    .orderBy('roles.name')
    .execute();
  const roles = new Map<string, { id: string; name: string; permissions: Array<{ subject_class: string; action: string }> }>();
  for (const row of rows) {
    const role = roles.get(row.id) ?? { id: row.id, name: row.name, permissions: [] };
    if (row.subject_class && row.action) role.permissions.push({ subject_class: row.subject_class, action: row.action });
    roles.set(row.id, role);
  }
  return [...roles.values()];
}

/** Ends a membership, with the invitations its member sent: an invitation is only as good as its sender's rights. */
export async function deleteMembership(tx: TenantTx, membershipId: string, userId: string): Promise<void> {
  await tx.trx.deleteFrom('memberships').$call(inTenant(tx.tenantId)).where('id', '=', membershipId).execute();
  await tx.trx.deleteFrom('invitations').$call(inTenant(tx.tenantId)).where('invited_by', '=', userId).execute();
}
