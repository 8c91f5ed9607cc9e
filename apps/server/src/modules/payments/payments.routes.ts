import {
  allocateReceiptEndpoint,
  counterSaleEndpoint,
  memoEndpoint,
  memoRemainsEndpoint,
  memosEndpoint,
  openInvoicesEndpoint,
  receiptEndpoint,
  receiptsEndpoint,
  recordMemoEndpoint,
  recordReceiptEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute, spreadsheetAnswer } from '../../plugins/endpoints.js';
import { counterSale } from './counter.service.js';
import { listMemos, memoById, memoRemains, recordMemo } from './memos.service.js';
import { allocateReceipt, listReceipts, openInvoices, receiptById, recordReceipt } from './receipts.service.js';

/*
 * Getting paid (issue 32 points 2 and 3): receipts with their allocations, and credit and debit
 * memos against issued invoices. Business routes: a school's TENANTCODE is answered 404 by path
 * (shared tenant-kinds.ts). Reading is for members; recording for those who may create a sale.
 * The counter sale (POST /api/invoices/counter) lives here: it issues an invoice and records its
 * receipt in one transaction, and payments may use sales, not the reverse.
 */

type Sheet = { fileName: string; workbook: Buffer };
const sheetOr = <T>(result: { answer?: T; file?: Sheet }) =>
  result.file ? spreadsheetAnswer(result.file.fileName, result.file.workbook) : (result.answer as T);

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, receiptsEndpoint, async (context, { query }) => sheetOr(await listReceipts(context, query)));
  actionRoute(app, openInvoicesEndpoint, (context, { query }) => openInvoices(context, query.customer_id));
  actionRoute(app, receiptEndpoint, (context, { params }) => receiptById(context, params.id));
  actionRoute(app, recordReceiptEndpoint, (context, { body }) => recordReceipt(context, body));
  actionRoute(app, allocateReceiptEndpoint, (context, { params, body }) => allocateReceipt(context, params.id, body));
  actionRoute(app, memosEndpoint, async (context, { query }) => sheetOr(await listMemos(context, query)));
  actionRoute(app, memoRemainsEndpoint, (context, { query }) => memoRemains(context, query.invoice_id));
  actionRoute(app, memoEndpoint, (context, { params }) => memoById(context, params.id));
  actionRoute(app, recordMemoEndpoint, (context, { body }) => recordMemo(context, body));
  actionRoute(app, counterSaleEndpoint, (context, { body }) => counterSale(context, body));
};
