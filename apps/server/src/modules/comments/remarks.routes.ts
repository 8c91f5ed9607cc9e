import { deleteRemarksEndpoint, remarksEndpoint, saveRemarksEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentTenant } from '../../plugins/access.js';
import { tenantEndpointRoute } from '../../plugins/endpoints.js';
import { deleteRemarks, loadRemarks, saveRemarks } from './remarks.service.js';

/** Report comments (issue 16 points 2 to 5): a class's remarks read, saved and deleted, each in one transaction. */
export const remarkRoutes: FastifyPluginAsyncZod = async (app) => {
  tenantEndpointRoute(app, remarksEndpoint, (tx, { query }) => loadRemarks(tx, query));
  tenantEndpointRoute(app, saveRemarksEndpoint, (tx, { body }, request) => saveRemarks(tx, body, currentTenant(request)));
  tenantEndpointRoute(app, deleteRemarksEndpoint, (tx, { body }) => deleteRemarks(tx, body));
};
