import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from './types.js';

export type Trx = Transaction<DB>;

export interface TenantScope {
  tenantId: string;
  /** The signed-in user; lets the user read their own memberships in other tenants. */
  userId?: string;
}

/**
 * Runs `work` in one transaction bound to a tenant. The tenant (and user) are set with
 * `set_config(..., true)`, local to this transaction, never per session: a pooled connection
 * must not carry one request's tenant into the next. Row-level security reads them.
 */
export async function withTenant<T>(db: Kysely<DB>, scope: TenantScope, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('app.tenant_id', ${scope.tenantId}, true), set_config('app.user_id', ${scope.userId ?? ''}, true)`.execute(
      trx,
    );
    return work(trx);
  });
}

/**
 * Holds a named lock of one tenant until the transaction ends: two requests doing the same
 * thing to the same school's data (an upload, a promotion, a year's term dates) take turns.
 * One hash for every lock (64-bit, so two names seldom share a lock).
 */
export async function lockInTenant(tx: TenantTx, name: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${name}:${tx.tenantId}`}, 0))`.execute(tx.trx);
}

declare const tenantBound: unique symbol;

/**
 * A transaction bound to one tenant, with that tenant's id and the acting user: what services
 * and repositories take. Only `withTenantTx` makes one, so a repository cannot be handed
 * another tenant's id than the one its transaction is bound to.
 */
export interface TenantTx {
  readonly trx: Trx;
  readonly tenantId: string;
  readonly userId: string | null;
  readonly [tenantBound]: true;
}

/**
 * Binds an open transaction to a tenant (row-level security reads `app.tenant_id`), local to
 * the transaction; `null` unbinds it. The one place a tenant is set besides `withTenant`: for
 * work that moves between tenants inside one transaction (joining a school by invitation,
 * creating a tenant). Answers the transaction as a `TenantTx` for that tenant.
 */
export async function bindTenant(trx: Trx, tenantId: string | null, userId: string | null = null): Promise<TenantTx> {
  await sql`SELECT set_config('app.tenant_id', ${tenantId ?? ''}, true)`.execute(trx);
  return { trx, tenantId: tenantId ?? '', userId } as TenantTx;
}

/** `withTenant`, handing the work a `TenantTx`. */
export function withTenantTx<T>(db: Kysely<DB>, scope: TenantScope, work: (tx: TenantTx) => Promise<T>): Promise<T> {
  return withTenant(db, scope, (trx) => work({ trx, tenantId: scope.tenantId, userId: scope.userId ?? null } as TenantTx));
}

/** A transaction for one signed-in user before a tenant is chosen (sign-in lists their tenants). */
export async function withUser<T>(db: Kysely<DB>, userId: string, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('app.user_id', ${userId}, true)`.execute(trx);
    return work(trx);
  });
}
