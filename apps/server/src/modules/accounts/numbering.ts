import { type DocumentSeries, documentNumber } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';

/*
 * Document numbers without gaps (issue 32 point 1; guide business.md "Documents"): one counter
 * row per business and series (`document_numbers`). The next number is taken by an upsert that
 * increments the row inside the issuing transaction: its row lock makes parallel issues take
 * turns until the first commits or rolls back, and a rolled-back issue gives its number back
 * with its increment. So the numbers given out of committed documents run 1, 2, 3 ... whatever
 * the concurrency. The lock is held to the end of the caller's transaction: take the number as
 * late as the work allows.
 */

/** The next number of `series` for the business `tx` is bound to, formatted (INV-000001, PV-000001, ...). */
export async function nextDocumentNumber(tx: TenantTx, series: DocumentSeries): Promise<string> {
  const row = await tx.trx
    .insertInto('document_numbers')
    .values({ tenant_id: tx.tenantId, series, last_number: 1 })
    .onConflict((oc) => oc.columns(['tenant_id', 'series']).doUpdateSet({ last_number: sql<number>`document_numbers.last_number + 1` }))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return documentNumber(series, Number(row.last_number));
}
