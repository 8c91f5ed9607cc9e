import { deleteRemarksEndpoint, ncRemarksEndpoint, remarksEndpoint, saveRemarksEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute } from '../../plugins/endpoints.js';
import { deleteRemarks, loadRemarks, saveRemarks } from './remarks.service.js';

/** Report comments (issue 16 points 2 to 5; issue 27 point 3): a class's remarks read, saved and deleted, each in the action's one transaction. */
export const remarkRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, remarksEndpoint, (context, { query }) => loadRemarks(context, query));
  // New-curriculum report comments (issue 27 point 3): the same remarks, beside competency scores; saved as every remark is.
  actionRoute(app, ncRemarksEndpoint, (context, { query }) => loadRemarks(context, { ...query, nc: true }));
  actionRoute(app, saveRemarksEndpoint, (context, { body }) => saveRemarks(context, body));
  actionRoute(app, deleteRemarksEndpoint, (context, { body }) => deleteRemarks(context, body));
};
