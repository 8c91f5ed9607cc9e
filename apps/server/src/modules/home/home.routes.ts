import { classOptions, HomeResponseSchema } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { withTenant } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { currentTenant, tenantScope } from '../../plugins/access.js';

/** Home dashboard: active learners per class, in the school's class order (spec §2 "Home"), and stock locations. */
export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/home/mustard', { config: { access: 'member' }, schema: { response: { 200: HomeResponseSchema } } }, async (request) => {
    const scope = tenantScope(request);
    const { rows, locations } = await withTenant(app.database.db, scope, async (trx) => ({
      rows: await trx
        .selectFrom('students')
        .select(['form', sql<number>`count(*)::int`.as('count')])
        .$call(inTenant(scope.tenantId))
        .where('status', '=', 'active')
        .groupBy('form')
        .execute(),
      locations: (
        await trx
          .selectFrom('locations')
          .select(sql<number>`count(*)::int`.as('count'))
          .$call(inTenant(scope.tenantId))
          .executeTakeFirstOrThrow()
      ).count,
    }));
    const order = classOptions(currentTenant(request).tenant);
    const rank = (form: string) => {
      const index = order.indexOf(form);
      return index === -1 ? order.length : index;
    };
    rows.sort((a, b) => rank(a.form) - rank(b.form) || a.form.localeCompare(b.form));
    return { students: Object.fromEntries(rows.map((row) => [row.form, row.count])), locations };
  });
};
