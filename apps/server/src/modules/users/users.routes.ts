import {
  invitationsEndpoint,
  inviteUserEndpoint,
  type ListQuery,
  profileEndpoint,
  removeUserEndpoint,
  roleChoicesEndpoint,
  updateUserEndpoint,
  userEndpoint,
  usersEndpoint,
  withdrawInvitationEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentTenant, currentUser, loadMemberContext } from '../../plugins/access.js';
import { endpointRoute, tenantEndpointRoute } from '../../plugins/endpoints.js';
import { buildProfile } from '../auth/auth.service.js';
import { listInvitations } from './invitations.repository.js';
import { inviteMember, withdrawInvitation } from './invitations.service.js';
import { getUser, listUsers, removeMember, roleChoices, updateMember } from './users.service.js';

/** A school's people (contracts in shared endpoints/users.ts); the invited person's side is invitations.routes.ts. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The profile reads the member context the access check loaded (or the school switched to): no transaction. */
  endpointRoute(app, profileEndpoint, async ({ query }, request) => {
    const user = currentUser(request);
    const here = currentTenant(request);
    const context =
      query.tenant_id && query.tenant_id !== here.tenant.id ? await loadMemberContext(request, { tenantId: query.tenant_id }) : here;
    return buildProfile(user, context);
  });

  // The resource's list query (search, paging, excel), typed by its fields here.
  tenantEndpointRoute(app, usersEndpoint, (tx, { query }) => listUsers(tx, query as ListQuery & { excel: boolean }));

  tenantEndpointRoute(app, roleChoicesEndpoint, (tx, _input, request) => roleChoices(tx, currentTenant(request)));

  tenantEndpointRoute(app, userEndpoint, (tx, { params }) => getUser(tx, params));

  tenantEndpointRoute(app, inviteUserEndpoint, (tx, { body }, request) => inviteMember(tx, { ...body, grantor: currentTenant(request) }));

  tenantEndpointRoute(app, invitationsEndpoint, (tx, { query }) => listInvitations(tx, { page: query.page, perPage: query.per_page }));

  tenantEndpointRoute(app, withdrawInvitationEndpoint, (tx, { params }, request) =>
    withdrawInvitation(tx, { grantor: currentTenant(request), id: params.id }),
  );

  tenantEndpointRoute(app, removeUserEndpoint, (tx, { params }, request) =>
    removeMember(tx, { grantor: currentTenant(request), id: params.id }),
  );

  tenantEndpointRoute(app, updateUserEndpoint, (tx, { params, body }, request) =>
    updateMember(tx, { ...body, grantor: currentTenant(request), id: params.id }),
  );
};
