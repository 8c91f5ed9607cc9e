import { UploadResultSchema } from '../schemas/common.js';
import {
  BusinessHomeSchema,
  BusinessSettingsInputSchema,
  BusinessSettingsSchema,
  BusinessUploadFieldsSchema,
  CountriesResponseSchema,
  StockLookupQuerySchema,
  StockLookupResponseSchema,
  StockMovementAnswerSchema,
  StockMovementInputSchema,
  StockOnHandQuerySchema,
  StockOnHandResponseSchema,
  StockRecordsQuerySchema,
  StockRecordsResponseSchema,
  StockValuationQuerySchema,
  StockValuationResponseSchema,
} from '../schemas/stock.js';
import { defineEndpoint } from './definition.js';

/*
 * The business side's calls besides its list screens (issue 31): the stock ledger, stock on
 * hand and valuation, the business's settings and dashboard, uploads and the countries. Every
 * one is a business route: a school's TENANTCODE gets 404 (plugins/endpoints.ts).
 */

/** The ledger, newest last, with the balance after each row (`excel=1`: the same as a workbook). */
export const stockRecordsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/stockrecords',
  access: 'member',
  query: StockRecordsQuerySchema,
  response: StockRecordsResponseSchema,
  spreadsheet: true,
});

/** Records one movement (opening, purchase, adjustment, transfer) as one transaction. */
export const recordStockEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/stockrecords',
  access: { action: 'create', subject: 'stock' },
  body: StockMovementInputSchema,
  response: StockMovementAnswerSchema,
});

/** Products with stock on hand per location (`low=1`: the low-stock list). */
export const stockOnHandEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/stockrecords/onhand',
  access: 'member',
  query: StockOnHandQuerySchema,
  response: StockOnHandResponseSchema,
  spreadsheet: true,
});

/** The product a typed or scanned code or barcode names, with its stock. */
export const stockLookupEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/stockrecords/lookup',
  access: 'member',
  query: StockLookupQuerySchema,
  response: StockLookupResponseSchema,
});

/** Stock valuation by moving average cost. */
export const stockValuationEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/stockrecords/valuation',
  access: 'member',
  query: StockValuationQuerySchema,
  response: StockValuationResponseSchema,
  spreadsheet: true,
});

export const businessSettingsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/business/settings',
  access: 'member',
  response: BusinessSettingsSchema,
});

export const saveBusinessSettingsEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/business/settings',
  access: { action: 'manage', subject: 'business-setting' },
  body: BusinessSettingsInputSchema,
  response: BusinessSettingsSchema,
});

/** The business dashboard: stock value, low-stock count, today's movements. */
export const businessHomeEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/home/business',
  access: 'member',
  response: BusinessHomeSchema,
});

/** The product list or the opening stock from a spreadsheet: all or nothing, errors by row. */
export const businessUploadEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/uploads',
  access: { action: 'manage', subject: 'product' },
  body: BusinessUploadFieldsSchema,
  file: { field: 'file', required: true },
  response: UploadResultSchema,
});

/** The workbook to fill in for an upload kind. */
export const businessUploadTemplateEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/uploads/template',
  access: { action: 'manage', subject: 'product' },
  query: BusinessUploadFieldsSchema.pick({ kind: true }),
  response: 'file',
});

/** The countries (spec §3: about 200, each with code, letter group and name). */
export const countriesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/countries',
  access: 'member',
  response: CountriesResponseSchema,
});
