import {
  IdParamsSchema,
  ListQuerySchema,
  MessageResponseSchema,
  ProfileQuerySchema,
  ProfileResponseSchema,
  UserCreateSchema,
  UserListResponseSchema,
  UserResponseSchema,
  UserSchema,
  UserUpdateSchema,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withTenant } from '../../db/tenant.js';
import { notFound } from '../../errors.js';
import { currentTenant, currentUser, loadMemberContext, tenantScope } from '../../plugins/access.js';
import { buildProfile } from '../auth/auth.service.js';
import { findMember, listMembers, toUser } from './users.repository.js';
import { createMember, removeMember, updateMember } from './users.service.js';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  /** The session user with roles and permissions in the tenant; `tenant_id` switches school. */
  app.get(
    '/api/users/profile',
    { config: { access: 'member' }, schema: { querystring: ProfileQuerySchema, response: { 200: ProfileResponseSchema } } },
    async (request) => {
      const user = currentUser(request);
      const wanted = request.query.tenant_id;
      const context =
        wanted && wanted !== currentTenant(request).tenant.id
          ? await loadMemberContext(app, user, { tenantId: wanted })
          : currentTenant(request);
      return buildProfile(user, context);
    },
  );

  app.get(
    '/api/users',
    {
      config: { access: { action: 'read', subject: 'user' } },
      schema: { querystring: ListQuerySchema, response: { 200: UserListResponseSchema } },
    },
    async (request) => {
      const scope = tenantScope(request);
      const { search, page, per_page } = request.query;
      return withTenant(db, scope, (trx) => listMembers(trx, scope.tenantId, { search, page, perPage: per_page }));
    },
  );

  app.get(
    '/api/users/:id',
    { config: { access: { action: 'read', subject: 'user' } }, schema: { params: IdParamsSchema, response: { 200: UserResponseSchema } } },
    async (request) => {
      const scope = tenantScope(request);
      const row = await withTenant(db, scope, (trx) => findMember(trx, scope.tenantId, request.params.id));
      if (!row) throw notFound();
      return { user: toUser(row) };
    },
  );

  app.post(
    '/api/users',
    { config: { access: { action: 'create', subject: 'user' } }, schema: { body: UserCreateSchema, response: { 200: UserSchema } } },
    async (request) => createMember(db, tenantScope(request), currentTenant(request), request.body),
  );

  app.delete(
    '/api/users/:id',
    {
      config: { access: { action: 'delete', subject: 'user' } },
      schema: { params: IdParamsSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      await removeMember(db, tenantScope(request), currentTenant(request), request.params.id);
      return { message: 'Successfully deleted' };
    },
  );

  app.put(
    '/api/users/:id',
    {
      config: { access: { action: 'update', subject: 'user' } },
      schema: { params: IdParamsSchema, body: UserUpdateSchema, response: { 200: UserSchema } },
    },
    async (request) => updateMember(db, tenantScope(request), currentTenant(request), request.params.id, request.body),
  );
};
