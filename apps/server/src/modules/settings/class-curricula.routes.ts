import { classCurriculaEndpoint, saveClassCurriculaEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute } from '../../plugins/endpoints.js';
import { classCurricula, saveClassCurricula } from './class-curricula.service.js';

/**
 * Which classes are new-curriculum classes (issue 26 point 1): every member reads a year's
 * (the marks grid and the reports follow it); those who manage settings change it.
 */
export const classCurriculaRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, classCurriculaEndpoint, (context, { query }) => classCurricula(context, query.year));
  actionRoute(app, saveClassCurriculaEndpoint, (context, { body }) => saveClassCurricula(context, body));
};
