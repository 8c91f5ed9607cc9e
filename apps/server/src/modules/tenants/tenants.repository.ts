import type { Tenant, TenantCreate } from '@mustard/shared';
import { sql } from 'kysely';
import { toTenantSummary } from '../../access/membership.repository.js';
import { newId } from '../../db/ids.js';
import { containsPattern } from '../../db/search.js';
import type { TenantTx, Trx } from '../../db/tenant.js';
import type { TenantRow } from '../../db/types.js';

export function toTenant(row: TenantRow): Tenant {
  return {
    ...toTenantSummary(row),
    forms: row.forms,
    email: row.email,
    address: row.address,
    web: row.web,
    phone: row.phone,
    tin: row.tin,
    efrist: row.efrist,
    country: row.country,
  };
}

export interface TenantListQuery {
  search?: string;
  page: number;
  perPage: number;
}

/**
 * Run these inside withUser: memberships are readable for one's own user id under RLS.
 *
 * Tenants a user may see: all of them for a platform administrator, otherwise the ones they
 * belong to (memberships are readable for one's own user id under RLS).
 */
function visibleTenants(trx: Trx, viewer: { id: string; is_admin: boolean }) {
  let query = trx.selectFrom('tenants');
  if (!viewer.is_admin) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('memberships')
          .select('memberships.id')
          .whereRef('memberships.tenant_id', '=', 'tenants.id')
          .where('memberships.user_id', '=', viewer.id),
      ),
    );
  }
  return query;
}

export async function listTenants(trx: Trx, viewer: { id: string; is_admin: boolean }, query: TenantListQuery) {
  let base = visibleTenants(trx, viewer);
  if (query.search) {
    const pattern = containsPattern(query.search);
    base = base.where((eb) =>
      eb.or([eb('tenants.name', 'ilike', pattern), eb('tenants.tenantcode', 'ilike', pattern), eb('tenants.category', 'ilike', pattern)]),
    );
  }
  // One after the other: a transaction's queries share one connection.
  const rows = await base
    .selectAll('tenants')
    .orderBy('tenants.name')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  const count = await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  return { tenants: rows.map(toTenant), totalRecords: count.total };
}

export function findVisibleTenant(trx: Trx, viewer: { id: string; is_admin: boolean }, id: string) {
  return visibleTenants(trx, viewer).selectAll('tenants').where('tenants.id', '=', id).executeTakeFirst();
}

export function tenantCodeTaken(trx: Trx, code: string, exceptId?: string) {
  let query = trx.selectFrom('tenants').select('id').where(sql`lower(tenantcode)`, '=', code.toLowerCase());
  if (exceptId) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

/**
 * Holds the tenant code until the transaction ends: two tenants made at once under one code (two
 * sign-ups of one name verified together) take turns, so the second sees the first's code taken
 * instead of failing on the unique index.
 */
export async function lockTenantCode(trx: Trx, code: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`tenantcode:${code.toLowerCase()}`}, 0))`.execute(trx);
}

export async function insertTenant(trx: Trx, input: TenantCreate): Promise<TenantRow> {
  return trx
    .insertInto('tenants')
    .values({ id: newId(), ...input })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateTenant(trx: Trx, id: string, input: TenantCreate): Promise<TenantRow> {
  return trx
    .updateTable('tenants')
    .set({ ...input, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Writes one role of the tenant with its permissions (`[action, subject]` pairs). */
export async function insertRole(
  tx: TenantTx,
  id: string,
  name: string,
  permissions: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  await tx.trx.insertInto('roles').values({ tenant_id: tx.tenantId, id, name }).execute();
  if (permissions.length === 0) return;
  await tx.trx
    .insertInto('role_permissions')
    .values(permissions.map(([action, subject]) => ({ tenant_id: tx.tenantId, id: newId(), role_id: id, subject_class: subject, action })))
    .execute();
}

/** Writes a membership of the tenant with its roles. */
export async function insertMembership(tx: TenantTx, id: string, userId: string, roleIds: readonly string[]): Promise<void> {
  await tx.trx.insertInto('memberships').values({ tenant_id: tx.tenantId, id, user_id: userId }).execute();
  if (roleIds.length === 0) return;
  await tx.trx
    .insertInto('membership_roles')
    .values(roleIds.map((roleId) => ({ tenant_id: tx.tenantId, membership_id: id, role_id: roleId })))
    .execute();
}
