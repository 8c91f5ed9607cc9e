import {
  MemoAnswerSchema,
  MemoInputSchema,
  MemoRemainsQuerySchema,
  MemoRemainsSchema,
  MemoSchema,
  MemosQuerySchema,
  MemosResponseSchema,
} from '../schemas/memos.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * Credit and debit memos against issued invoices (issue 32 point 3). Business routes: a school's
 * TENANTCODE is answered 404 by path (tenant-kinds.ts). A memo is issued when recorded: numbered
 * (CN-000001, DN-000001) and frozen, like an issued invoice.
 */

/** Memos, newest first (`excel=1`: the same as a workbook). */
export const memosEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/memos',
  access: 'member',
  query: MemosQuerySchema,
  response: MemosResponseSchema,
  spreadsheet: true,
});

/** What remains of an invoice's lines and total to credit (the new memo form). */
export const memoRemainsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/memos/remains',
  access: 'member',
  query: MemoRemainsQuerySchema,
  response: MemoRemainsSchema,
});

/** One memo with its lines. */
export const memoEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/memos/:id',
  access: 'member',
  params: IdParamsSchema,
  response: MemoSchema,
});

/** Records a credit or debit memo as one transaction: numbered, posted, restocked, queued for EFRIS. */
export const recordMemoEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/memos',
  access: { action: 'create', subject: 'sale' },
  body: MemoInputSchema,
  response: MemoAnswerSchema,
});
