import type { StarterProduct } from '@mustard/shared';
import { sql } from 'kysely';
import { newId } from '../../db/ids.js';
import type { TenantTx, Trx } from '../../db/tenant.js';
import type { RegistrationsTable } from '../../db/types.js';

/** Pending sign-ups (a global table: there is no tenant yet) and a new business's products. */

export type PendingRegistration = Omit<RegistrationsTable, 'created_at' | 'verified_at'>;

export async function insertRegistration(trx: Trx, registration: Omit<PendingRegistration, 'id'>): Promise<void> {
  await trx
    .insertInto('registrations')
    .values({
      ...registration,
      organisation: JSON.stringify(registration.organisation),
      products: JSON.stringify(registration.products),
      id: newId(),
    })
    .execute();
}

/** Sign-ups nobody verified within a week are forgotten (their password hash with them). */
export async function deleteStaleRegistrations(trx: Trx): Promise<void> {
  await trx.deleteFrom('registrations').where('created_at', '<', sql<Date>`now() - interval '7 days'`).execute();
}

/**
 * Marks the registration of a token verified and answers it, in one statement: a link followed
 * twice at once is used by exactly one of them; an expired or unknown one answers nothing.
 */
export function claimRegistration(trx: Trx, tokenHash: string) {
  return trx
    .updateTable('registrations')
    .set({ verified_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('verified_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}

/** A new token for the address's latest sign-up not yet verified (the old link stops working); its row. */
export async function renewRegistrationToken(trx: Trx, email: string, tokenHash: string, expiresAt: Date) {
  const latest = await trx
    .selectFrom('registrations')
    .select('id')
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .where('verified_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) return undefined;
  return trx
    .updateTable('registrations')
    .set({ token_hash: tokenHash, expires_at: expiresAt })
    .where('id', '=', latest.id)
    .returning(['name', 'email', 'locale'])
    .executeTakeFirst();
}

/** The account of a verified sign-up; undefined when the address got one meanwhile. */
export async function insertAccount(
  trx: Trx,
  account: { email: string; name: string; phone: string; password_hash: string },
): Promise<{ id: string; name: string; email: string; path: string | null; is_admin: boolean } | undefined> {
  return trx
    .insertInto('users')
    .values({ id: newId(), ...account })
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .returning(['id', 'name', 'email', 'path', 'is_admin'])
    .executeTakeFirst();
}

/** A new business's first products. */
export async function insertProducts(tx: TenantTx, products: readonly StarterProduct[]): Promise<void> {
  if (products.length === 0) return;
  await tx.trx
    .insertInto('products')
    .values(products.map((product) => ({ tenant_id: tx.tenantId, id: newId(), ...product })))
    .execute();
}
