import type { HomeSetup } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/** Active learners per class of the tenant (in no particular order), and its stock locations. */
export async function dashboardCounts(tx: TenantTx): Promise<{ rows: Array<{ form: string; count: number }>; locations: number }> {
  const rows = await tx.trx
    .selectFrom('students')
    .select(['form', sql<number>`count(*)::int`.as('count')])
    .$call(inTenant(tx.tenantId))
    .where('status', '=', 'active')
    .groupBy('form')
    .execute();
  const { count: locations } = await tx.trx
    .selectFrom('locations')
    .select(sql<number>`count(*)::int`.as('count'))
    .$call(inTenant(tx.tenantId))
    .executeTakeFirstOrThrow();
  return { rows, locations };
}

/**
 * What a new school has set up (issue 24 point 6), each an `EXISTS` in one statement: a subject,
 * a mark type, a grade set (a grade band of any class, subject and term), an active learner, and
 * a teacher given a subject or a class.
 */
export async function setupChecklist(tx: TenantTx): Promise<HomeSetup> {
  const any = (table: 'subjects' | 'mark_types' | 'grades' | 'subject_teachers' | 'class_teachers', active = false) =>
    sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(table)} WHERE tenant_id = ${tx.tenantId}${
      active ? sql` AND status = 'active'` : sql``
    })`;
  const row = await tx.trx
    .selectNoFrom([
      any('subjects').as('subjects'),
      any('mark_types', true).as('mark_types'),
      any('grades').as('grade_sets'),
      sql<boolean>`EXISTS (SELECT 1 FROM students WHERE tenant_id = ${tx.tenantId} AND status = 'active')`.as('learners'),
      sql<boolean>`(${any('subject_teachers')} OR ${any('class_teachers')})`.as('teachers'),
    ])
    .executeTakeFirstOrThrow();
  return row;
}
