import {
  AllocationsInputSchema,
  OpenInvoicesQuerySchema,
  OpenInvoicesResponseSchema,
  ReceiptAnswerSchema,
  ReceiptInputSchema,
  ReceiptSchema,
  ReceiptsQuerySchema,
  ReceiptsResponseSchema,
} from '../schemas/receipts.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * Receipts (issue 32 point 2): money received and what it settles. Business routes: a school's
 * TENANTCODE is answered 404 by path (tenant-kinds.ts). Receipts are append-only: recorded once,
 * allocated later by new rows, never edited or deleted.
 */

/** Receipts, newest first, filtered by day, method and customer (`excel=1`: the same as a workbook). */
export const receiptsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/receipts',
  access: 'member',
  query: ReceiptsQuerySchema,
  response: ReceiptsResponseSchema,
  spreadsheet: true,
});

/** A customer's issued invoices with a balance left, oldest first (the receipt form's allocation grid). */
export const openInvoicesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/receipts/openinvoices',
  access: 'member',
  query: OpenInvoicesQuerySchema,
  response: OpenInvoicesResponseSchema,
});

/** One receipt with its allocations. */
export const receiptEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/receipts/:id',
  access: 'member',
  params: IdParamsSchema,
  response: ReceiptSchema,
});

/** Records a receipt with its allocations as one transaction; the same request_id again records nothing. */
export const recordReceiptEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/receipts',
  access: { action: 'create', subject: 'sale' },
  body: ReceiptInputSchema,
  response: ReceiptAnswerSchema,
});

/** Applies what remains unallocated on a receipt (an advance) to the customer's invoices. */
export const allocateReceiptEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/receipts/:id/allocations',
  access: { action: 'create', subject: 'sale' },
  params: IdParamsSchema,
  body: AllocationsInputSchema,
  response: ReceiptAnswerSchema,
});
