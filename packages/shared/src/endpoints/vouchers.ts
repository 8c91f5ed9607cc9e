import { MessageResponseSchema } from '../schemas/common.js';
import {
  VoucherAnswerSchema,
  VoucherInputSchema,
  VoucherPaySchema,
  VoucherSchema,
  VouchersQuerySchema,
  VouchersResponseSchema,
  VoucherUpdateSchema,
} from '../schemas/vouchers.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * Payment vouchers (issue 32 point 4): preparing a draft needs `create voucher`; approving and
 * paying need `manage voucher`. Every member of the business reads them. Business routes: a
 * school's TENANTCODE gets 404.
 */

export const vouchersEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/vouchers',
  access: 'member',
  query: VouchersQuerySchema,
  response: VouchersResponseSchema,
  spreadsheet: true,
});

export const voucherEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/vouchers/:id',
  access: 'member',
  params: IdParamsSchema,
  response: VoucherSchema,
});

export const createVoucherEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/vouchers',
  access: { action: 'create', subject: 'voucher' },
  body: VoucherInputSchema,
  response: VoucherAnswerSchema,
});

export const updateVoucherEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/vouchers/:id',
  access: { action: 'create', subject: 'voucher' },
  params: IdParamsSchema,
  body: VoucherUpdateSchema,
  response: VoucherAnswerSchema,
});

export const deleteVoucherEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/vouchers/:id',
  access: { action: 'create', subject: 'voucher' },
  params: IdParamsSchema,
  response: MessageResponseSchema,
});

/** Approves a draft: numbers it PV-000001 ... and freezes it. */
export const approveVoucherEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/vouchers/:id/approve',
  access: { action: 'manage', subject: 'voucher' },
  params: IdParamsSchema,
  response: VoucherAnswerSchema,
});

/** Pays an approved voucher: posts it to the books. */
export const payVoucherEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/vouchers/:id/pay',
  access: { action: 'manage', subject: 'voucher' },
  params: IdParamsSchema,
  body: VoucherPaySchema,
  response: VoucherAnswerSchema,
});
