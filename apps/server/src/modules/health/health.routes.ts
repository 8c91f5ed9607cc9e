import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Liveness (the process answers) and readiness (the database answers), for load balancers. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const Status = z.object({ status: z.string() });

  app.get('/healthz', { config: { access: 'public' }, schema: { response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { access: 'public' }, schema: { response: { 200: Status, 503: Status } } }, async (request, reply) => {
    try {
      await app.database.ping();
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });
};
