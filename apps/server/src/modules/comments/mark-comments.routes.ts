import { genericCommentsEndpoint, markCommentsEndpoint, saveGenericCommentsEndpoint, saveMarkCommentsEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentTenant } from '../../plugins/access.js';
import { tenantEndpointRoute } from '../../plugins/endpoints.js';
import { loadMarkComments, saveMarkComments } from './mark-comments.service.js';

/**
 * Subject comments (`/api/school/markcomments`) and generic skills (`/api/school/genericcomments`):
 * the same load and save, of the subject comment or of the skills text (issue 16 points 1 and 6).
 */
export const markCommentRoutes: FastifyPluginAsyncZod = async (app) => {
  tenantEndpointRoute(app, markCommentsEndpoint, (tx, { query }, request) =>
    loadMarkComments(tx, query, currentTenant(request), 'general'),
  );
  tenantEndpointRoute(app, saveMarkCommentsEndpoint, (tx, { body }, request) =>
    saveMarkComments(tx, body, currentTenant(request), 'general'),
  );
  tenantEndpointRoute(app, genericCommentsEndpoint, (tx, { query }, request) =>
    loadMarkComments(tx, query, currentTenant(request), 'skill'),
  );
  tenantEndpointRoute(app, saveGenericCommentsEndpoint, (tx, { body }, request) =>
    saveMarkComments(tx, body, currentTenant(request), 'skill'),
  );
};
