import { HomeResponseSchema } from '../schemas/home.js';
import { defineEndpoint } from './definition.js';

/*
 * One file per area: a page imports the contracts it calls and no others (the dashboard's cold
 * load has a budget, and a module's top-level schemas are all built when it is imported).
 */

/** The dashboard's path alone, for a page that cannot afford the schema library (see HomePage). */
export const HOME_PATH = '/api/home/mustard';

/** The dashboard's counts: active learners per class, and stock locations. */
export const homeEndpoint = defineEndpoint({
  method: 'GET',
  path: HOME_PATH,
  access: 'member',
  response: HomeResponseSchema,
});
