import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';

/** External sign-in providers and the sign-ins under way: platform tables, keyed by domain and state. */

const PROVIDER_FIELDS = ['domain', 'issuer', 'client_id', 'client_secret_sealed', 'updated_at'] as const;

export function listProviders(db: Kysely<DB>) {
  return db.selectFrom('external_signin_providers').select(PROVIDER_FIELDS).orderBy('domain').execute();
}

export function findProvider(db: Kysely<DB>, domain: string) {
  return db.selectFrom('external_signin_providers').select(PROVIDER_FIELDS).where('domain', '=', domain).executeTakeFirst();
}

/** Adds the domain's provider or replaces it, secret included. */
export function upsertProvider(db: Kysely<DB>, row: { domain: string; issuer: string; client_id: string; client_secret_sealed: string }) {
  return db
    .insertInto('external_signin_providers')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('domain').doUpdateSet({
        issuer: row.issuer,
        client_id: row.client_id,
        client_secret_sealed: row.client_secret_sealed,
        updated_at: sql`now()`,
      }),
    )
    .returning(PROVIDER_FIELDS)
    .executeTakeFirstOrThrow();
}

/** Changes a provider's issuer and client id, keeping its secret; undefined when the domain has none. */
export function updateProviderKeepingSecret(db: Kysely<DB>, row: { domain: string; issuer: string; client_id: string }) {
  return db
    .updateTable('external_signin_providers')
    .set({ issuer: row.issuer, client_id: row.client_id, updated_at: sql`now()` })
    .where('domain', '=', row.domain)
    .returning(PROVIDER_FIELDS)
    .executeTakeFirst();
}

/** Removes the domain's provider (and, by the foreign key, its sign-ins under way). */
export async function deleteProvider(db: Kysely<DB>, domain: string): Promise<boolean> {
  const row = await db.deleteFrom('external_signin_providers').where('domain', '=', domain).returning('domain').executeTakeFirst();
  return row !== undefined;
}

/**
 * Records a sign-in under way. Attempts that ended more than a day ago go at the same time: the
 * table holds about a day of sign-ins, while a late callback can still be told it expired.
 */
export async function insertAttempt(
  db: Kysely<DB>,
  attempt: { state_hash: string; domain: string; nonce: string; code_verifier: string; ttlSeconds: number },
) {
  const { ttlSeconds, ...row } = attempt;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('external_signin_attempts').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
    await trx
      .insertInto('external_signin_attempts')
      .values({ ...row, expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})` })
      .execute();
  });
}

/**
 * Marks the sign-in under way with this state used and answers it, in one statement: of two
 * callbacks with one state exactly one sees a row. `live` says whether it had not yet expired.
 */
export function consumeAttempt(db: Kysely<DB>, stateHash: string) {
  return db
    .updateTable('external_signin_attempts')
    .set({ used_at: sql`now()` })
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .returning(['domain', 'nonce', 'code_verifier', sql<boolean>`expires_at > now()`.as('live')])
    .executeTakeFirst();
}
