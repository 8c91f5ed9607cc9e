import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers (security.md item 23) and the rate limiter used by the sign-in routes.
 * The CSP allows no inline script; inline styles stay allowed because the UI library sets
 * style attributes. The report preview frame is same-origin, hence frame-ancestors 'self'.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const middleware = helmet({
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
  // The headers are the same for every answer: helmet computes them once, here, and each
  // reply gets the finished set (@fastify/helmet would rebuild helmet on every request).
  const headers = securityHeaders(middleware);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // Only routes that ask for it (config.rateLimit) are limited; keyed by client address.
  await app.register(rateLimit, { global: false });
}

/** Runs helmet's middleware once against a recording response and answers the headers it set. */
function securityHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}
