import {
  IdParamsSchema,
  InvitationCreatedSchema,
  InvitationCreateSchema,
  InvitationListResponseSchema,
  ListQuerySchema,
  MessageResponseSchema,
  ProfileQuerySchema,
  ProfileResponseSchema,
  USER_MESSAGES,
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
import { listInvitations } from './invitations.repository.js';
import { inviteMember, withdrawInvitation } from './invitations.service.js';
import { findMember, listMembers, toUser } from './users.repository.js';
import { removeMember, updateMember } from './users.service.js';

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

  /** Invites a person (issue 9 point 2): the answer is the invitation, whoever the e-mail belongs to. */
  app.post(
    '/api/users',
    {
      config: { access: { action: 'create', subject: 'user' } },
      schema: { body: InvitationCreateSchema, response: { 200: InvitationCreatedSchema } },
    },
    async (request) => inviteMember(db, tenantScope(request), currentTenant(request), request.body),
  );

  /** The school's pending invitations, newest first: who has not yet answered. */
  app.get(
    '/api/users/invitations',
    {
      config: { access: { action: 'read', subject: 'user' } },
      schema: { querystring: ListQuerySchema.omit({ search: true }), response: { 200: InvitationListResponseSchema } },
    },
    async (request) => {
      const scope = tenantScope(request);
      const { page, per_page } = request.query;
      return withTenant(db, scope, (trx) => listInvitations(trx, scope.tenantId, { page, perPage: per_page }));
    },
  );

  app.delete(
    '/api/users/invitations/:id',
    {
      config: { access: { action: 'create', subject: 'user' } },
      schema: { params: IdParamsSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      await withdrawInvitation(db, tenantScope(request), currentTenant(request), request.params.id);
      return { message: USER_MESSAGES.invitationWithdrawn };
    },
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
