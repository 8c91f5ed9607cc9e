import { MessageResponseSchema } from '../schemas/common.js';
import {
  CounterSaleAnswerSchema,
  CounterSaleInputSchema,
  InvoiceAnswerSchema,
  InvoiceDefaultsSchema,
  InvoiceInputSchema,
  InvoiceSchema,
  InvoicesQuerySchema,
  InvoicesResponseSchema,
} from '../schemas/invoices.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * Sales invoices and the counter sale (issue 32 point 1). Business routes: a school's
 * TENANTCODE gets 404 (tenant-kinds.ts). Reading is for every member; drafting, issuing and
 * selling need the `sale` ability (a cashier creates, a manager manages).
 */

/** Invoices from `sdate` (default 2020-01-01), with what is paid and their payment status (`excel=1`: a workbook). */
export const invoicesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/invoices',
  access: 'member',
  query: InvoicesQuerySchema,
  response: InvoicesResponseSchema,
  spreadsheet: true,
});

/** What a new invoice starts from: the walk-in customer, the location, currency, today, taxes, payment methods. */
export const invoiceDefaultsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/invoices/defaults',
  access: 'member',
  response: InvoiceDefaultsSchema,
});

export const invoiceEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/invoices/:id',
  access: 'member',
  params: IdParamsSchema,
  response: InvoiceSchema,
});

/** Saves a draft: no number, no effect on stock or the books. */
export const createInvoiceEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/invoices',
  access: { action: 'create', subject: 'sale' },
  body: InvoiceInputSchema,
  response: InvoiceAnswerSchema,
});

/** Changes a draft (409 once issued). */
export const updateInvoiceEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/invoices/:id',
  access: { action: 'create', subject: 'sale' },
  params: IdParamsSchema,
  body: InvoiceInputSchema,
  response: InvoiceAnswerSchema,
});

/** Deletes a draft (409 once issued). */
export const deleteInvoiceEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/invoices/:id',
  access: { action: 'create', subject: 'sale' },
  params: IdParamsSchema,
  response: MessageResponseSchema,
});

/** Issues a draft: numbered, frozen, stock out, posted to the books, queued for EFRIS. */
export const issueInvoiceEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/invoices/:id/issue',
  access: { action: 'create', subject: 'sale' },
  params: IdParamsSchema,
  response: InvoiceAnswerSchema,
});

/** A counter cash sale: created, issued and paid in one transaction. */
export const counterSaleEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/invoices/counter',
  access: { action: 'create', subject: 'sale' },
  body: CounterSaleInputSchema,
  response: CounterSaleAnswerSchema,
});
