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
import { actionRoute, endpointRoute, withAction } from '../../plugins/endpoints.js';
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
  actionRoute(app, usersEndpoint, (context, { query }) => listUsers(context, query as ListQuery & { excel: boolean }));

  actionRoute(app, roleChoicesEndpoint, (context) => roleChoices(context));

  actionRoute(app, userEndpoint, (context, { params }) => getUser(context, params));

  endpointRoute(app, inviteUserEndpoint, async ({ body }, request) => {
    const invitation = await withAction(app, request, (context) => inviteMember(context, body, { publicUrl: app.config.publicUrl }));
    // The message was committed with the invitation: it goes now, not at the sender's next poll.
    app.mail.wake();
    return invitation;
  });

  actionRoute(app, invitationsEndpoint, ({ tx }, { query }) => listInvitations(tx, { page: query.page, perPage: query.per_page }));

  actionRoute(app, withdrawInvitationEndpoint, (context, { params }) => withdrawInvitation(context, { id: params.id }));

  actionRoute(app, removeUserEndpoint, (context, { params }) => removeMember(context, { id: params.id }));

  actionRoute(app, updateUserEndpoint, (context, { params, body }) => updateMember(context, { ...body, id: params.id }));
};
