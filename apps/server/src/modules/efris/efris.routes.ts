import {
  efrisDeviceEndpoint,
  efrisDictionaryEndpoint,
  efrisOutboxEndpoint,
  efrisProductsEndpoint,
  efrisTinEndpoint,
  registerEfrisProductsEndpoint,
  retryEfrisOutboxEndpoint,
  saveEfrisDeviceEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentTenant } from '../../plugins/access.js';
import { actionRoute, endpointRoute, withAction } from '../../plugins/endpoints.js';
import {
  deviceView,
  dictionaryAnswer,
  efrisProblemAnswer,
  outboxList,
  productsList,
  registrationCheck,
  retryOutbox,
  saveDeviceSettings,
  tinAnswer,
} from './efris.service.js';

/*
 * EFRIS's routes (issue 32 point 7). Business routes (tenant-kinds.ts: /api/efris, /api/products).
 * Registering products and checking a TIN talk to URA: the request's checks run in one
 * transaction, URA is called after it (each message kept in its own), and the answer is read in
 * another, so a slow URA holds no connection.
 */
export const efrisRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ secretsKey: app.config.secretsKey, fake: app.efris.fake });
  actionRoute(app, efrisDeviceEndpoint, (context) => deviceView(context, deps()));
  actionRoute(app, saveEfrisDeviceEndpoint, (context, { body }) => saveDeviceSettings(context, body, deps()));
  actionRoute(app, efrisOutboxEndpoint, (context, { query }) => outboxList(context, query));
  endpointRoute(app, retryEfrisOutboxEndpoint, async ({ params }, request) => {
    const row = await withAction(app, request, (context) => retryOutbox(context, params.id));
    app.efris.worker.wake();
    return row;
  });
  actionRoute(app, efrisProductsEndpoint, (context, { query }) => productsList(context, query));
  endpointRoute(app, registerEfrisProductsEndpoint, async ({ body }, request) => {
    const checked = await withAction(app, request, (context) => registrationCheck(context, body.product_ids));
    const tenantId = currentTenant(request).tenant.id;
    const worker = app.efris.worker;
    const device = await worker.device(tenantId).catch(efrisProblemAnswer);
    const result = await worker.ensureGoods(tenantId, device, checked.seller, checked.ids, body.stock_in ? null : new Map(), null);
    if (result.kind !== 'ok') efrisProblemAnswer(result);
    const rows = await withAction(app, request, (context) => productsList(context, { page: 1, per_page: 100 }));
    const chosen = new Set(checked.ids);
    return {
      registered: result.kind === 'ok' ? result.registered : 0,
      stocked: result.kind === 'ok' ? result.stocked : 0,
      failed: result.kind === 'ok' ? result.failed : [],
      rows: rows.rows.filter((row) => chosen.has(row.product_id)),
    };
  });
  endpointRoute(app, efrisTinEndpoint, async ({ query }, request) => {
    const tenantId = currentTenant(request).tenant.id;
    const taxpayer = await app.efris.worker.checkTin(tenantId, query.tin).catch(efrisProblemAnswer);
    const device = await app.efris.worker.device(tenantId).catch(efrisProblemAnswer);
    return tinAnswer(query.tin, taxpayer, device.mode === 'fake');
  });
  endpointRoute(app, efrisDictionaryEndpoint, async (_input, request) => {
    const tenantId = currentTenant(request).tenant.id;
    const answer = await app.efris.worker.dictionary(tenantId).catch(efrisProblemAnswer);
    const device = await app.efris.worker.device(tenantId).catch(efrisProblemAnswer);
    return dictionaryAnswer(answer, device.mode === 'fake');
  });
};
