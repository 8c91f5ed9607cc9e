import {
  businessHomeEndpoint,
  businessSettingsEndpoint,
  recordStockEndpoint,
  saveBusinessSettingsEndpoint,
  stockLookupEndpoint,
  stockOnHandEndpoint,
  stockRecordsEndpoint,
  stockValuationEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute, spreadsheetAnswer } from '../../plugins/endpoints.js';
import { recordStockMovement } from './stock.service.js';
import {
  businessHome,
  businessSettings,
  saveSettings,
  stockLedger,
  stockLookup,
  stockOnHand,
  stockValuation,
  type Workbook,
} from './stock-views.service.js';

/*
 * The stock ledger's routes (issue 31 points 4, 5 and 7): recording a movement, the ledger, stock
 * on hand, the lookup of a scanned code, the valuation, the business's settings and dashboard.
 * Business routes: a school's TENANTCODE is answered 404 by path (shared tenant-kinds.ts).
 */

const sheetOr = <T>(result: { answer?: T; file?: Workbook }) =>
  result.file ? spreadsheetAnswer(result.file.fileName, result.file.workbook) : (result.answer as T);

export const stockRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, recordStockEndpoint, (context, { body }) => recordStockMovement(context, body));
  actionRoute(app, stockRecordsEndpoint, async (context, { query }) => sheetOr(await stockLedger(context, query)));
  actionRoute(app, stockOnHandEndpoint, async (context, { query }) => sheetOr(await stockOnHand(context, query)));
  actionRoute(app, stockLookupEndpoint, (context, { query }) => stockLookup(context, query));
  actionRoute(app, stockValuationEndpoint, async (context, { query }) => sheetOr(await stockValuation(context, query)));
  actionRoute(app, businessSettingsEndpoint, (context) => businessSettings(context));
  actionRoute(app, saveBusinessSettingsEndpoint, (context, { body }) => saveSettings(context, body));
  actionRoute(app, businessHomeEndpoint, (context) => businessHome(context));
};
