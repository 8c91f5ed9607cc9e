import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/** A remark type's own parent (`parent_id`), or undefined when the school has no such remark type. */
export function remarkTypeParent(tx: TenantTx, id: string): Promise<{ parent_id: string | null } | undefined> {
  return tx.trx.selectFrom('remark_types').select('parent_id').$call(inTenant(tx.tenantId)).where('id', '=', id).executeTakeFirst();
}

/** Whether a remark type has sub categories under it. */
export async function hasSubRemarkTypes(tx: TenantTx, id: string): Promise<boolean> {
  const child = await tx.trx
    .selectFrom('remark_types')
    .select('id')
    .$call(inTenant(tx.tenantId))
    .where('parent_id', '=', id)
    .executeTakeFirst();
  return Boolean(child);
}

/** Whether the school has this subject. */
export async function subjectExists(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx.selectFrom('subjects').select('id').$call(inTenant(tx.tenantId)).where('id', '=', id).executeTakeFirst();
  return Boolean(row);
}

/** Which grade set: a subject's bands for one class, term and year. */
export interface GradeSetKey {
  subject_id: string;
  form: string;
  term: string;
  year: number;
}

/** Replaces a grade set's bands with these, whole (the caller holds the grade sets' lock). */
export async function replaceGradeSet(
  tx: TenantTx,
  which: GradeSetKey,
  bands: ReadonlyArray<{ id: string; grade: string; lower: number; upper: number }>,
): Promise<void> {
  await tx.trx
    .deleteFrom('grades')
    .$call(inTenant(tx.tenantId))
    .where('subject_id', '=', which.subject_id)
    .where('form', '=', which.form)
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .execute();
  if (bands.length === 0) return;
  await tx.trx
    .insertInto('grades')
    .values(bands.map((band) => ({ ...which, ...band, tenant_id: tx.tenantId })))
    .execute();
}
