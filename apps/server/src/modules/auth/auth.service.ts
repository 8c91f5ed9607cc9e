import { randomBytes } from 'node:crypto';
import { type ChangePasswordBody, LOGIN_MESSAGES, type LoginResponse, type Profile, permissionsMap, USER_MESSAGES } from '@mustard/shared';
import type { Kysely } from 'kysely';
import { tenantsOfUser, toTenantSummary } from '../../access/membership.repository.js';
import { createSession, revokeSession, revokeUserSessions } from '../../access/sessions.repository.js';
import { signToken } from '../../access/token.js';
import type { Database } from '../../db/connect.js';
import { withUser } from '../../db/tenant.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { SignedInUser, TenantContext } from '../../plugins/access.js';
import {
  consumeCode,
  findUserByEmail,
  findUserById,
  insertCode,
  insertLaunchInterest,
  recordAuthEvent,
  setPasswordHash,
} from './auth.repository.js';
import type { ExternalSignInKeys } from './external-signin.service.js';
import type { FailureLimiter } from './failure-limiter.js';
import { hashPassword, verifyPassword } from './password.js';

/*
 * Signing in and out. No tenant and no request: each service takes the database and exactly what
 * else it needs from `AuthDeps` (built once per routes plugin from the configuration), then its
 * input. They open their own transactions: a failed sign-in is recorded, so it must not be rolled
 * back with the request's work.
 */

/** Codes for external sign-in carry 256 bits and live 10 minutes at most (security.md item 13). */
export const SIGN_IN_CODE_TTL_SECONDS = 10 * 60;
export const SIGN_IN_CODE_PURPOSE = 'signin';

/** How sessions are signed and how long they live. */
export interface SessionKeys {
  jwtSecret: Uint8Array;
  ttlSeconds: number;
}

/** What the sign-in services need besides their input; a service asks for the part it uses. */
export interface AuthDeps {
  db: Kysely<DB>;
  session: SessionKeys;
  /** Password guesses per account: sign-in, the password change and invitation codes share it. */
  limiter: FailureLimiter;
  /** External sign-in's secrets key and this server's address (external-signin.service.ts). */
  externalSignIn: ExternalSignInKeys;
}

export interface SignedIn<Response = LoginResponse> {
  response: Response;
  token: string;
}

export type UserRecord = { id: string; name: string; email: string; path: string | null; is_admin: boolean };

/** Opens a session for the user and answers what login answers (spec §3 "Login response"). */
export async function openSession(deps: Pick<AuthDeps, 'db' | 'session'>, user: UserRecord): Promise<SignedIn> {
  const expiresAt = new Date(Date.now() + deps.session.ttlSeconds * 1000);
  const sessionId = await createSession(deps.db, user.id, expiresAt);
  const token = await signToken(deps.session.jwtSecret, { userId: user.id, sessionId }, expiresAt);
  const tenants = await withUser(deps.db, user.id, (trx) => tenantsOfUser(trx, user.id));
  return { token, response: { ...loginFields(user), tenants } };
}

function loginFields(user: UserRecord) {
  return { id: user.id, path: user.path, name: user.name, email: user.email, isadmin: user.is_admin, admin: user.is_admin };
}

export async function loginWithPassword(
  deps: Pick<AuthDeps, 'db' | 'session' | 'limiter'>,
  input: { email: string; password: string; ip: string },
): Promise<SignedIn> {
  const { db, limiter } = deps;
  const { email, password, ip } = input;
  if (!(await limiter.attempt(email))) throw new AppError(429);
  const user = await findUserByEmail(db, email);
  const passwordOk = await verifyPassword(user?.password_hash, password);
  if (!user || !passwordOk || user.disabled_at) {
    await recordAuthEvent(db, 'login_failed', { userId: user?.id, email, ip });
    throw new AppError(401, LOGIN_MESSAGES.invalidCredentials);
  }
  await limiter.succeed(email);
  await recordAuthEvent(db, 'login', { userId: user.id, email, ip });
  return openSession(deps, user);
}

export async function redeemSignInCode(deps: Pick<AuthDeps, 'db' | 'session'>, input: { code: string; ip: string }): Promise<SignedIn> {
  const { db } = deps;
  const userId = await consumeCode(db, input.code, SIGN_IN_CODE_PURPOSE);
  const user = userId ? await findUserById(db, userId) : undefined;
  if (!user || user.disabled_at) {
    await recordAuthEvent(db, 'code_failed', { ip: input.ip });
    throw new AppError(401, LOGIN_MESSAGES.invalidCode);
  }
  await recordAuthEvent(db, 'code_redeemed', { userId: user.id, email: user.email, ip: input.ip });
  return openSession(deps, user);
}

/**
 * Issues a one-time sign-in code for a user (the external sign-in flow hands it to the browser
 * as /login?code=...). Only its hash is stored.
 */
export async function issueSignInCode(
  database: Pick<Database, 'db'>,
  userId: string,
  ttlSeconds = SIGN_IN_CODE_TTL_SECONDS,
): Promise<string> {
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
export async function changePassword(
  deps: Pick<AuthDeps, 'db' | 'session' | 'limiter'>,
  input: ChangePasswordBody & { userId: string; ip: string },
): Promise<SignedIn> {
  const { db, limiter } = deps;
  const { userId, ip } = input;
  const user = await findUserById(db, userId);
  if (!user) throw new AppError(401);
  // The current password is guessed like a sign-in password: the same count, the same pause.
  if (!(await limiter.attempt(user.email))) throw new AppError(429);
  if (!(await verifyPassword(user.password_hash, input.current_password))) {
    throw new AppError(422, undefined, { current_password: [USER_MESSAGES.currentPasswordWrong] });
  }
  await limiter.succeed(user.email);
  const hash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, userId, hash);
    await revokeUserSessions(trx, userId);
    await recordAuthEvent(trx, 'password_changed', { userId, email: user.email, ip });
  });
  return openSession(deps, user);
}

/** Ends one session and records it. */
export async function logout(db: Kysely<DB>, input: { userId: string; sessionId?: string; ip: string }) {
  if (input.sessionId) await revokeSession(db, input.sessionId);
  await recordAuthEvent(db, 'logout', { userId: input.userId, ip: input.ip });
  return { message: LOGIN_MESSAGES.loggedOut };
}

/**
 * Coming Soon's "notify me": the address is kept once, whatever its case; the answer is the
 * same for a new and a known address, so it tells nobody who asked before.
 */
export async function noteLaunchInterest(db: Kysely<DB>, input: { email: string }) {
  await insertLaunchInterest(db, input.email);
  return { message: LOGIN_MESSAGES.notifyNoted };
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
    platform_admin: user.is_admin,
    roles: context.roles,
    permissions: permissionsMap(context.roles),
    tenants: context.tenants,
    tenant: toTenantSummary(context.tenant),
  };
  profiles.set(context, profile);
  return profile;
}
