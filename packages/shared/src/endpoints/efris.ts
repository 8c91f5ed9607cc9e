import {
  EfrisDeviceInputSchema,
  EfrisDeviceSchema,
  EfrisDictionaryAnswerSchema,
  EfrisOutboxQuerySchema,
  EfrisOutboxResponseSchema,
  EfrisOutboxRowSchema,
  EfrisProductsQuerySchema,
  EfrisProductsResponseSchema,
  EfrisRegisterAnswerSchema,
  EfrisRegisterInputSchema,
  EfrisTinAnswerSchema,
  EfrisTinQuerySchema,
} from '../schemas/efris.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * EFRIS (issue 32 point 7). Business routes: a school's TENANTCODE gets 404 (tenant-kinds.ts).
 * Reading needs `read efris`, changing `manage efris`; the device's key is never answered.
 */

export const efrisDeviceEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/efris/device',
  access: { action: 'read', subject: 'efris' },
  response: EfrisDeviceSchema,
});

export const saveEfrisDeviceEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/efris/device',
  access: { action: 'manage', subject: 'efris' },
  body: EfrisDeviceInputSchema,
  response: EfrisDeviceSchema,
});

/** Fiscal documents queued for URA, newest first, with where each stands. */
export const efrisOutboxEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/efris/outbox',
  access: { action: 'read', subject: 'efris' },
  query: EfrisOutboxQuerySchema,
  response: EfrisOutboxResponseSchema,
});

/** Sends a failed (or waiting) document again now; a lost earlier reply is looked up first (T108). */
export const retryEfrisOutboxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/efris/outbox/:id/retry',
  access: { action: 'manage', subject: 'efris' },
  params: IdParamsSchema,
  response: EfrisOutboxRowSchema,
});

/** The business's products with their registration with URA (T130) and the stock URA was told of (T131). */
export const efrisProductsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/products/efris',
  access: { action: 'read', subject: 'efris' },
  query: EfrisProductsQuerySchema,
  response: EfrisProductsResponseSchema,
});

/** Registers the selected products with URA and stocks in what is on hand. */
export const registerEfrisProductsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/products/efris',
  access: { action: 'manage', subject: 'efris' },
  body: EfrisRegisterInputSchema,
  response: EfrisRegisterAnswerSchema,
});

/** URA's record of a TIN (T119): a B2B buyer's name as URA has it. */
export const efrisTinEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/efris/tin',
  access: { action: 'read', subject: 'efris' },
  query: EfrisTinQuerySchema,
  response: EfrisTinAnswerSchema,
});

/** URA's time (T101) and dictionary (T115): the codes the fiscal documents are built with. */
export const efrisDictionaryEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/efris/dictionary',
  access: { action: 'read', subject: 'efris' },
  response: EfrisDictionaryAnswerSchema,
});
