import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Liveness (the process answers) and readiness (the database answers, and the installation's
 * Redis when it has one), for load balancers. A server whose Redis is away cannot count sign-in
 * failures or request rates and refuses them with 503: not ready, so the balancer sends people to
 * a server that can.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const Status = z.object({ status: z.string() });

  app.get('/healthz', { config: { access: 'public' }, schema: { response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { access: 'public' }, schema: { response: { 200: Status, 503: Status } } }, async (request, reply) => {
    const [database, redis] = await Promise.allSettled([app.database.ping(), app.redis?.ping()]);
    if (database.status === 'rejected') {
      request.log.warn({ err: database.reason }, 'database not reachable');
      return reply.status(503).send({ status: 'database unavailable' });
    }
    if (redis.status === 'rejected') {
      request.log.warn({ err: redis.reason }, 'redis not reachable');
      return reply.status(503).send({ status: 'redis unavailable' });
    }
    return { status: 'ready' };
  });
};
