import { homeEndpoint, homeSetupEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute } from '../../plugins/endpoints.js';
import { homeCounts, homeSetup } from './home.service.js';

/** Home dashboard: active learners per class, in the school's class order (spec §2 "Home"), and stock locations. */
export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, homeEndpoint, (context) => homeCounts(context));
  actionRoute(app, homeSetupEndpoint, (context) => homeSetup(context));
};
