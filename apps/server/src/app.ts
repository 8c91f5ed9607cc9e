import type { ServerOptions } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Database } from './db/connect.js';
import { closeDocumentPool, Documents } from './documents/index.js';
import { catalogueMessage } from './errors.js';
import { queuedMailSender } from './jobs/mail.js';
import { loggerOptions } from './logger.js';
import { createMailSender, type MailSender } from './mail/sender.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { externalSignInRoutes } from './modules/auth/external-signin.routes.js';
import { createLimits, type Limits } from './modules/auth/failure-limiter.js';
import { passwordResetRoutes } from './modules/auth/password-reset.routes.js';
import { businessReportRoutes } from './modules/business-reports/business-reports.routes.js';
import { businessUploadRoutes } from './modules/business-uploads/business-uploads.routes.js';
import { catalogueRoutes } from './modules/catalogue/catalogue.routes.js';
import { markCommentRoutes } from './modules/comments/mark-comments.routes.js';
import { remarkRoutes } from './modules/comments/remarks.routes.js';
import { curriculumRoutes } from './modules/curriculum/curriculum.routes.js';
import { installEfris } from './modules/efris/install.js';
import { feeRoutes } from './modules/fees/fees.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { homeRoutes } from './modules/home/home.routes.js';
import { marksRoutes } from './modules/marks/marks.routes.js';
import { outboxRoutes } from './modules/outbox/outbox.routes.js';
import { paymentRoutes } from './modules/payments/payments.routes.js';
import { reportSettingsRoutes } from './modules/report-settings/report-settings.routes.js';
import { reportRoutes } from './modules/reports/reports.routes.js';
import { salesRoutes } from './modules/sales/sales.routes.js';
import { salesPrintRoutes } from './modules/sales-prints/prints.routes.js';
import { calendarRoutes } from './modules/settings/calendar.routes.js';
import { classCurriculaRoutes } from './modules/settings/class-curricula.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { staffRoutes } from './modules/staff/staff.routes.js';
import { stockRoutes } from './modules/stock/stock.routes.js';
import { studentRoutes } from './modules/students/students.routes.js';
import { studentUploadRoutes } from './modules/students/upload.routes.js';
import { registrationRoutes } from './modules/tenants/registration.routes.js';
import { tenantRoutes } from './modules/tenants/tenants.routes.js';
import { invitationRoutes } from './modules/users/invitations.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { vouchersRoutes } from './modules/vouchers/vouchers.routes.js';
import { registerAccessControl } from './plugins/access.js';
import { registerCompression } from './plugins/compression.js';
import { body as errorBody, registerErrorHandling } from './plugins/errors.js';
import { registerInputGuard } from './plugins/input.js';
import { registerMultipart } from './plugins/multipart.js';
import { registerSecurity, securityHeaders } from './plugins/security.js';
import { serializerCompiler } from './plugins/serializer.js';
import { registerWebApp } from './plugins/web.js';
import { connectRedis, redisReady } from './redis/connection.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    /**
     * The per-account and per-address limits (sign-in failures, reset mails, sign-ups): in Redis
     * when the installation has one, so every server shares each count; else in this process.
     */
    limits: Limits;
    /** Every document (report cards, mark sheets, …) admitted, waiting and drawn (bounded per school and in all, drawn fairly), and its progress. */
    documents: Documents;
    /**
     * The mail sender (mail/sender.ts): sends the outbox over SMTP_URL, polling; call
     * `app.mail.wake()` after a transaction that enqueued mail commits, to send it at once.
     */
    mail: MailSender;
    /**
     * The installation's Redis when REDIS_URL is set (redis/connection.ts): limits and queues
     * shared by every server and worker. Null: everything in this process.
     */
    redis: Redis | null;
  }
}

export interface BuildOptions {
  /** Pino options or false; defaults to the configured level on stdout. */
  logger?: FastifyServerOptions['logger'];
  /** Told of every route as it is registered: how the tests read the app's one route table. */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the app (plugins, then routes) without listening: the server and the tests share it. */
export async function buildApp(config: Config, database: Database, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    ...slowClientTimeouts(config),
    // A URL that cannot be decoded (`/%ff`) never reaches a route: answer the catalogue's 400,
    // with the same headers as every answer, instead of the framework's own body.
    frameworkErrors: (error, _request, reply) => {
      const status: 400 | 500 = error.statusCode && error.statusCode < 500 ? 400 : 500;
      (reply as FastifyReply)
        .headers(securityHeaders())
        .code(status)
        .send(errorBody(status, catalogueMessage(status)));
    },
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('redis', config.redisUrl ? watchRedis(connectRedis(config.redisUrl, { name: 'app' }), app) : null);
  // Last of all (hooks run in order): whatever stops before may still count or enqueue.
  app.addHook('onClose', async () => {
    await app.redis?.quit().catch(() => app.redis?.disconnect());
  });
  app.decorate('limits', createLimits({ redis: app.redis, redisPrefix: config.redisPrefix, maxFailures: config.authMaxFailures }));
  // The counters' connection refuses commands until it is up (fail fast, no offline queue), so
  // without this wait the first sign-ins after every start would be refused with 503. A Redis
  // that is away at start is no reason not to start: limited actions answer 503 and /readyz
  // says why until it is back (watchRedis logs it).
  if (app.redis) await redisReady(app.redis).catch(() => undefined);
  // With Redis, admitted in Redis for every server and drawn by the worker processes (jobs/).
  const sharedDocuments =
    app.redis && config.redisUrl
      ? { redis: app.redis, redisUrl: config.redisUrl, prefix: config.redisPrefix, waitMs: config.requestTimeoutSeconds * 1000 }
      : null;
  app.decorate(
    'documents',
    new Documents({ perSchool: config.pdfQueuePerSchool, total: config.pdfQueueTotal }, database.db, app.log, sharedDocuments),
  );
  app.addHook('onClose', async () => {
    await app.documents.close();
    await closeDocumentPool();
  });
  // With Redis (and SMTP_URL), the job workers send the outbox; this server only wakes them.
  app.decorate(
    'mail',
    config.redisUrl && config.smtpUrl
      ? queuedMailSender({ redisUrl: config.redisUrl, prefix: config.redisPrefix, log: app.log })
      : createMailSender(database.db, config, app.log),
  );
  // Before the database closes (the server and the tests close it after the app): a round in
  // flight finishes, and nothing new starts.
  app.addHook('onClose', async () => app.mail.stop());

  // Browsers keep connections alive. Once shutdown begins, connections are closed as soon as
  // their answer is out, so app.close() is not left waiting out the keep-alive timeout
  // (security.md item 28); a timer costs requests nothing, unlike a per-response hook.
  let closeIdle: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
    closeIdle.unref();
  });
  app.addHook('onClose', async () => clearInterval(closeIdle));

  registerErrorHandling(app);
  await registerCompression(app);
  await registerSecurity(app);
  registerAccessControl(app);
  registerInputGuard(app);
  await registerMultipart(app);

  await registerRoutes(app, config.webDist);

  await app.ready();
  return app;
}

/** Logs Redis going away and coming back, once each time, not on every reconnection attempt. */
function watchRedis(redis: Redis, app: FastifyInstance): Redis {
  let away = false;
  redis.on('error', (error: Error) => {
    if (away) return;
    away = true;
    app.log.error({ err: error }, 'Redis is not reachable: limited actions answer 503 until it is back');
  });
  redis.on('ready', () => {
    if (!away) return;
    away = false;
    app.log.info('Redis is reachable again');
  });
  return redis;
}

/**
 * A connection may not hold the server by sending slowly, stopping half way, or sending nothing
 * (issue 23 item 11: without these, slow bodies stayed open for good). Node closes a request
 * whose headers or whole request (the body too) did not arrive in time, answering 408, and
 * Fastify an idle kept-alive connection. Node looks for late requests every
 * `connectionsCheckingInterval` (30 s by its default): at most a second here, so a timeout holds
 * to about a second. No inactivity timeout on the socket itself: it would also cut an answer
 * being prepared, such as a long report.
 */
function slowClientTimeouts(config: Config): { requestTimeout: number; keepAliveTimeout: number; http: ServerOptions } {
  const headersTimeout = Math.round(config.headersTimeoutSeconds * 1000);
  const requestTimeout = Math.round(config.requestTimeoutSeconds * 1000);
  return {
    // Fastify sets the server's requestTimeout from its own option, after making the server.
    requestTimeout,
    keepAliveTimeout: Math.round(config.keepAliveTimeoutSeconds * 1000),
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(1000, Math.ceil(headersTimeout / 2)) },
  };
}

/** Every route of the product, in one list. */
async function registerRoutes(app: FastifyInstance, webDist: string): Promise<void> {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(externalSignInRoutes);
  await app.register(passwordResetRoutes);
  await app.register(userRoutes);
  await app.register(invitationRoutes);
  await app.register(tenantRoutes);
  await app.register(outboxRoutes);
  await app.register(registrationRoutes);
  await app.register(homeRoutes);
  await app.register(settingsRoutes);
  await app.register(catalogueRoutes);
  await app.register(stockRoutes);
  await app.register(salesRoutes);
  await app.register(paymentRoutes);
  await app.register(accountsRoutes);
  await app.register(vouchersRoutes);
  await installEfris(app);
  await app.register(businessReportRoutes);
  await app.register(salesPrintRoutes);
  await app.register(businessUploadRoutes);
  await app.register(calendarRoutes);
  await app.register(staffRoutes);
  await app.register(studentRoutes);
  await app.register(studentUploadRoutes);
  await app.register(feeRoutes);
  await app.register(marksRoutes);
  await app.register(curriculumRoutes);
  await app.register(classCurriculaRoutes);
  await app.register(reportRoutes);
  await app.register(remarkRoutes);
  await app.register(markCommentRoutes);
  await app.register(reportSettingsRoutes);
  await registerWebApp(app, webDist);
}
