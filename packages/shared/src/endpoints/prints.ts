import { z } from 'zod';
import { PRINT_FORMATS, PRINT_OUTPUTS } from '../business/print.js';
import { INPUT_MESSAGES } from '../messages.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * The prints of a sales document (issue 32 point 6), all from the one model (business/print.ts):
 * `format=a4` (default) an A4 PDF; `format=80mm` or `58mm` the thermal receipt, as a PDF as
 * wide as the paper (`output=pdf`, default) or as plain text of 48 / 32 characters a line for a
 * receipt printer (`output=text`). Any member of the business may print (a cashier reprints a
 * receipt); business routes: a school's TENANTCODE gets 404, another business's id 404.
 */

export const PrintQuerySchema = z
  .object({
    format: z.enum(PRINT_FORMATS, { error: INPUT_MESSAGES.valueInvalid }).default('a4'),
    output: z.enum(PRINT_OUTPUTS, { error: INPUT_MESSAGES.valueInvalid }).default('pdf'),
  })
  // Text is the thermal printers' (48 or 32 characters a line); an A4 page is a PDF.
  .refine((query) => !(query.format === 'a4' && query.output === 'text'), { path: ['output'], error: INPUT_MESSAGES.valueInvalid });
export type PrintQuery = z.output<typeof PrintQuerySchema>;

/** An invoice (or counter cash sale) printed; a draft prints marked DRAFT. */
export const printInvoiceEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/invoices/:id/print',
  access: 'member',
  params: IdParamsSchema,
  query: PrintQuerySchema,
  response: 'file',
});

/** A receipt printed, with the invoices it paid and what was kept as an advance. */
export const printReceiptEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/receipts/:id/print',
  access: 'member',
  params: IdParamsSchema,
  query: PrintQuerySchema,
  response: 'file',
});
