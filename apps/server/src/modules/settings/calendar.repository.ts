import type { TermDatesInput } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/** The terms a school set for a year, in the order they start (none: the school keeps the defaults). */
export function storedTermDates(tx: TenantTx, year: number) {
  return tx.trx
    .selectFrom('term_dates')
    .select(['term', sql<string>`to_char(starts, 'YYYY-MM-DD')`.as('starts'), sql<string>`to_char(ends, 'YYYY-MM-DD')`.as('ends')])
    .$call(inTenant(tx.tenantId))
    .where('year', '=', year)
    .orderBy('starts')
    .execute();
}

/** Replaces a year's terms with these (the caller holds the year's lock). */
export async function replaceTermDates(tx: TenantTx, year: number, terms: TermDatesInput['terms']): Promise<void> {
  await tx.trx.deleteFrom('term_dates').$call(inTenant(tx.tenantId)).where('year', '=', year).execute();
  if (terms.length === 0) return;
  await tx.trx
    .insertInto('term_dates')
    .values(terms.map((term) => ({ tenant_id: tx.tenantId, year, term: term.term, starts: term.starts, ends: term.ends })))
    .execute();
}
