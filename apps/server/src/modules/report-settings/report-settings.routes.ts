import { gradingRulesEndpoint, reportLayoutEndpoint, saveGradingRulesEndpoint, saveReportLayoutEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute } from '../../plugins/endpoints.js';
import { gradingRules, reportLayout, saveGradingRules, saveReportLayout } from './report-settings.service.js';

/**
 * A school's grading rules and report layout (issue 15 points 1 and 5): every member reads them
 * (reports are drawn from them); those who manage settings save them, with the version read.
 */
export const reportSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, gradingRulesEndpoint, (context) => gradingRules(context));
  actionRoute(app, saveGradingRulesEndpoint, (context, { body }) => saveGradingRules(context, body));
  actionRoute(app, reportLayoutEndpoint, (context) => reportLayout(context));
  actionRoute(app, saveReportLayoutEndpoint, (context, { body }) => saveReportLayout(context, body));
};
