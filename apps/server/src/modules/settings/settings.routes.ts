import {
  aLevelScores,
  applyGradeSetEndpoint,
  applyProportionEndpoint,
  autoMarkComments,
  autoReportComments,
  copyTermSettingsEndpoint,
  type GradeSet,
  grades,
  locations,
  markTypes,
  proportions,
  publishMarks,
  remarkTypes,
  SETTINGS_MESSAGES,
  saveGradeSetEndpoint,
  studentCategories,
  subjects,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { conflict, invalid } from '../../errors.js';
import { tenantEndpointRoute } from '../../plugins/endpoints.js';
import { schoolOf } from '../../plugins/school.js';
import type { ResourceRepository } from '../../resources/resource-repository.js';
import { placeClassFields, registerResource } from '../../resources/resource-routes.js';
import { applyGradeSet, applyProportion, copyTermSettings } from './term-settings.service.js';

const subjectName = { table: 'subjects', key: 'subject_id', column: 'name' } as const;
const markTypeLabel = { table: 'mark_types', key: 'marktype_id', column: 'label' } as const;

/**
 * A remark type sits under a top-level one (the tree is two levels deep, spec §2 "Remark
 * types"), never under itself; one that has sub categories stays at the top.
 */
async function checkRemarkTypeParent(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  const parentId = input.parent_id as string | null;
  if (!parentId) return;
  const refuse = () => invalid({ parent_id: [SETTINGS_MESSAGES.parentInvalid] });
  if (parentId === id) throw refuse();
  const parent = await tx.trx
    .selectFrom('remark_types')
    .select('parent_id')
    .$call(inTenant(tx.tenantId))
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!parent) throw invalid({ parent_id: [SETTINGS_MESSAGES.referenceMissing] });
  if (parent.parent_id !== null) throw refuse();
  if (id) {
    const child = await tx.trx
      .selectFrom('remark_types')
      .select('id')
      .$call(inTenant(tx.tenantId))
      .where('parent_id', '=', id)
      .executeTakeFirst();
    if (child) throw refuse();
  }
}

/**
 * A grade set is written whole (spec §3 "Grade set"): the bands of one subject, class, term
 * and year, in one transaction, so a report never sees half a set. Where the set exists it is
 * replaced only when the save says `replace` (the set's own page does); otherwise 409. Answers
 * the set as the grades list reads it (the resource's own repository).
 */
async function saveGradeSet(tx: TenantTx, set: GradeSet, gradeRecords: ResourceRepository<typeof grades>) {
  const subject = await tx.trx
    .selectFrom('subjects')
    .select('id')
    .$call(inTenant(tx.tenantId))
    .where('id', '=', set.subject_id)
    .executeTakeFirst();
  if (!subject) throw invalid({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
  const which = { subject_id: set.subject_id, form: set.form, term: set.term, year: set.year };
  // The school's lock for grade sets: two saves of one set at once cannot both find it missing.
  await lockInTenant(tx, 'grade-sets');
  const before = await gradeRecords.where(tx, which);
  if (before.length > 0 && !set.replace) throw conflict(SETTINGS_MESSAGES.gradeSetExists);
  await tx.trx
    .deleteFrom('grades')
    .$call(inTenant(tx.tenantId))
    .where('subject_id', '=', which.subject_id)
    .where('form', '=', which.form)
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .execute();
  const rows = Object.keys(set.lower).map((grade) => ({
    ...which,
    tenant_id: tx.tenantId,
    id: newId(),
    grade,
    lower: set.lower[grade] ?? 0,
    upper: set.upper[grade] ?? 0,
  }));
  await tx.trx.insertInto('grades').values(rows).execute();
  const saved = await gradeRecords.where(tx, which);
  await recordAudit(tx, {
    action: before.length > 0 ? 'update' : 'create',
    entity: 'grades',
    before,
    after: saved,
  });
  return { grades: saved, totalRecords: saved.length };
}

/** School settings (issue 4): every list screen's records, on the one resource mechanism. */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  registerResource(app, studentCategories, { table: 'student_categories' });
  registerResource(app, subjects, { table: 'subjects' });
  registerResource(app, locations, { table: 'locations' });
  registerResource(app, markTypes, { table: 'mark_types', uniqueField: 'label' });
  const gradeRecords = registerResource(app, grades, {
    table: 'grades',
    references: { subject: subjectName },
    create: false,
    uniqueField: 'grade',
  });
  registerResource(app, proportions, { table: 'proportions', references: { subject: subjectName, marktype: markTypeLabel } });
  registerResource(app, publishMarks, { table: 'publish_marks', references: { marktype: markTypeLabel } });
  registerResource(app, aLevelScores, { table: 'alevel_scores' });
  registerResource(app, remarkTypes, { table: 'remark_types', treeParent: 'parent_id', beforeWrite: checkRemarkTypeParent });
  registerResource(app, autoMarkComments, { table: 'auto_mark_comments' });
  registerResource(app, autoReportComments, {
    table: 'auto_report_comments',
    references: { remarktype: { table: 'remark_types', key: 'remarktype_id', column: 'label' } },
  });

  tenantEndpointRoute(app, saveGradeSetEndpoint, (tx, { body }, request) =>
    saveGradeSet(tx, placeClassFields(grades.classFields, body, schoolOf(request).classes) as GradeSet, gradeRecords),
  );

  // A term's settings in bulk (issue 24): copied from another term, or one applied to all classes or subjects.
  tenantEndpointRoute(app, copyTermSettingsEndpoint, (tx, { body }) => copyTermSettings(tx, body));
  tenantEndpointRoute(app, applyGradeSetEndpoint, (tx, { body }, request) => {
    const { classes } = schoolOf(request);
    return applyGradeSet(tx, placeClassFields(grades.classFields, body, classes) as typeof body, classes);
  });
  tenantEndpointRoute(app, applyProportionEndpoint, (tx, { body }, request) => {
    const { classes } = schoolOf(request);
    return applyProportion(tx, placeClassFields(proportions.classFields, body, classes) as typeof body, classes);
  });
};
