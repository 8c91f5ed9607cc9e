import {
  genericCommentsEndpoint,
  markCommentsEndpoint,
  ncCommentsEndpoint,
  saveGenericCommentsEndpoint,
  saveMarkCommentsEndpoint,
  saveNcCommentsEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute } from '../../plugins/endpoints.js';
import { loadMarkComments, saveMarkComments } from './mark-comments.service.js';

/**
 * Subject comments (`/api/school/markcomments`) and generic skills (`/api/school/genericcomments`):
 * the same load and save, of the subject comment or of the skills text (issue 16 points 1 and 6),
 * each in the action's one transaction with who acts; and the new-curriculum comments
 * (`/api/school/nccomments`, issue 27 point 3), the subject comments of a new-curriculum class.
 */
export const markCommentRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, markCommentsEndpoint, (context, { query }) => loadMarkComments(context, query, 'general'));
  actionRoute(app, saveMarkCommentsEndpoint, (context, { body }) => saveMarkComments(context, body, 'general'));
  actionRoute(app, genericCommentsEndpoint, (context, { query }) => loadMarkComments(context, query, 'skill'));
  actionRoute(app, saveGenericCommentsEndpoint, (context, { body }) => saveMarkComments(context, body, 'skill'));
  actionRoute(app, ncCommentsEndpoint, (context, { query }) => loadMarkComments(context, { ...query, nc: true }, 'general'));
  actionRoute(app, saveNcCommentsEndpoint, (context, { body }) => saveMarkComments(context, { ...body, nc: true }, 'general'));
};
