import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reportKindRoute } from '../pipeline/kind.js';
import { marksheetKind } from './marksheet.service.js';

/**
 * The mark sheet (issue 15 point 7): a report kind (marksheet.service.ts) served by the
 * pipeline's route helper: the class read in the action's one transaction, then the table and
 * counts drawn after it as the preview (`html=1`), the PDF (`pdf=1`, the one document pool) or,
 * otherwise, the workbook (`excel=1`), so no connection waits on drawing.
 */
export const marksheetRoutes: FastifyPluginAsyncZod = async (app) => {
  reportKindRoute(app, marksheetKind);
};
