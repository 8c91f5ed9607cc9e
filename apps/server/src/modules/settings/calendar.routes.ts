import { defaultTermDates, saveTermDatesEndpoint, type TermDatesResponse, termDatesEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { recordAudit } from '../../audit/audit.repository.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { tenantEndpointRoute } from '../../plugins/endpoints.js';

/** A year's terms as the school set them, else the Ugandan defaults. */
async function termDatesOf(tx: TenantTx, year: number): Promise<TermDatesResponse> {
  const rows = await tx.trx
    .selectFrom('term_dates')
    .select(['term', sql<string>`to_char(starts, 'YYYY-MM-DD')`.as('starts'), sql<string>`to_char(ends, 'YYYY-MM-DD')`.as('ends')])
    .$call(inTenant(tx.tenantId))
    .where('year', '=', year)
    .orderBy('starts')
    .execute();
  return rows.length > 0 ? { year, custom: true, terms: rows } : { year, custom: false, terms: defaultTermDates(year) };
}

/**
 * The school's calendar (issue 10 point 13): every member reads it (it sets the default term
 * of every filter); those who manage settings change a year's terms, all three at once.
 */
export const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  tenantEndpointRoute(app, termDatesEndpoint, (tx, { query }) => termDatesOf(tx, query.year));

  tenantEndpointRoute(app, saveTermDatesEndpoint, async (tx, { body: { year, terms } }) => {
    // Two saves of one year at once: the second waits and replaces the first, never a mix.
    await lockInTenant(tx, `term-dates:${year}`);
    const before = await termDatesOf(tx, year);
    await tx.trx.deleteFrom('term_dates').$call(inTenant(tx.tenantId)).where('year', '=', year).execute();
    await tx.trx
      .insertInto('term_dates')
      .values(terms.map((term) => ({ tenant_id: tx.tenantId, year, term: term.term, starts: term.starts, ends: term.ends })))
      .execute();
    const after = await termDatesOf(tx, year);
    await recordAudit(tx, {
      action: 'update',
      entity: 'term_dates',
      entityId: String(year),
      before,
      after,
    });
    return after;
  });
};
