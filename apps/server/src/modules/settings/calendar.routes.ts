import { saveTermDatesEndpoint, termDatesEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute } from '../../plugins/endpoints.js';
import { saveTermDates, termDates } from './calendar.service.js';

/**
 * The school's calendar (issue 10 point 13): every member reads it (it sets the default term
 * of every filter); those who manage settings change a year's terms, all three at once.
 */
export const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, termDatesEndpoint, (context, { query }) => termDates(context, query.year));
  actionRoute(app, saveTermDatesEndpoint, (context, { body }) => saveTermDates(context, body));
};
