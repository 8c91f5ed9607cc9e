import {
  type ApplyGradeSet,
  type ApplyProportion,
  type BulkCount,
  type CopyTermSettings,
  type CopyTermSettingsResponse,
  SETTINGS_MESSAGES,
} from '@mustard/shared';
import { sql } from 'kysely';
import { recordAudit } from '../../audit/audit.repository.js';
import { inBatches } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { invalid } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { subjectExists } from './settings.repository.js';

/*
 * A term's grade sets and proportions in bulk (issue 24 point 1): copied from another term in
 * one action, or one set or proportion applied to every class or every subject at once. Each is
 * one transaction; nothing the school already has is overwritten unless it says `replace`, and
 * the answer counts what was written and what was left as it was. The rows are as many as the
 * school's classes, subjects and bands make (bounded by its settings, not by the request), read
 * in one statement and written in batches (`inBatches`).
 */

const setKey = (subjectId: string, form: string) => `${subjectId}|${form.toLowerCase()}`;
const proportionKey = (form: string, subjectId: string, marktypeId: string) => `${form.toLowerCase()}|${subjectId}|${marktypeId}`;

/**
 * Copies every grade set and proportion of `from_term`/`from_year` to `term`/`year` that the
 * target does not have: a grade set (a class and subject's bands) is copied whole or not at all,
 * a proportion one by one. Answers how many were copied and skipped (already there).
 */
export async function copyTermSettings({ tx }: ActionContext, input: CopyTermSettings): Promise<CopyTermSettingsResponse> {
  const { trx, tenantId } = tx;
  // The grade sets' lock: a set saved on its page meanwhile cannot be doubled by the copy.
  await lockInTenant(tx, 'grade-sets');
  const sourceGrades = await trx
    .selectFrom('grades')
    .select(['subject_id', 'form', 'grade', 'lower', 'upper'])
    .$call(inTenant(tenantId))
    .where('term', '=', input.from_term)
    .where('year', '=', input.from_year)
    .execute();
  const targetSets = await trx
    .selectFrom('grades')
    .select(['subject_id', 'form'])
    .distinct()
    .$call(inTenant(tenantId))
    .where('term', '=', input.term)
    .where('year', '=', input.year)
    .execute();
  const present = new Set(targetSets.map((set) => setKey(set.subject_id, set.form)));
  const sourceSets = new Set(sourceGrades.map((row) => setKey(row.subject_id, row.form)));
  const gradeRows = sourceGrades
    .filter((row) => !present.has(setKey(row.subject_id, row.form)))
    .map((row) => ({ ...row, tenant_id: tenantId, id: newId(), term: input.term, year: input.year }));
  await inBatches(gradeRows, (batch) => trx.insertInto('grades').values(batch).execute());
  const grades = {
    copied: [...sourceSets].filter((key) => !present.has(key)).length,
    skipped: [...sourceSets].filter((key) => present.has(key)).length,
  };

  const sourceProportions = await trx
    .selectFrom('proportions')
    .select(['form', 'subject_id', 'marktype_id', 'percentage'])
    .$call(inTenant(tenantId))
    .where('term', '=', input.from_term)
    .where('year', '=', input.from_year)
    .execute();
  const targetProportions = await trx
    .selectFrom('proportions')
    .select(['form', 'subject_id', 'marktype_id'])
    .$call(inTenant(tenantId))
    .where('term', '=', input.term)
    .where('year', '=', input.year)
    .execute();
  const held = new Set(targetProportions.map((row) => proportionKey(row.form, row.subject_id, row.marktype_id)));
  const proportionRows = sourceProportions
    .filter((row) => !held.has(proportionKey(row.form, row.subject_id, row.marktype_id)))
    .map((row) => ({ ...row, tenant_id: tenantId, id: newId(), term: input.term, year: input.year }));
  await inBatches(proportionRows, (batch) =>
    trx
      .insertInto('proportions')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
  const proportions = { copied: proportionRows.length, skipped: sourceProportions.length - proportionRows.length };

  const answer = { grades, proportions };
  await recordAudit(tx, { action: 'create', entity: 'term settings', after: { ...input, ...answer } });
  return answer;
}

/** Every class of the school, or every active subject: where one set or proportion goes. */
async function targetsOf(
  tx: TenantTx,
  input: { apply_to: 'classes' | 'subjects'; form: string; subject_id: string },
  classes: ReadonlyArray<string>,
): Promise<Array<{ form: string; subject_id: string }>> {
  if (input.apply_to === 'classes') return classes.map((form) => ({ form, subject_id: input.subject_id }));
  const subjects = await tx.trx
    .selectFrom('subjects')
    .select('id')
    .$call(inTenant(tx.tenantId))
    .where('active', '=', true)
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('name')
    .execute();
  return subjects.map((subject) => ({ form: input.form, subject_id: subject.id }));
}

/**
 * One grade set written for every class of the school (its subject) or every active subject
 * (its class), for its term and year. A class or subject whose set exists keeps it unless
 * `replace`; then it is replaced whole, as the set's own page replaces one.
 */
export async function applyGradeSet({ tx, school }: ActionContext, input: ApplyGradeSet): Promise<BulkCount> {
  const { trx, tenantId } = tx;
  const { classes } = school;
  if (!(await subjectExists(tx, input.subject_id))) throw invalid({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
  const targets = await targetsOf(tx, input, classes);
  await lockInTenant(tx, 'grade-sets');
  const existing = await trx
    .selectFrom('grades')
    .select(['subject_id', 'form'])
    .distinct()
    .$call(inTenant(tenantId))
    .where('term', '=', input.term)
    .where('year', '=', input.year)
    .execute();
  const present = new Set(existing.map((set) => setKey(set.subject_id, set.form)));
  const chosen = targets.filter((target) => input.replace || !present.has(setKey(target.subject_id, target.form)));
  const replaced = chosen.filter((target) => present.has(setKey(target.subject_id, target.form)));
  for (const target of replaced) {
    await trx
      .deleteFrom('grades')
      .$call(inTenant(tenantId))
      .where('subject_id', '=', target.subject_id)
      .where(sql`lower(form)`, '=', target.form.toLowerCase())
      .where('term', '=', input.term)
      .where('year', '=', input.year)
      .execute();
  }
  const bands = Object.keys(input.lower).map((grade) => ({ grade, lower: input.lower[grade] ?? 0, upper: input.upper[grade] ?? 0 }));
  const rows = chosen.flatMap((target) =>
    bands.map((band) => ({ ...band, ...target, tenant_id: tenantId, id: newId(), term: input.term, year: input.year })),
  );
  await inBatches(rows, (batch) => trx.insertInto('grades').values(batch).execute());
  const answer = { copied: chosen.length, skipped: targets.length - chosen.length };
  await recordAudit(tx, { action: 'create', entity: 'grades', after: { ...input, ...answer } });
  return answer;
}

/**
 * One proportion (a mark type's share) written for every class (its subject) or every active
 * subject (its class), for its term and year. One that exists keeps its share unless `replace`.
 */
export async function applyProportion({ tx, school }: ActionContext, input: ApplyProportion): Promise<BulkCount> {
  const { trx, tenantId } = tx;
  const { classes } = school;
  if (!(await subjectExists(tx, input.subject_id))) throw invalid({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
  const markType = await trx
    .selectFrom('mark_types')
    .select('id')
    .$call(inTenant(tenantId))
    .where('id', '=', input.marktype_id)
    .executeTakeFirst();
  if (!markType) throw invalid({ marktype_id: [SETTINGS_MESSAGES.referenceMissing] });
  const targets = await targetsOf(tx, input, classes);
  const existing = await trx
    .selectFrom('proportions')
    .select(['id', 'form', 'subject_id'])
    .$call(inTenant(tenantId))
    .where('term', '=', input.term)
    .where('year', '=', input.year)
    .where('marktype_id', '=', input.marktype_id)
    .execute();
  const byKey = new Map(existing.map((row) => [setKey(row.subject_id, row.form), row.id]));
  const replaced = targets.flatMap((target) => byKey.get(setKey(target.subject_id, target.form)) ?? []);
  if (input.replace && replaced.length > 0) {
    await trx
      .updateTable('proportions')
      .set({ percentage: input.percentage, updated_at: sql`now()` })
      .$call(inTenant(tenantId))
      .where('id', '=', sql<string>`ANY(${replaced}::uuid[])`)
      .execute();
  }
  const rows = targets
    .filter((target) => !byKey.has(setKey(target.subject_id, target.form)))
    .map((target) => ({
      ...target,
      tenant_id: tenantId,
      id: newId(),
      term: input.term,
      year: input.year,
      marktype_id: input.marktype_id,
      percentage: input.percentage,
    }));
  await inBatches(rows, (batch) =>
    trx
      .insertInto('proportions')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
  const written = rows.length + (input.replace ? replaced.length : 0);
  const answer = { copied: written, skipped: targets.length - written };
  await recordAudit(tx, { action: 'create', entity: 'proportions', after: { ...input, ...answer } });
  return answer;
}
