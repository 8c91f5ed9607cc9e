import {
  createInvoiceEndpoint,
  deleteInvoiceEndpoint,
  invoiceDefaultsEndpoint,
  invoiceEndpoint,
  invoicesEndpoint,
  issueInvoiceEndpoint,
  updateInvoiceEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute, spreadsheetAnswer } from '../../plugins/endpoints.js';
import { invoiceList } from './invoice-list.service.js';
import { createDraft, deleteDraft, invoiceDefaults, invoiceOf, issueInvoice, updateDraft } from './sales.service.js';

/*
 * Sales invoices and the counter sale (issue 32 point 1). Business routes: a school's
 * TENANTCODE is answered 404 by path (shared tenant-kinds.ts). Each is one transaction.
 */
export const salesRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, invoicesEndpoint, async (context, { query }) => {
    const result = await invoiceList(context, query);
    return result.file ? spreadsheetAnswer(result.file.fileName, result.file.workbook) : result.answer;
  });
  actionRoute(app, invoiceDefaultsEndpoint, (context) => invoiceDefaults(context));
  actionRoute(app, invoiceEndpoint, (context, { params }) => invoiceOf(context.tx, params.id));
  actionRoute(app, createInvoiceEndpoint, (context, { body }) => createDraft(context, body));
  actionRoute(app, updateInvoiceEndpoint, (context, { params, body }) => updateDraft(context, params.id, body));
  actionRoute(app, deleteInvoiceEndpoint, (context, { params }) => deleteDraft(context, params.id));
  actionRoute(app, issueInvoiceEndpoint, (context, { params }) => issueInvoice(context, params.id));
};
