import type { FastifyInstance } from 'fastify';
import { efrisFakeRoutes } from '../../efris-fake/plugin.js';
import { FakeUra } from '../../efris-fake/ura.js';
import { efrisTransport } from './client.js';
import { efrisRoutes } from './efris.routes.js';
import { onFiscalHint, takeFiscalHints } from './outbox.js';
import { DEFAULT_EFRIS_TIMING, EfrisWorker } from './worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** EFRIS (modules/efris): the outbox's worker, and the local fake of URA when EFRIS_FAKE is on. */
    efris: { worker: EfrisWorker; fake: FakeUra | null };
  }
}

/**
 * Sets EFRIS up on the app: the worker (polling, and woken after a response that queued a
 * fiscal document, i.e. after its transaction committed), its routes, and, only when the
 * configuration asks (EFRIS_FAKE, on outside production), the fake URA at its own URL.
 */
export async function installEfris(app: FastifyInstance): Promise<void> {
  const fake = app.config.efrisFake ? new FakeUra({ file: app.config.efrisFakeFile }) : null;
  const timing = { ...DEFAULT_EFRIS_TIMING, ...app.config.efrisTiming };
  const worker = new EfrisWorker(app.database.db, efrisTransport(fake), app.config.secretsKey, timing, app.log, true, fake);
  app.decorate('efris', { worker, fake });
  const stopHints = timing.hints ? onFiscalHint(() => worker.wake()) : () => false;
  app.addHook('onResponse', async () => {
    if (takeFiscalHints().length > 0 && timing.hints) worker.wake();
  });
  app.addHook('onClose', async () => {
    stopHints();
    await worker.stop();
  });
  if (fake) await efrisFakeRoutes(app, fake);
  await app.register(efrisRoutes);
}
