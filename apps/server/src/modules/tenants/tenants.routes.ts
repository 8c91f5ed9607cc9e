import {
  IdParamsSchema,
  type ListQuery,
  listQuerySchema,
  TenantCreateSchema,
  TenantListResponseSchema,
  TenantResponseSchema,
  TenantSchema,
  TenantUpdateSchema,
  tenants,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withUser } from '../../db/tenant.js';
import { notFound } from '../../errors.js';
import { currentTenant, currentUser } from '../../plugins/access.js';
import { EXPORT_LIMIT, sendListWorkbook } from '../../resources/resource-routes.js';
import { findVisibleTenant, listTenants, toTenant } from './tenants.repository.js';
import { createTenant, updateTenantById } from './tenants.service.js';

/** Tenants (schools and businesses), spec §2 "Tenants" and §5 "Tenant create and edit". */
export const tenantRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  app.get(
    '/api/tenants',
    {
      config: { access: { action: 'read', subject: 'tenant' } },
      schema: { querystring: listQuerySchema(tenants), response: { 200: TenantListResponseSchema } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { search, page, per_page, excel } = request.query as ListQuery & { excel: boolean };
      // The spreadsheet holds what the list shows the person: their own schools (all, for a
      // platform administrator), the export columns only, never contact details.
      const paging = excel ? { page: 1, perPage: EXPORT_LIMIT } : { page, perPage: per_page };
      const answer = await withUser(db, user.id, (trx) => listTenants(trx, user, { search, ...paging }));
      if (excel) return sendListWorkbook(reply, tenants, answer.tenants);
      return answer;
    },
  );

  app.get(
    '/api/tenants/:id',
    {
      config: { access: { action: 'read', subject: 'tenant' } },
      schema: { params: IdParamsSchema, response: { 200: TenantResponseSchema } },
    },
    async (request) => {
      const user = currentUser(request);
      const row = await withUser(db, user.id, (trx) => findVisibleTenant(trx, user, request.params.id));
      if (!row) throw notFound();
      return { tenant: toTenant(row) };
    },
  );

  app.post(
    '/api/tenants',
    { config: { access: { action: 'create', subject: 'tenant' } }, schema: { body: TenantCreateSchema, response: { 200: TenantSchema } } },
    async (request) => createTenant(db, currentUser(request), request.body),
  );

  app.put(
    '/api/tenants/:id',
    {
      config: { access: { action: 'update', subject: 'tenant' } },
      schema: { params: IdParamsSchema, body: TenantUpdateSchema, response: { 200: TenantSchema } },
    },
    async (request) => updateTenantById(db, currentUser(request), currentTenant(request).tenant.id, request.params.id, request.body),
  );
};
