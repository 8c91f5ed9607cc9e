import { type GradeSet, type grades, SETTINGS_MESSAGES } from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { conflict, invalid } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import type { ResourceRepository } from '../../resources/resource-repository.js';
import { hasSubRemarkTypes, remarkTypeParent, replaceGradeSet, subjectExists } from './settings.repository.js';

/**
 * A remark type sits under a top-level one (the tree is two levels deep, spec §2 "Remark
 * types"), never under itself; one that has sub categories stays at the top. The remark types
 * resource's check before a write, in the write's transaction.
 */
export async function checkRemarkTypeParent(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  const parentId = input.parent_id as string | null;
  if (!parentId) return;
  const refuse = () => invalid({ parent_id: [SETTINGS_MESSAGES.parentInvalid] });
  if (parentId === id) throw refuse();
  const parent = await remarkTypeParent(tx, parentId);
  if (!parent) throw invalid({ parent_id: [SETTINGS_MESSAGES.referenceMissing] });
  if (parent.parent_id !== null) throw refuse();
  if (id && (await hasSubRemarkTypes(tx, id))) throw refuse();
}

/**
 * A grade set is written whole (spec §3 "Grade set"): the bands of one subject, class, term
 * and year, in one transaction, so a report never sees half a set. Where the set exists it is
 * replaced only when the save says `replace` (the set's own page does); otherwise 409. Answers
 * the set as the grades list reads it (the resource's own repository).
 */
export async function saveGradeSet({ tx }: ActionContext, set: GradeSet, gradeRecords: ResourceRepository<typeof grades>) {
  if (!(await subjectExists(tx, set.subject_id))) throw invalid({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
  const which = { subject_id: set.subject_id, form: set.form, term: set.term, year: set.year };
  // The school's lock for grade sets: two saves of one set at once cannot both find it missing.
  await lockInTenant(tx, 'grade-sets');
  const before = await gradeRecords.where(tx, which);
  if (before.length > 0 && !set.replace) throw conflict(SETTINGS_MESSAGES.gradeSetExists);
  await replaceGradeSet(
    tx,
    which,
    Object.keys(set.lower).map((grade) => ({ id: newId(), grade, lower: set.lower[grade] ?? 0, upper: set.upper[grade] ?? 0 })),
  );
  const saved = await gradeRecords.where(tx, which);
  await recordAudit(tx, {
    action: before.length > 0 ? 'update' : 'create',
    entity: 'grades',
    before,
    after: saved,
  });
  return { grades: saved, totalRecords: saved.length };
}
