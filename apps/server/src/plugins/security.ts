import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers (security.md item 23) and the rate limiter used by the sign-in routes.
 * The CSP allows no inline script; inline styles stay allowed because the UI library sets
 * style attributes. The report preview frame is same-origin, hence frame-ancestors 'self'.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  // helmet's middleware is built once; @fastify/helmet rebuilds it on every request.
  const setSecurityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    frameguard: { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    setSecurityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  // Only routes that ask for it (config.rateLimit) are limited; keyed by client address.
  await app.register(rateLimit, { global: false });
}
