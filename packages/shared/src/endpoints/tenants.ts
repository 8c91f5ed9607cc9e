import { tenants } from '../resources/business.js';
import { listQuerySchema } from '../resources/definition.js';
import { TenantListResponseSchema, TenantNewSchema, TenantResponseSchema, TenantSchema, TenantUpdateSchema } from '../schemas/tenant.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * Tenants (schools and businesses), written by hand: a new tenant gets default roles and its
 * creator as administrator. The list screen is the common one (resources/business.ts).
 */

/** The tenants the person belongs to (every one, for a platform administrator); `excel=1` for a spreadsheet. */
export const tenantsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/tenants',
  access: { action: 'read', subject: 'tenant' },
  query: listQuerySchema(tenants),
  response: TenantListResponseSchema,
  spreadsheet: true,
});

/** One tenant the person may see, as `{ tenant }`. */
export const tenantEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/tenants/:id',
  access: { action: 'read', subject: 'tenant' },
  params: IdParamsSchema,
  response: TenantResponseSchema,
});

/**
 * A new tenant with its default roles; its creator becomes its administrator. A school may start
 * with the Ugandan primary or secondary defaults (`defaults`, issue 24), set up in the same
 * transaction.
 */
export const createTenantEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/tenants',
  access: { action: 'create', subject: 'tenant' },
  body: TenantNewSchema,
  response: TenantSchema,
});

/** The whole form of a tenant, saved: the one worked in, or any for a platform administrator. */
export const updateTenantEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/tenants/:id',
  access: { action: 'update', subject: 'tenant' },
  params: IdParamsSchema,
  body: TenantUpdateSchema,
  response: TenantSchema,
});
