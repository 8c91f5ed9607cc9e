import { type Curriculum, curriculumOfClass } from '@mustard/shared';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/*
 * Which classes are new-curriculum classes (issue 26 point 1): the classes a school set for a
 * year against their default, and the school's rule on a competency score of 0.
 */

/** The classes the school set for a year (a class not here has its default). */
export function storedClassCurricula(tx: TenantTx, year: number): Promise<Array<{ form: string; curriculum: Curriculum }>> {
  return tx.trx
    .selectFrom('class_curricula')
    .select(['form', 'curriculum'])
    .$call(inTenant(tx.tenantId))
    .where('year', '=', year)
    .orderBy('form')
    .execute();
}

/** Whether the school lets a competency score 0 (not until it says so). */
export async function storedAllowZero(tx: TenantTx): Promise<boolean> {
  const row = await tx.trx.selectFrom('curriculum_settings').select('allow_zero').$call(inTenant(tx.tenantId)).executeTakeFirst();
  return row?.allow_zero ?? false;
}

/** The school's type (primary or secondary), which sets the defaults. */
export async function schoolTypeOf(tx: TenantTx): Promise<string> {
  const row = await tx.trx.selectFrom('tenants').select('schooltype').where('id', '=', tx.tenantId).executeTakeFirstOrThrow();
  return row.schooltype;
}

/** Sets a class's curriculum for a year (a choice against its default). */
export async function storeClassCurriculum(tx: TenantTx, year: number, form: string, curriculum: Curriculum): Promise<void> {
  await tx.trx
    .insertInto('class_curricula')
    .values({ tenant_id: tx.tenantId, year, form, curriculum })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'year', 'form']).doUpdateSet({ curriculum, updated_at: new Date() }))
    .execute();
}

/** Forgets a class's choice for a year: it has its default again. */
export async function forgetClassCurriculum(tx: TenantTx, year: number, form: string): Promise<void> {
  await tx.trx.deleteFrom('class_curricula').$call(inTenant(tx.tenantId)).where('year', '=', year).where('form', '=', form).execute();
}

export async function storeAllowZero(tx: TenantTx, allowZero: boolean): Promise<void> {
  await tx.trx
    .insertInto('curriculum_settings')
    .values({ tenant_id: tx.tenantId, allow_zero: allowZero })
    .onConflict((conflict) => conflict.column('tenant_id').doUpdateSet({ allow_zero: allowZero, updated_at: new Date() }))
    .execute();
}

/**
 * The school's new-curriculum rules for a year, for the marks grid and the reports: whether a
 * class is a new-curriculum class that year, and whether a competency may score 0.
 */
export async function curriculumSettings(tx: TenantTx, year: number): Promise<{ allowZero: boolean; isNew: (form: string) => boolean }> {
  const [schooltype, overrides, allowZero] = [await schoolTypeOf(tx), await storedClassCurricula(tx, year), await storedAllowZero(tx)];
  return { allowZero, isNew: (form: string) => curriculumOfClass({ schooltype }, form, overrides) === 'new' };
}
