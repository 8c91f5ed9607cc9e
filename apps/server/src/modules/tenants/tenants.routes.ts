import { createTenantEndpoint, type ListQuery, tenantEndpoint, tenants, tenantsEndpoint, updateTenantEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentTenant, currentUser } from '../../plugins/access.js';
import { EXPORT_LIMIT, listWorkbook } from '../../resources/resource-routes.js';
import { userEndpointRoute } from '../auth/routing.js';
import { createTenant, getTenant, listVisibleTenants, updateTenantById } from './tenants.service.js';

/**
 * Tenants (schools and businesses), spec §2 "Tenants" and §5 "Tenant create and edit"; contracts
 * in shared endpoints/tenants.ts. Tenant routes in access (TENANTCODE and a permission), whose
 * work runs in the person's own transaction: which tenants they see depends on their memberships.
 */
export const tenantRoutes: FastifyPluginAsyncZod = async (app) => {
  userEndpointRoute(app, tenantsEndpoint, async (trx, { query }, request) => {
    // The resource's list query (search, paging, excel), typed by its fields here.
    const { search, page, per_page, excel } = query as ListQuery & { excel: boolean };
    // The spreadsheet holds what the list shows the person: their own schools (all, for a
    // platform administrator), the export columns only, never contact details.
    const paging = excel ? { page: 1, perPage: EXPORT_LIMIT } : { page, perPage: per_page };
    const answer = await listVisibleTenants(trx, { viewer: currentUser(request), query: { search, ...paging } });
    if (!excel) return answer;
    return listWorkbook(tenants, answer.tenants);
  });

  userEndpointRoute(app, tenantEndpoint, (trx, { params }, request) => getTenant(trx, { viewer: currentUser(request), id: params.id }));

  userEndpointRoute(app, createTenantEndpoint, (trx, { body }, request) => createTenant(trx, { ...body, actor: currentUser(request) }));

  userEndpointRoute(app, updateTenantEndpoint, (trx, { params, body }, request) =>
    updateTenantById(trx, { ...body, actor: currentUser(request), currentTenantId: currentTenant(request).tenant.id, id: params.id }),
  );
};
