import {
  type Action,
  type AppAbility,
  allows,
  defineAbilityFor,
  isAdministrator,
  type RoleWithPermissions,
  type SubjectClass,
  TENANT_HEADER,
  type TenantSummary,
} from '@mustard/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findMembership, findTenantByCode, rolesOfMember, tenantsOfUser } from '../access/membership.repository.js';
import { findSessionUser } from '../access/sessions.repository.js';
import { verifyToken } from '../access/token.js';
import { recordAudit } from '../audit/audit.repository.js';
import { bindTenant, withTenant, withUser } from '../db/tenant.js';
import type { TenantRow } from '../db/types.js';
import { forbidden, unauthorized } from '../errors.js';
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

interface LiveSession {
  user: SignedInUser;
  sessionId: string;
  expiresAt: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionCache: AuthCache<LiveSession>;
    memberCache: AuthCache<TenantContext>;
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
  const ttlSeconds = app.config.authCacheSeconds ?? (app.database.kind === 'pglite' ? 60 : 0);
  app.decorate('sessionCache', new AuthCache<LiveSession>(app.database.changes, ttlSeconds * 1000));
  app.decorate('memberCache', new AuthCache<TenantContext>(app.database.changes, ttlSeconds * 1000));

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
    await authenticate(app, request);
    if (access === 'signed-in') return;
    const context = await loadTenantContext(app, request);
    request.tenantContext = context;
    if (access !== 'member' && !allows(context.ability, access.action, access.subject)) {
      await recordForbidden(app, request, context, access);
      throw forbidden();
    }
  });
}

async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const claims = await verifyToken(app.config.jwtSecret, token);
  if (!claims) throw unauthorized();
  const session = await app.sessionCache.get(
    `${claims.sessionId}|${claims.userId}`,
    async () => {
      const row = await findSessionUser(app.database.db, claims.sessionId, claims.userId);
      if (!row) return undefined;
      const user = { id: row.id, name: row.name, email: row.email, path: row.path, is_admin: row.is_admin };
      return { user, sessionId: row.session_id, expiresAt: new Date(row.expires_at).getTime() };
    },
    (live) => live.expiresAt,
  );
  if (!session || session.expiresAt <= Date.now()) throw unauthorized();
  request.user = session.user;
  request.sessionId = session.sessionId;
}

/**
 * Resolves TENANTCODE against the user's live membership, on every request (security.md
 * item 6): a removed member is refused at once, whatever their token says.
 */
async function loadTenantContext(app: FastifyInstance, request: FastifyRequest): Promise<TenantContext> {
  const code = request.headers[TENANT_HEADER];
  const user = currentUser(request);
  if (typeof code !== 'string' || code.trim() === '') throw forbidden();
  return loadMemberContext(app, user, { code });
}

export async function loadMemberContext(
  app: FastifyInstance,
  user: SignedInUser,
  which: { code: string } | { tenantId: string },
): Promise<TenantContext> {
  const key = 'code' in which ? `${user.id}|code:${which.code.trim().toLowerCase()}` : `${user.id}|id:${which.tenantId}`;
  const context = await app.memberCache.get(key, () =>
    withUser(app.database.db, user.id, async (trx) => {
      const tenant =
        'code' in which
          ? await findTenantByCode(trx, which.code)
          : await trx.selectFrom('tenants').selectAll().where('id', '=', which.tenantId).executeTakeFirst();
      if (!tenant) return undefined;
      // The user's own memberships are readable only before a tenant is set (see the policy).
      const tenants = await tenantsOfUser(trx, user.id);
      await bindTenant(trx, tenant.id);
      if (!(await findMembership(trx, tenant.id, user.id))) return undefined;
      const roles = await rolesOfMember(trx, tenant.id, user.id);
      const subject = { is_admin: user.is_admin, roles };
      return { tenant, roles, tenants, ability: defineAbilityFor(subject), isAdmin: isAdministrator(subject) };
    }),
  );
  if (!context) throw forbidden();
  return context;
}

async function recordForbidden(
  app: FastifyInstance,
  request: FastifyRequest,
  context: TenantContext,
  access: { action: string; subject: string },
) {
  const userId = currentUser(request).id;
  await withTenant(app.database.db, { tenantId: context.tenant.id, userId }, (trx) =>
    recordAudit(trx, context.tenant.id, {
      userId,
      action: 'forbidden',
      entity: access.subject,
      after: { action: access.action, route: `${request.method} ${request.routeOptions.url}` },
    }),
  ).catch((error) => request.log.error({ err: error }, 'could not record a permission failure'));
}
