import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/** The guardians' e-mail addresses of these learners (where the cards are e-mailed), by learner; a learner without one is absent. */
export async function guardianAddresses(tx: TenantTx, learnerIds: ReadonlyArray<string>): Promise<Map<string, string>> {
  if (learnerIds.length === 0) return new Map();
  const rows = await tx.trx
    .selectFrom('students')
    .select(['id', 'guardian_email'])
    .$call(inTenant(tx.tenantId))
    .where(sql<boolean>`id = ANY(${sql.val([...new Set(learnerIds)])}::uuid[])`)
    .where('guardian_email', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.id, row.guardian_email as string]));
}
