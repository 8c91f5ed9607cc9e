import {
  type Action,
  type AppAbility,
  allows,
  defineAbilityFor,
  isAdministrator,
  type RoleWithPermissions,
  routeTenantKind,
  type SubjectClass,
  TENANT_HEADER,
  type TenantSummary,
  tenantKindOf,
} from '@mustard/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readSignInState, type TenantWanted } from '../access/sign-in-state.repository.js';
import { verifyToken } from '../access/token.js';
import { recordAudit } from '../audit/audit.repository.js';
import { withTenantTx } from '../db/tenant.js';
import type { TenantRow } from '../db/types.js';
import { forbidden, notFound, unauthorized } from '../errors.js';
import { AuthCache } from './auth-cache.js';

/**
 * Deny by default (security.md item 14): every route says who may call it.
 * - `public`: anyone;
 * - `signed-in`: a live session, no tenant (logout);
 * - `member`: a live session and a TENANTCODE the user belongs to;
 * - `{ action, subject }`: a member whose roles allow the action on the subject (spec §6).
 * Routes under /api are always tenant routes (`member` or a permission).
 */
export type Access = 'public' | 'signed-in' | 'member' | { action: Action; subject: SubjectClass };

export interface SignedInUser {
  id: string;
  name: string;
  email: string;
  path: string | null;
  is_admin: boolean;
}

export interface TenantContext {
  tenant: TenantRow;
  roles: RoleWithPermissions[];
  ability: AppAbility;
  isAdmin: boolean;
  /** Every tenant the user belongs to (the profile lists them for the school switcher). */
  tenants: TenantSummary[];
}

/** A live session, and the member context of the tenant the request names (none for `signed-in` routes). */
interface SignedInState {
  user: SignedInUser;
  sessionId: string;
  expiresAt: number;
  context?: TenantContext;
}

declare module 'fastify' {
  interface FastifyInstance {
    signInCache: AuthCache<SignedInState>;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user?: SignedInUser;
    sessionId?: string;
    tenantContext?: TenantContext;
  }
}

export class RouteWithoutAccessError extends Error {}

/** The signed-in user of a route that is not public; throws if misused on a public route. */
export function currentUser(request: FastifyRequest): SignedInUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The tenant context of a tenant route: tenant, roles, ability. */
export function currentTenant(request: FastifyRequest): TenantContext {
  if (!request.tenantContext) throw forbidden();
  return request.tenantContext;
}

/** The scope a tenant route's transaction runs in (see withTenant). */
export function tenantScope(request: FastifyRequest) {
  return { tenantId: currentTenant(request).tenant.id, userId: currentUser(request).id };
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const token = header.startsWith('Bearer ') ? header.slice(7) : header;
  return token.trim() || undefined;
}

export function registerAccessControl(app: FastifyInstance): void {
  // Exact on both databases (see AuthCache): the time only bounds how long an idle entry is kept.
  const ttlSeconds = app.config.authCacheSeconds ?? 60;
  app.decorate('signInCache', new AuthCache<SignedInState>(app.database.changes, ttlSeconds * 1000));

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) {
      throw new RouteWithoutAccessError(`Route ${route.method} ${route.url} declares no access (config.access).`);
    }
    if (route.url.startsWith('/api/') && (access === 'public' || access === 'signed-in')) {
      throw new RouteWithoutAccessError(`Route ${route.method} ${route.url} is under /api and so must be a tenant route.`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access === undefined) return; // not-found handler: answers 404 itself
    if (access === 'public') return;
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const claims = await verifyToken(app.config.jwtSecret, token);
    if (!claims) throw unauthorized();
    // TENANTCODE is resolved against the user's live membership on every request (security.md
    // item 6): a removed member is refused at once, whatever their token says.
    const code = request.headers[TENANT_HEADER];
    const wanted = access !== 'signed-in' && typeof code === 'string' && code.trim() !== '' ? { code } : null;
    const state = await signedInState(app, claims.sessionId, claims.userId, wanted);
    request.user = state.user;
    request.sessionId = state.sessionId;
    if (access === 'signed-in') return;
    if (!state.context) throw forbidden();
    request.tenantContext = state.context;
    // A school never sees a business's routes, nor a business a school's (shared tenant-kinds.ts).
    const kind = routeTenantKind(request.routeOptions.url ?? request.url);
    if (kind && kind !== tenantKindOf(state.context.tenant.category)) throw notFound();
    if (access !== 'member' && !allows(state.context.ability, access.action, access.subject)) {
      await recordForbidden(app, request, state.context, access);
      throw forbidden();
    }
  });
}

/**
 * The session (401 unless live) and the member context of the tenant wanted, from the cache or
 * in one round trip (readSignInState). Cached per session and tenant: any change to sign-in
 * state empties the cache (AuthCache), and an entry never outlives its session.
 */
async function signedInState(app: FastifyInstance, sessionId: string, userId: string, wanted: TenantWanted): Promise<SignedInState> {
  const tenantKey = wanted === null ? '' : 'code' in wanted ? `code:${wanted.code.trim().toLowerCase()}` : `id:${wanted.tenantId}`;
  const state = await app.signInCache.get(
    `${sessionId}|${userId}|${tenantKey}`,
    async () => {
      const { session, membership } = await readSignInState(app.database.db, sessionId, userId, wanted);
      if (!session) return undefined;
      const user = { id: session.id, name: session.name, email: session.email, path: session.path, is_admin: session.is_admin };
      const subject = { is_admin: user.is_admin, roles: membership?.roles ?? [] };
      const context = membership && {
        ...membership,
        ability: defineAbilityFor(subject),
        isAdmin: isAdministrator(subject),
      };
      return { user, sessionId: session.session_id, expiresAt: session.expires_at.getTime(), context };
    },
    (live) => live.expiresAt,
  );
  if (!state || state.expiresAt <= Date.now()) throw unauthorized();
  return state;
}

/** The member context of another of the signed-in user's tenants (the users list's tenant filter). */
export async function loadMemberContext(request: FastifyRequest, which: { tenantId: string }): Promise<TenantContext> {
  const state = await signedInState(request.server, request.sessionId ?? '', currentUser(request).id, which);
  if (!state.context) throw forbidden();
  return state.context;
}

async function recordForbidden(
  app: FastifyInstance,
  request: FastifyRequest,
  context: TenantContext,
  access: { action: string; subject: string },
) {
  const userId = currentUser(request).id;
  await withTenantTx(app.database.db, { tenantId: context.tenant.id, userId }, (tx) =>
    recordAudit(tx, {
      action: 'forbidden',
      entity: access.subject,
      after: { action: access.action, route: `${request.method} ${request.routeOptions.url}` },
    }),
  ).catch((error) => request.log.error({ err: error }, 'could not record a permission failure'));
}
