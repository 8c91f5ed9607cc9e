import {
  classOptions,
  type SchoolDefaultsChoice,
  SUPERADMIN_ROLE,
  TENANT_MESSAGES,
  type Tenant,
  type TenantCreate,
  type TenantNew,
  tenantKindOf,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { bindTenant, type TenantTx, type Trx } from '../../db/tenant.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import { seedBusinessDefaults } from '../../seed/business-defaults.js';
import { type DefaultsSummary, seedSchoolDefaults } from '../../seed/school-defaults.js';
import { defaultRolesFor } from './default-roles.js';
import { isDemoTenantCode, refuseDemoCreatingTenant, refuseDemoOutsideDemo } from './demo-confinement.js';
import {
  findVisibleTenant,
  insertMembership,
  insertRole,
  insertTenant,
  listTenants,
  type TenantListQuery,
  tenantCodeTaken,
  toTenant,
  updateTenant,
} from './tenants.repository.js';

/*
 * Tenants are global rows. The services take the signed-in person's transaction (`withUser`:
 * their own memberships in every tenant are readable, which is what decides the tenants they
 * see) and their input; a new tenant's rows are written with the transaction bound to it.
 */

export interface Actor {
  id: string;
  is_admin: boolean;
}

/** Makes the tenant's default roles; answers role ids by name. Runs with app.tenant_id set. */
export async function createDefaultRoles(tx: TenantTx, category: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const role of defaultRolesFor(category)) {
    const id = newId();
    ids.set(role.name, id);
    await insertRole(tx, id, role.name, role.permissions);
  }
  return ids;
}

export async function addMember(tx: TenantTx, userId: string, roleIds: string[]): Promise<string> {
  await refuseDemoOutsideDemo(tx, userId);
  const membershipId = newId();
  await insertMembership(tx, membershipId, userId, roleIds);
  return membershipId;
}

/**
 * Inserts a tenant and its default roles, and leaves the transaction bound to it (`tx`, with the
 * creator as its user). Every way a tenant comes to exist (the API, the CLI, the sign-up, the
 * demo) goes through here, so a business always starts with its Ugandan reference data
 * (currencies with UGX the default, VAT codes, withholding duties, banks, its settings): a
 * business without a default currency could not price a product.
 */
export async function insertTenantWithRoles(trx: Trx, input: TenantCreate, creatorId: string | null = null) {
  const row = await insertTenant(trx, input);
  const tx = await bindTenant(trx, row.id, creatorId);
  const roles = await createDefaultRoles(tx, input.category);
  if (tenantKindOf(input.category) === 'business') await seedBusinessDefaults(tx);
  return { row, roles, tx };
}

/**
 * Gives a new school the Ugandan primary or secondary defaults (issue 24 point 1) in the
 * transaction that creates it (`tx`, bound to the tenant): its subjects, mark types, grade sets
 * and proportions for each of its classes and the current year's three terms, remark types with
 * automatic comments, and the foot of its cards. Answers what it has then, or null when no
 * defaults were asked, or the tenant is a business (a business form may carry the field unseen).
 * Every way a school comes to exist with the defaults (the screen, the CLI, the sign-up) calls this.
 */
export async function startWithDefaults(
  tx: TenantTx,
  tenant: Pick<TenantCreate, 'category' | 'schooltype' | 'forms'>,
  defaults: SchoolDefaultsChoice | null | undefined,
): Promise<DefaultsSummary | null> {
  if (!defaults || defaults === 'none' || tenant.category !== 'School') return null;
  return seedSchoolDefaults(tx, { schooltype: tenant.schooltype, classes: classOptions(tenant) }, defaults);
}

/** The tenants the person may see (all, for a platform administrator), searchable and paged. */
export function listVisibleTenants(trx: Trx, input: { viewer: Actor; query: TenantListQuery }) {
  return listTenants(trx, input.viewer, input.query);
}

/** One tenant the person may see, as `{ tenant }`; 404 for any other. */
export async function getTenant(trx: Trx, input: { viewer: Actor; id: string }): Promise<{ tenant: Tenant }> {
  const row = await findVisibleTenant(trx, input.viewer, input.id);
  if (!row) throw notFound();
  return { tenant: toTenant(row) };
}

/**
 * Creates a tenant with its default roles, makes the creator its administrator and, for a school
 * that asks, sets up the Ugandan defaults, in the person's one transaction: a tenant nobody can
 * enter, or a school half set up, is never left behind.
 */
export async function createTenant(trx: Trx, input: TenantNew & { actor: Actor }): Promise<Tenant> {
  const { actor, defaults, ...tenant } = input;
  await refuseDemoCreatingTenant(trx, actor.id);
  // The demo's codes stay the demo's: a seed run later must never take a real school for its own.
  if (isDemoTenantCode(tenant.tenantcode) || (await tenantCodeTaken(trx, tenant.tenantcode)))
    throw invalid({ tenantcode: [TENANT_MESSAGES.tenantcodeTaken] });
  const { row, roles, tx } = await insertTenantWithRoles(trx, tenant, actor.id);
  await addMember(tx, actor.id, [roles.get(SUPERADMIN_ROLE) as string]);
  await startWithDefaults(tx, tenant, defaults);
  await recordAudit(tx, { action: 'create', entity: 'tenant', entityId: row.id, after: toTenant(row) });
  return toTenant(row);
}

/**
 * Updates a tenant. A platform administrator may update any; anyone else only the tenant they
 * work in (their TENANTCODE), where their permission was checked.
 */
export async function updateTenantById(
  trx: Trx,
  input: TenantCreate & { actor: Actor; currentTenantId: string; id: string },
): Promise<Tenant> {
  const { actor, currentTenantId, id, ...tenant } = input;
  const before = await findVisibleTenant(trx, actor, id);
  if (!before) throw notFound();
  if (!actor.is_admin && id !== currentTenantId) throw forbidden();
  const takesDemoCode = isDemoTenantCode(tenant.tenantcode) && tenant.tenantcode.toLowerCase() !== before.tenantcode.toLowerCase();
  if (takesDemoCode || (await tenantCodeTaken(trx, tenant.tenantcode, id)))
    throw invalid({ tenantcode: [TENANT_MESSAGES.tenantcodeTaken] });
  const row = await updateTenant(trx, id, tenant);
  await recordAudit(await bindTenant(trx, id, actor.id), {
    action: 'update',
    entity: 'tenant',
    entityId: id,
    before: toTenant(before),
    after: toTenant(row),
  });
  return toTenant(row);
}
