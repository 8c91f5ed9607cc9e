import { HomeResponseSchema, HomeSetupSchema } from '../schemas/home.js';
import { defineEndpoint } from './definition.js';

/*
 * One file per area: a page imports the contracts it calls and no others (the dashboard's cold
 * load has a budget, and a module's top-level schemas are all built when it is imported).
 */

/** The dashboard's path; the page calls it by `homeRoute` (auth.ts), its cold load having no room for the schemas. */
export const HOME_PATH = '/api/home/mustard';

/** The dashboard's counts: active learners per class, and stock locations. */
export const homeEndpoint = defineEndpoint({
  method: 'GET',
  path: HOME_PATH,
  access: 'member',
  response: HomeResponseSchema,
});

/** The setup checklist's path (the dashboard calls it by `homeSetupRoute`). */
export const HOME_SETUP_PATH = '/api/home/setup';

/**
 * A new school's setup checklist: subjects, mark types, grade sets, learners, teachers, each done
 * or not. For those who set the school up (manage its settings); a teacher sees no checklist.
 */
export const homeSetupEndpoint = defineEndpoint({
  method: 'GET',
  path: HOME_SETUP_PATH,
  access: { action: 'manage', subject: 'setting' },
  response: HomeSetupSchema,
});
