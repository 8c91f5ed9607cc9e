import {
  type ApplyGradeSet,
  type ApplyProportion,
  type BulkCount,
  type CopyTermSettings,
  type CopyTermSettingsResponse,
  SETTINGS_MESSAGES,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { invalid } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { subjectExists } from './settings.repository.js';
import {
  activeSubjectIds,
  deleteGradeSet,
  gradeBandsOfTerm,
  gradeSetsOfTerm,
  insertGradeBands,
  insertProportions,
  markTypeExists,
  proportionKeysOfTerm,
  proportionsOfMarkType,
  proportionsOfTerm,
  setProportionShares,
} from './term-settings.repository.js';

/*
 * A term's grade sets and proportions in bulk (issue 24 point 1): copied from another term in
 * one action, or one set or proportion applied to every class or every subject at once. Each is
 * one transaction; nothing the school already has is overwritten unless it says `replace`, and
 * the answer counts what was written and what was left as it was. The rows are as many as the
 * school's classes, subjects and bands make (bounded by its settings, not by the request), read
 * in one statement and written in batches (term-settings.repository.ts).
 */

const setKey = (subjectId: string, form: string) => `${subjectId}|${form.toLowerCase()}`;
const proportionKey = (form: string, subjectId: string, marktypeId: string) => `${form.toLowerCase()}|${subjectId}|${marktypeId}`;

/**
 * Copies every grade set and proportion of `from_term`/`from_year` to `term`/`year` that the
 * target does not have: a grade set (a class and subject's bands) is copied whole or not at all,
 * a proportion one by one. Answers how many were copied and skipped (already there).
 */
export async function copyTermSettings({ tx }: ActionContext, input: CopyTermSettings): Promise<CopyTermSettingsResponse> {
  const source = { term: input.from_term, year: input.from_year };
  const target = { term: input.term, year: input.year };
  // The grade sets' lock: a set saved on its page meanwhile cannot be doubled by the copy.
  await lockInTenant(tx, 'grade-sets');
  const sourceGrades = await gradeBandsOfTerm(tx, source);
  const targetSets = await gradeSetsOfTerm(tx, target);
  const present = new Set(targetSets.map((set) => setKey(set.subject_id, set.form)));
  const sourceSets = new Set(sourceGrades.map((row) => setKey(row.subject_id, row.form)));
  const gradeRows = sourceGrades
    .filter((row) => !present.has(setKey(row.subject_id, row.form)))
    .map((row) => ({ ...row, id: newId(), ...target }));
  await insertGradeBands(tx, gradeRows);
  const grades = {
    copied: [...sourceSets].filter((key) => !present.has(key)).length,
    skipped: [...sourceSets].filter((key) => present.has(key)).length,
  };

  const sourceProportions = await proportionsOfTerm(tx, source);
  const targetProportions = await proportionKeysOfTerm(tx, target);
  const held = new Set(targetProportions.map((row) => proportionKey(row.form, row.subject_id, row.marktype_id)));
  const proportionRows = sourceProportions
    .filter((row) => !held.has(proportionKey(row.form, row.subject_id, row.marktype_id)))
    .map((row) => ({ ...row, id: newId(), ...target }));
  await insertProportions(tx, proportionRows);
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
  const subjects = await activeSubjectIds(tx);
  return subjects.map((subjectId) => ({ form: input.form, subject_id: subjectId }));
}

/**
 * One grade set written for every class of the school (its subject) or every active subject
 * (its class), for its term and year. A class or subject whose set exists keeps it unless
 * `replace`; then it is replaced whole, as the set's own page replaces one.
 */
export async function applyGradeSet({ tx, school }: ActionContext, input: ApplyGradeSet): Promise<BulkCount> {
  const { classes } = school;
  const term = { term: input.term, year: input.year };
  if (!(await subjectExists(tx, input.subject_id))) throw invalid({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
  const targets = await targetsOf(tx, input, classes);
  await lockInTenant(tx, 'grade-sets');
  const existing = await gradeSetsOfTerm(tx, term);
  const present = new Set(existing.map((set) => setKey(set.subject_id, set.form)));
  const chosen = targets.filter((target) => input.replace || !present.has(setKey(target.subject_id, target.form)));
  const replaced = chosen.filter((target) => present.has(setKey(target.subject_id, target.form)));
  for (const target of replaced) await deleteGradeSet(tx, { ...target, ...term });
  const bands = Object.keys(input.lower).map((grade) => ({ grade, lower: input.lower[grade] ?? 0, upper: input.upper[grade] ?? 0 }));
  const rows = chosen.flatMap((target) => bands.map((band) => ({ ...band, ...target, id: newId(), ...term })));
  await insertGradeBands(tx, rows);
  const answer = { copied: chosen.length, skipped: targets.length - chosen.length };
  await recordAudit(tx, { action: 'create', entity: 'grades', after: { ...input, ...answer } });
  return answer;
}

/**
 * One proportion (a mark type's share) written for every class (its subject) or every active
 * subject (its class), for its term and year. One that exists keeps its share unless `replace`.
 */
export async function applyProportion({ tx, school }: ActionContext, input: ApplyProportion): Promise<BulkCount> {
  const { classes } = school;
  if (!(await subjectExists(tx, input.subject_id))) throw invalid({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
  if (!(await markTypeExists(tx, input.marktype_id))) throw invalid({ marktype_id: [SETTINGS_MESSAGES.referenceMissing] });
  const targets = await targetsOf(tx, input, classes);
  const existing = await proportionsOfMarkType(tx, { term: input.term, year: input.year, marktype_id: input.marktype_id });
  const byKey = new Map(existing.map((row) => [setKey(row.subject_id, row.form), row.id]));
  const replaced = targets.flatMap((target) => byKey.get(setKey(target.subject_id, target.form)) ?? []);
  if (input.replace && replaced.length > 0) await setProportionShares(tx, replaced, input.percentage);
  const rows = targets
    .filter((target) => !byKey.has(setKey(target.subject_id, target.form)))
    .map((target) => ({
      ...target,
      id: newId(),
      term: input.term,
      year: input.year,
      marktype_id: input.marktype_id,
      percentage: input.percentage,
    }));
  await insertProportions(tx, rows);
  const written = rows.length + (input.replace ? replaced.length : 0);
  const answer = { copied: written, skipped: targets.length - written };
  await recordAudit(tx, { action: 'create', entity: 'proportions', after: { ...input, ...answer } });
  return answer;
}
