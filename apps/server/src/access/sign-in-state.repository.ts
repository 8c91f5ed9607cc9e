import type { RoleWithPermissions, TenantSummary } from '@mustard/shared';
import { type Kysely, sql } from 'kysely';
import type { DB, TenantRow } from '../db/types.js';

/** The user behind a live session: not revoked, not expired, account not disabled. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  path: string | null;
  is_admin: boolean;
  session_id: string;
  expires_at: Date;
}

export interface Membership {
  tenant: TenantRow;
  /** Every tenant the user belongs to, by name. */
  tenants: TenantSummary[];
  roles: RoleWithPermissions[];
}

export interface SignInState {
  /** Undefined when the session is not live. */
  session?: SessionUser;
  /** Undefined when no tenant was asked for, the session is not live, there is no such tenant or the user is not its member. */
  membership?: Membership;
}

export type TenantWanted = { code: string } | { tenantId: string } | null;

type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] };
interface Answer {
  session: Json<SessionUser> | null;
  member?: { tenant: Json<TenantRow>; tenants: TenantSummary[]; roles: RoleWithPermissions[] } | null;
}

/**
 * The session, and for a tenant route the membership, in one statement: the database function
 * `mustard_sign_in_state` (migration 0009) reads them under row-level security as the
 * separate statements did, in one round trip instead of about ten.
 */
export async function readSignInState(db: Kysely<DB>, sessionId: string, userId: string, wanted: TenantWanted): Promise<SignInState> {
  const code = wanted && 'code' in wanted ? wanted.code : null;
  const tenantId = wanted && 'tenantId' in wanted ? wanted.tenantId : null;
  const { rows } = await sql<{ state: Answer }>`
    SELECT mustard_sign_in_state(${sessionId}::uuid, ${userId}::uuid, ${code}::text, ${tenantId}::uuid) AS state
  `.execute(db);
  const state = rows[0]?.state;
  if (!state?.session) return {};
  const session = { ...state.session, expires_at: new Date(state.session.expires_at) };
  if (!state.member) return { session };
  const { tenant, tenants, roles } = state.member;
  return {
    session,
    membership: { tenant: { ...tenant, created_at: new Date(tenant.created_at), updated_at: new Date(tenant.updated_at) }, tenants, roles },
  };
}
