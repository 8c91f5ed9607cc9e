import {
  defaultTermDates,
  TermDatesInputSchema,
  TermDatesQuerySchema,
  type TermDatesResponse,
  TermDatesResponseSchema,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Trx } from '../../db/tenant.js';
import { withTenant } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { currentUser, tenantScope } from '../../plugins/access.js';
import { recordAudit } from '../audit/audit.repository.js';

const PATH = '/api/school/termdates';

/** A year's terms as the school set them, else the Ugandan defaults. */
async function termDatesOf(trx: Trx, tenantId: string, year: number): Promise<TermDatesResponse> {
  const rows = await trx
    .selectFrom('term_dates')
    .select(['term', sql<string>`to_char(starts, 'YYYY-MM-DD')`.as('starts'), sql<string>`to_char(ends, 'YYYY-MM-DD')`.as('ends')])
    .$call(inTenant(tenantId))
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
  const db = app.database.db;

  app.get(
    PATH,
    { config: { access: 'member' }, schema: { querystring: TermDatesQuerySchema, response: { 200: TermDatesResponseSchema } } },
    async (request) => {
      const scope = tenantScope(request);
      return withTenant(db, scope, (trx) => termDatesOf(trx, scope.tenantId, request.query.year));
    },
  );

  app.put(
    PATH,
    {
      config: { access: { action: 'update', subject: 'setting' } },
      schema: { body: TermDatesInputSchema, response: { 200: TermDatesResponseSchema } },
    },
    async (request) => {
      const scope = tenantScope(request);
      const { year, terms } = request.body;
      return withTenant(db, scope, async (trx) => {
        // Two saves of one year at once: the second waits and replaces the first, never a mix.
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`term-dates:${scope.tenantId}:${year}`}))`.execute(trx);
        const before = await termDatesOf(trx, scope.tenantId, year);
        await trx.deleteFrom('term_dates').$call(inTenant(scope.tenantId)).where('year', '=', year).execute();
        await trx
          .insertInto('term_dates')
          .values(terms.map((term) => ({ tenant_id: scope.tenantId, year, term: term.term, starts: term.starts, ends: term.ends })))
          .execute();
        const after = await termDatesOf(trx, scope.tenantId, year);
        await recordAudit(trx, scope.tenantId, {
          userId: currentUser(request).id,
          action: 'update',
          entity: 'term_dates',
          entityId: String(year),
          before,
          after,
        });
        return after;
      });
    },
  );
};
