import { randomBytes } from 'node:crypto';
import { LOGIN_MESSAGES, type LoginResponse, type Profile, permissionsMap, USER_MESSAGES } from '@mustard/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { tenantsOfUser, toTenantSummary } from '../../access/membership.repository.js';
import { createSession, revokeUserSessions } from '../../access/sessions.repository.js';
import { signToken } from '../../access/token.js';
import type { Database } from '../../db/connect.js';
import { withUser } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { SignedInUser, TenantContext } from '../../plugins/access.js';
import { consumeCode, findUserByEmail, findUserById, insertCode, recordAuthEvent } from './auth.repository.js';
import { hashPassword, verifyPassword } from './password.js';

/** Codes for external sign-in carry 256 bits and live 10 minutes at most (security.md item 13). */
export const SIGN_IN_CODE_TTL_SECONDS = 10 * 60;
export const SIGN_IN_CODE_PURPOSE = 'signin';

export interface SignedIn {
  response: LoginResponse;
  token: string;
}

type UserRecord = { id: string; name: string; email: string; path: string | null; is_admin: boolean };

/** Opens a session for the user and answers what login answers (spec §3 "Login response"). */
export async function openSession(app: FastifyInstance, user: UserRecord): Promise<SignedIn> {
  const db = app.database.db;
  const expiresAt = new Date(Date.now() + app.config.sessionTtlSeconds * 1000);
  const sessionId = await createSession(db, user.id, expiresAt);
  const token = await signToken(app.config.jwtSecret, { userId: user.id, sessionId }, expiresAt);
  const tenants = await withUser(db, user.id, (trx) => tenantsOfUser(trx, user.id));
  return { token, response: { ...loginFields(user), tenants } };
}

function loginFields(user: UserRecord) {
  return { id: user.id, path: user.path, name: user.name, email: user.email, isadmin: user.is_admin, admin: user.is_admin };
}

/** The token travels in the `authorization` response header (spec §3), readable by the web app. */
export function sendSignedIn<T>(reply: FastifyReply, signedIn: { token: string; response: T }): T {
  reply.header('authorization', `Bearer ${signedIn.token}`);
  reply.header('access-control-expose-headers', 'authorization');
  return signedIn.response;
}

export async function loginWithPassword(app: FastifyInstance, email: string, password: string, ip: string): Promise<SignedIn> {
  const db = app.database.db;
  if (!app.failureLimiter.attempt(email)) throw new AppError(429);
  const user = await findUserByEmail(db, email);
  const passwordOk = await verifyPassword(user?.password_hash, password);
  if (!user || !passwordOk || user.disabled_at) {
    await recordAuthEvent(db, 'login_failed', { userId: user?.id, email, ip });
    throw new AppError(401, LOGIN_MESSAGES.invalidCredentials);
  }
  app.failureLimiter.succeed(email);
  await recordAuthEvent(db, 'login', { userId: user.id, email, ip });
  return openSession(app, user);
}

export async function redeemSignInCode(app: FastifyInstance, code: string, ip: string): Promise<SignedIn> {
  const db = app.database.db;
  const userId = await consumeCode(db, code, SIGN_IN_CODE_PURPOSE);
  const user = userId ? await findUserById(db, userId) : undefined;
  if (!user || user.disabled_at) {
    await recordAuthEvent(db, 'code_failed', { ip });
    throw new AppError(401, LOGIN_MESSAGES.invalidCode);
  }
  await recordAuthEvent(db, 'code_redeemed', { userId: user.id, email: user.email, ip });
  return openSession(app, user);
}

/**
 * Issues a one-time sign-in code for a user (the external sign-in flow hands it to the browser
 * as /login?code=...). Only its hash is stored.
 */
export async function issueSignInCode(database: Database, userId: string, ttlSeconds = SIGN_IN_CODE_TTL_SECONDS): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await insertCode(
    database.db,
    userId,
    code,
    SIGN_IN_CODE_PURPOSE,
    new Date(Date.now() + Math.min(ttlSeconds, SIGN_IN_CODE_TTL_SECONDS) * 1000),
  );
  return code;
}

/** Changes the user's password and ends every session of theirs; answers a fresh sign-in. */
export async function changePassword(app: FastifyInstance, userId: string, current: string, next: string, ip: string): Promise<SignedIn> {
  const db = app.database.db;
  const user = await findUserById(db, userId);
  if (!user) throw new AppError(401);
  // The current password is guessed like a sign-in password: the same count, the same pause.
  if (!app.failureLimiter.attempt(user.email)) throw new AppError(429);
  if (!(await verifyPassword(user.password_hash, current))) {
    throw new AppError(422, undefined, { current_password: [USER_MESSAGES.currentPasswordWrong] });
  }
  app.failureLimiter.succeed(user.email);
  const hash = await hashPassword(next);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', userId).execute();
    await revokeUserSessions(trx, userId);
    await recordAuthEvent(trx, 'password_changed', { userId, email: user.email, ip });
  });
  return openSession(app, user);
}

export function authType(app: FastifyInstance, email: string) {
  const domain = email.trim().toLowerCase().split('@').pop() ?? '';
  const url = app.config.externalSignInDomains.get(domain);
  return url ? { type: 'redirect' as const, url } : { type: 'password' as const, url: '' };
}

/** Profiles by member context: a cached context (one user in one tenant) answers the same profile. */
const profiles = new WeakMap<TenantContext, Profile>();

export function buildProfile(user: SignedInUser, context: TenantContext): Profile {
  const known = profiles.get(context);
  if (known && known.id === user.id) return known;
  const admin = context.isAdmin;
  const profile = {
    ...loginFields(user),
    isadmin: admin,
    admin,
    is_admin: admin,
    roles: context.roles,
    permissions: permissionsMap(context.roles),
    tenants: context.tenants,
    tenant: toTenantSummary(context.tenant),
  };
  profiles.set(context, profile);
  return profile;
}
