import type { RoleWithPermissions, TenantSummary } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx, Trx } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import type { TenantRow } from '../db/types.js';

export const TENANT_SUMMARY_COLUMNS = [
  'tenants.id',
  'tenants.tenantcode',
  'tenants.name',
  'tenants.logo_path',
  'tenants.category',
  'tenants.schooltype',
] as const;

export function toTenantSummary(
  row: Pick<TenantRow, 'id' | 'tenantcode' | 'name' | 'logo_path' | 'category' | 'schooltype'>,
): TenantSummary {
  return {
    id: row.id,
    tenantcode: row.tenantcode,
    name: row.name,
    logo_path: row.logo_path,
    category: row.category,
    schooltype: row.schooltype,
  };
}

/** The tenants a user belongs to, by name. Needs a transaction with app.user_id set (withUser). */
export async function tenantsOfUser(trx: Trx, userId: string): Promise<TenantSummary[]> {
  const rows = await trx
    .selectFrom('memberships')
    .innerJoin('tenants', 'tenants.id', 'memberships.tenant_id')
    .select(TENANT_SUMMARY_COLUMNS)
    .where('memberships.user_id', '=', userId)
    .orderBy('tenants.name')
    .execute();
  return rows.map(toTenantSummary);
}

export function findMembership(tx: TenantTx, userId: string) {
  return tx.trx.selectFrom('memberships').select(['id']).$call(inTenant(tx.tenantId)).where('user_id', '=', userId).executeTakeFirst();
}

/** The user's roles in the tenant, each with its permissions. */
export async function rolesOfMember(tx: TenantTx, userId: string): Promise<RoleWithPermissions[]> {
  const rows = await tx.trx
    .selectFrom('memberships')
    .innerJoin('membership_roles', (join) =>
      join.onRef('membership_roles.tenant_id', '=', 'memberships.tenant_id').onRef('membership_roles.membership_id', '=', 'memberships.id'),
    )
    .innerJoin('roles', (join) =>
      join.onRef('roles.tenant_id', '=', 'membership_roles.tenant_id').onRef('roles.id', '=', 'membership_roles.role_id'),
    )
    .leftJoin('role_permissions', (join) =>
      join.onRef('role_permissions.tenant_id', '=', 'roles.tenant_id').onRef('role_permissions.role_id', '=', 'roles.id'),
    )
    .select(['roles.id', 'roles.name', 'role_permissions.subject_class', 'role_permissions.action'])
    .$call(inTenant(tx.tenantId, 'memberships.tenant_id'))
    .where('memberships.user_id', '=', userId)
    .orderBy('roles.name')
    .orderBy('role_permissions.subject_class')
    .orderBy('role_permissions.action')
    .execute();
  const roles = new Map<string, RoleWithPermissions>();
  for (const row of rows) {
    let role = roles.get(row.id);
    if (!role) {
      role = { id: row.id, name: row.name, permissions: [] };
      roles.set(row.id, role);
    }
    if (row.subject_class && row.action) role.permissions.push({ subject_class: row.subject_class, action: row.action });
  }
  return [...roles.values()];
}

export function findTenantByCode(trx: Trx, code: string) {
  return trx.selectFrom('tenants').selectAll().where(sql`lower(tenantcode)`, '=', code.trim().toLowerCase()).executeTakeFirst();
}
