import {
  aLevelScores,
  autoMarkComments,
  autoReportComments,
  classOptions,
  GradeSetSchema,
  grades,
  listResponseSchema,
  locations,
  markTypes,
  proportions,
  publishMarks,
  remarkTypes,
  SETTINGS_MESSAGES,
  studentCategories,
  subjects,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type Trx, withTenant } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { conflict, invalid } from '../../errors.js';
import { currentTenant, currentUser, tenantScope } from '../../plugins/access.js';
import { placeClassFields, registerResource } from '../../resources/resource-routes.js';

const subjectName = { table: 'subjects', key: 'subject_id', column: 'name' };
const markTypeLabel = { table: 'mark_types', key: 'marktype_id', column: 'label' };

/**
 * A remark type sits under a top-level one (the tree is two levels deep, spec §2 "Remark
 * types"), never under itself; one that has sub categories stays at the top.
 */
async function checkRemarkTypeParent(trx: Trx, tenantId: string, input: Record<string, unknown>, id: string | null): Promise<void> {
  const parentId = input.parent_id as string | null;
  if (!parentId) return;
  const refuse = () => invalid({ parent_id: [SETTINGS_MESSAGES.parentInvalid] });
  if (parentId === id) throw refuse();
  const parent = await trx
    .selectFrom('remark_types')
    .select('parent_id')
    .$call(inTenant(tenantId))
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!parent) throw invalid({ parent_id: [SETTINGS_MESSAGES.referenceMissing] });
  if (parent.parent_id !== null) throw refuse();
  if (id) {
    const child = await trx
      .selectFrom('remark_types')
      .select('id')
      .$call(inTenant(tenantId))
      .where('parent_id', '=', id)
      .executeTakeFirst();
    if (child) throw refuse();
  }
}

/** School settings (issue 4): every list screen's records, on the one resource mechanism. */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  registerResource(app, studentCategories, { table: 'student_categories' });
  registerResource(app, subjects, { table: 'subjects' });
  registerResource(app, locations, { table: 'locations' });
  registerResource(app, markTypes, { table: 'mark_types', uniqueField: 'label' });
  registerResource(app, grades, { table: 'grades', references: { subject: subjectName }, create: false, uniqueField: 'grade' });
  registerResource(app, proportions, { table: 'proportions', references: { subject: subjectName, marktype: markTypeLabel } });
  registerResource(app, publishMarks, { table: 'publish_marks', references: { marktype: markTypeLabel } });
  registerResource(app, aLevelScores, { table: 'alevel_scores' });
  registerResource(app, remarkTypes, { table: 'remark_types', treeParent: 'parent_id', beforeWrite: checkRemarkTypeParent });
  registerResource(app, autoMarkComments, { table: 'auto_mark_comments' });
  registerResource(app, autoReportComments, {
    table: 'auto_report_comments',
    references: { remarktype: { table: 'remark_types', key: 'remarktype_id', column: 'label' } },
  });

  /**
   * A grade set is written whole (spec §3 "Grade set"): the bands of one subject, class, term
   * and year, in one transaction, so a report never sees half a set. Where the set exists it is
   * replaced only when the save says `replace` (the set's own page does); otherwise 409.
   */
  app.post(
    grades.path,
    {
      config: { access: { action: 'create', subject: grades.subject } },
      schema: { body: GradeSetSchema, response: { 200: listResponseSchema(grades) } },
    },
    async (request) => {
      const scope = tenantScope(request);
      const set = placeClassFields(grades.classFields, request.body, classOptions(currentTenant(request).tenant)) as typeof request.body;
      return withTenant(app.database.db, scope, async (trx) => {
        const subject = await trx
          .selectFrom('subjects')
          .select('id')
          .$call(inTenant(scope.tenantId))
          .where('id', '=', set.subject_id)
          .executeTakeFirst();
        if (!subject) throw invalid({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
        const sameSet = <QB extends { where(...args: any[]): any }>(qb: QB): QB =>
          qb
            .where('subject_id', '=', set.subject_id)
            .where('form', '=', set.form)
            .where('term', '=', set.term)
            .where('year', '=', set.year) as QB;
        // The school's lock for grade sets: two saves of one set at once cannot both find it missing.
        await lockInTenant(trx, scope.tenantId, 'grade-sets');
        const before = await trx.selectFrom('grades').selectAll().$call(inTenant(scope.tenantId)).$call(sameSet).execute();
        if (before.length > 0 && !set.replace) throw conflict(SETTINGS_MESSAGES.gradeSetExists);
        await trx.deleteFrom('grades').$call(inTenant(scope.tenantId)).$call(sameSet).execute();
        const rows = Object.keys(set.lower).map((grade) => ({
          tenant_id: scope.tenantId,
          id: newId(),
          subject_id: set.subject_id,
          form: set.form,
          term: set.term,
          year: set.year,
          grade,
          lower: set.lower[grade] ?? 0,
          upper: set.upper[grade] ?? 0,
        }));
        await trx.insertInto('grades').values(rows).execute();
        await recordAudit(trx, scope.tenantId, {
          userId: currentUser(request).id,
          action: before.length > 0 ? 'update' : 'create',
          entity: 'grades',
          before,
          after: rows,
        });
        const saved = await (trx as unknown as Kysely<any>)
          .selectFrom('grades as g')
          .leftJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'g.tenant_id').onRef('s.id', '=', 'g.subject_id'))
          .select(['g.id', 'g.subject_id', 'g.form', 'g.term', 'g.year', 'g.grade', 's.name as subject_name'])
          .select([sql<number>`g.lower::float8`.as('lower'), sql<number>`g.upper::float8`.as('upper')])
          .$call(inTenant(scope.tenantId, 'g.tenant_id'))
          .where('g.subject_id', '=', set.subject_id)
          .where('g.form', '=', set.form)
          .where('g.term', '=', set.term)
          .where('g.year', '=', set.year)
          .orderBy('g.upper', 'desc')
          .execute();
        return {
          grades: saved.map(({ subject_name, ...row }) => ({ ...row, subject: subject_name ? { name: subject_name } : null })),
          totalRecords: saved.length,
        };
      });
    },
  );
};
