import {
  approveVoucherEndpoint,
  createVoucherEndpoint,
  deleteVoucherEndpoint,
  payVoucherEndpoint,
  updateVoucherEndpoint,
  voucherEndpoint,
  vouchersEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute, spreadsheetAnswer } from '../../plugins/endpoints.js';
import { approveVoucher, createVoucher, deleteVoucher, payVoucher, updateVoucher, voucherById, vouchersList } from './vouchers.service.js';

/*
 * Payment vouchers' routes (issue 32 point 4): the list and one voucher for every member,
 * drafts for those who may create vouchers, approval and payment for those who manage them.
 * Business routes: a school's TENANTCODE is answered 404 by path (shared tenant-kinds.ts).
 */
export const vouchersRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, vouchersEndpoint, async ({ tx }, { query }) => {
    const result = await vouchersList(tx, query);
    return 'file' in result && result.file ? spreadsheetAnswer(result.file.fileName, result.file.workbook) : result.answer;
  });
  actionRoute(app, voucherEndpoint, ({ tx }, { params }) => voucherById(tx, params.id));
  actionRoute(app, createVoucherEndpoint, (context, { body }) => createVoucher(context, body));
  actionRoute(app, updateVoucherEndpoint, (context, { params, body }) => updateVoucher(context, params.id, body));
  actionRoute(app, deleteVoucherEndpoint, (context, { params }) => deleteVoucher(context, params.id));
  actionRoute(app, approveVoucherEndpoint, (context, { params }) => approveVoucher(context, params.id));
  actionRoute(app, payVoucherEndpoint, (context, { params, body }) => payVoucher(context, params.id, body));
};
