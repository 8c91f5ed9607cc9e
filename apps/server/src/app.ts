import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/connect.js';
import { loggerOptions } from './logger.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { FailureLimiter } from './modules/auth/failure-limiter.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { homeRoutes } from './modules/home/home.routes.js';
import { tenantRoutes } from './modules/tenants/tenants.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { registerAccessControl } from './plugins/access.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerSecurity } from './plugins/security.js';
import { registerWebApp } from './plugins/web.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    failureLimiter: FailureLimiter;
  }
}

export interface BuildOptions {
  /** Pino options or false; defaults to the configured level on stdout. */
  logger?: FastifyServerOptions['logger'];
}

/** Builds the app (plugins, then routes) without listening: the server and the tests share it. */
export async function buildApp(config: Config, database: Database, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('failureLimiter', new FailureLimiter(config.authMaxFailures));

  // Browsers keep connections alive; once shutdown begins, answers close theirs so that
  // app.close() is not left waiting out the keep-alive timeout (security.md item 28).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  registerErrorHandling(app);
  await registerSecurity(app);
  registerAccessControl(app);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(tenantRoutes);
  await app.register(homeRoutes);
  await registerWebApp(app, config.webDist);

  await app.ready();
  return app;
}
