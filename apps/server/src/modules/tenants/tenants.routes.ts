import {
  IdParamsSchema,
  ListQuerySchema,
  TenantCreateSchema,
  TenantListResponseSchema,
  TenantResponseSchema,
  TenantSchema,
  TenantUpdateSchema,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withUser } from '../../db/tenant.js';
import { notFound } from '../../errors.js';
import { currentTenant, currentUser } from '../../plugins/access.js';
import { findVisibleTenant, listTenants, toTenant } from './tenants.repository.js';
import { createTenant, updateTenantById } from './tenants.service.js';

/** Tenants (schools and businesses), spec §2 "Tenants" and §5 "Tenant create and edit". */
export const tenantRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  app.get(
    '/api/tenants',
    {
      config: { access: { action: 'read', subject: 'tenant' } },
      schema: { querystring: ListQuerySchema, response: { 200: TenantListResponseSchema } },
    },
    async (request) => {
      const user = currentUser(request);
      const { search, page, per_page } = request.query;
      return withUser(db, user.id, (trx) => listTenants(trx, user, { search, page, perPage: per_page }));
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
