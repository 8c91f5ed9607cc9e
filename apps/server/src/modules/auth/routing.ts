import type { Endpoint } from '@mustard/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyToken } from '../../access/token.js';
import { type Trx, withUser } from '../../db/tenant.js';
import { bearerToken, currentUser } from '../../plugins/access.js';
import { type Answer, type EndpointRequestInput, endpointRoute, type RouteOptions } from '../../plugins/endpoints.js';
import type { AuthDeps, SignedIn } from './auth.service.js';

/** The sign-in services' dependencies, from the app's configuration: built once per routes plugin. */
export function authDeps(app: FastifyInstance): AuthDeps {
  return {
    db: app.database.db,
    session: { jwtSecret: app.config.jwtSecret, ttlSeconds: app.config.sessionTtlSeconds },
    limiter: app.limits.failures,
    externalSignIn: { secretsKey: app.config.secretsKey, publicUrl: app.config.publicUrl },
  };
}

/**
 * The limit of the routes where a password or a code can be guessed: `authRateLimitPerMinute`
 * calls a minute per client address, counted for each route alone.
 */
export function guessLimit(app: FastifyInstance): RouteOptions {
  return { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };
}

/**
 * A route of the signed-in person before (or beside) any tenant: one transaction that may read
 * the person's own memberships and invitations in every tenant (`app.user_id`), handed to the
 * service. Tenants are listed and created this way, and the invitation banner reads this way.
 */
export function userEndpointRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (trx: Trx, input: EndpointRequestInput<E>, request: FastifyRequest) => Promise<Answer<E>>,
): void {
  endpointRoute(app, endpoint, (input, request) =>
    withUser(app.database.db, currentUser(request).id, (trx) => handler(trx, input, request)),
  );
}

/** The token travels in the `authorization` response header (spec §3), readable by the web app. */
export function sendSignedIn<T>(reply: FastifyReply, signedIn: SignedIn<T>): T {
  reply.header('authorization', `Bearer ${signedIn.token}`);
  reply.header('access-control-expose-headers', 'authorization');
  return signedIn.response;
}

/**
 * Whose browser sent a request to a public route: the user of the token it carries if the token
 * is genuine (the session need not be live: the token still says whose it was), else null.
 */
export async function tokenHolder(app: FastifyInstance, request: FastifyRequest): Promise<string | null> {
  const token = bearerToken(request);
  if (!token) return null;
  return (await verifyToken(app.config.jwtSecret, token))?.userId ?? null;
}
