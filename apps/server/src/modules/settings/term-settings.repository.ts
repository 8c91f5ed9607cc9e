import { sql } from 'kysely';
import { inBatches } from '../../db/batches.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/*
 * A term's grade sets and proportions read and written in bulk (term-settings.service.ts). The
 * rows written are as many as the school's classes, subjects and bands make; they go in batches
 * (`inBatches`), in the caller's transaction.
 */

/** Which term of which year. */
export interface TermOfYear {
  term: string;
  year: number;
}

/** One band of a grade set, to insert. */
export interface NewGradeBand extends TermOfYear {
  id: string;
  subject_id: string;
  form: string;
  grade: string;
  lower: number | string;
  upper: number | string;
}

/** One proportion (a mark type's share of a class and subject), to insert. */
export interface NewProportion extends TermOfYear {
  id: string;
  form: string;
  subject_id: string;
  marktype_id: string;
  percentage: number | string;
}

/** Every band of every grade set of a term. */
export function gradeBandsOfTerm(tx: TenantTx, which: TermOfYear) {
  return tx.trx
    .selectFrom('grades')
    .select(['subject_id', 'form', 'grade', 'lower', 'upper'])
    .$call(inTenant(tx.tenantId))
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .execute();
}

/** The grade sets a term has: each subject and class once. */
export function gradeSetsOfTerm(tx: TenantTx, which: TermOfYear) {
  return tx.trx
    .selectFrom('grades')
    .select(['subject_id', 'form'])
    .distinct()
    .$call(inTenant(tx.tenantId))
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .execute();
}

/** Inserts grade bands of the school, in batches. */
export async function insertGradeBands(tx: TenantTx, bands: ReadonlyArray<NewGradeBand>): Promise<void> {
  const rows = bands.map((band) => ({ ...band, tenant_id: tx.tenantId }));
  await inBatches(rows, (batch) => tx.trx.insertInto('grades').values(batch).execute());
}

/** Deletes a grade set whole: a subject's bands for one class (whatever its case), term and year. */
export async function deleteGradeSet(tx: TenantTx, which: TermOfYear & { subject_id: string; form: string }): Promise<void> {
  await tx.trx
    .deleteFrom('grades')
    .$call(inTenant(tx.tenantId))
    .where('subject_id', '=', which.subject_id)
    .where(sql`lower(form)`, '=', which.form.toLowerCase())
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .execute();
}

/** Every proportion of a term, with its share. */
export function proportionsOfTerm(tx: TenantTx, which: TermOfYear) {
  return tx.trx
    .selectFrom('proportions')
    .select(['form', 'subject_id', 'marktype_id', 'percentage'])
    .$call(inTenant(tx.tenantId))
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .execute();
}

/** The proportions a term has: each class, subject and mark type once. */
export function proportionKeysOfTerm(tx: TenantTx, which: TermOfYear) {
  return tx.trx
    .selectFrom('proportions')
    .select(['form', 'subject_id', 'marktype_id'])
    .$call(inTenant(tx.tenantId))
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .execute();
}

/** One mark type's proportions in a term, each with its class and subject. */
export function proportionsOfMarkType(tx: TenantTx, which: TermOfYear & { marktype_id: string }) {
  return tx.trx
    .selectFrom('proportions')
    .select(['id', 'form', 'subject_id'])
    .$call(inTenant(tx.tenantId))
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .where('marktype_id', '=', which.marktype_id)
    .execute();
}

/** Inserts proportions of the school, in batches; one already there (written meanwhile) is left as it is. */
export async function insertProportions(tx: TenantTx, proportions: ReadonlyArray<NewProportion>): Promise<void> {
  const rows = proportions.map((proportion) => ({ ...proportion, tenant_id: tx.tenantId }));
  await inBatches(rows, (batch) =>
    tx.trx
      .insertInto('proportions')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
}

/** Sets the share of these proportions (by id, bound as one array). */
export async function setProportionShares(tx: TenantTx, ids: ReadonlyArray<string>, percentage: number): Promise<void> {
  await tx.trx
    .updateTable('proportions')
    .set({ percentage, updated_at: sql`now()` })
    .$call(inTenant(tx.tenantId))
    .where('id', '=', sql<string>`ANY(${ids}::uuid[])`)
    .execute();
}

/** The school's active subjects' ids, in the school's order (position, then name). */
export async function activeSubjectIds(tx: TenantTx): Promise<string[]> {
  const subjects = await tx.trx
    .selectFrom('subjects')
    .select('id')
    .$call(inTenant(tx.tenantId))
    .where('active', '=', true)
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('name')
    .execute();
  return subjects.map((subject) => subject.id);
}

/** Whether the school has this mark type. */
export async function markTypeExists(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx.selectFrom('mark_types').select('id').$call(inTenant(tx.tenantId)).where('id', '=', id).executeTakeFirst();
  return Boolean(row);
}
