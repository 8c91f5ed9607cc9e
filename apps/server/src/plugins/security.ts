import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { redisKey } from '../redis/connection.js';

/**
 * Security headers (security.md item 23) and the rate limiter used by the sign-in routes.
 * The CSP allows no inline script; inline styles stay allowed because the UI library sets
 * style attributes. The report preview frame is same-origin, hence frame-ancestors 'self'.
 */
const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
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
};

export async function registerSecurity(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders());
    done();
  });
  // Only routes that ask for it (config.rateLimit) are limited; keyed by client address. With
  // the installation's Redis every server counts the same calls (`<prefix>:rate:<route>-<address>`),
  // else each its own. Redis away fails the request (no skipOnError: never unlimited), which
  // plugins/errors.ts answers 503.
  await app.register(rateLimit, {
    global: false,
    ...(app.redis ? { redis: app.redis, nameSpace: `${redisKey(app.config.redisPrefix, 'rate')}:`, skipOnError: false } : {}),
  });
}

let headers: Record<string, string> | undefined;

/**
 * The headers of every answer. They are the same for all, so helmet computes them once
 * (@fastify/helmet would rebuild helmet on every request).
 *
 * Nothing is stored by a browser or a proxy (`no-store`) unless the answer says otherwise: a
 * class list, a fee statement or a child's photo must not outlive a logout on a shared computer,
 * nor be served from a cache to the next person at it. Deciding by answer rather than by URL
 * leaves no spelling of a URL (`/%61pi/...`, an absolute request line) without it; only the web
 * app's own files set their caching (plugins/web.ts).
 */
export function securityHeaders(): Record<string, string> {
  headers ??= { ...recordHeaders(helmet(HELMET_OPTIONS)), 'cache-control': 'no-store' };
  return headers;
}

/** Runs helmet's middleware once against a recording response and answers the headers it set. */
function recordHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
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
