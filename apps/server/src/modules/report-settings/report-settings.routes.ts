import { gradingRulesEndpoint, reportLayoutEndpoint, saveGradingRulesEndpoint, saveReportLayoutEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantEndpointRoute } from '../../plugins/endpoints.js';
import { gradingRules, reportLayout, saveGradingRules, saveReportLayout } from './report-settings.service.js';

/**
 * A school's grading rules and report layout (issue 15 points 1 and 5): every member reads them
 * (reports are drawn from them); those who manage settings save them, with the version read.
 */
export const reportSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  tenantEndpointRoute(app, gradingRulesEndpoint, (tx) => gradingRules(tx));
  tenantEndpointRoute(app, saveGradingRulesEndpoint, (tx, { body }) => saveGradingRules(tx, body));
  tenantEndpointRoute(app, reportLayoutEndpoint, (tx) => reportLayout(tx));
  tenantEndpointRoute(app, saveReportLayoutEndpoint, (tx, { body }) => saveReportLayout(tx, body));
};
