import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Liveness (the process answers) and readiness (the database answers), for load balancers, with
 * the installation's Redis reported when it has one. A server whose database is away serves
 * nothing: 503, not ready. A server whose Redis is away still serves most of the product (a
 * teacher signed in saves marks, the lists and reports read from PostgreSQL) and refuses only
 * what Redis counts or carries (sign-in, the other limited actions, documents) with 503 of its
 * own: ready, "degraded: redis unavailable". Every server of an installation shares the one
 * Redis, so answering 503 here would only take them all out of the balancer at once, the marks
 * saves with them.
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
      return { status: 'degraded: redis unavailable' };
    }
    return { status: 'ready' };
  });
};
