import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/*
 * Competencies (topics, issue 26 point 2): what an edit needs to know of the stored one.
 */

/** The competency's class, term and subject, its row held until the transaction ends (a mark's save waits meanwhile). */
export function lockedTopic(tx: TenantTx, id: string): Promise<{ form: string; term: string; subject_id: string } | undefined> {
  return tx.trx
    .selectFrom('topics')
    .select(['form', 'term', 'subject_id'])
    .$call(inTenant(tx.tenantId))
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Whether any mark carries the competency (its activity-of-integration scores). */
export async function topicHasMarks(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx
    .selectFrom('marks')
    .select('id')
    .$call(inTenant(tx.tenantId))
    .where('topic_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
