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
  saveGradeSetEndpoint,
  studentCategories,
  subjects,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute } from '../../plugins/endpoints.js';
import { placeClassFields, registerResource } from '../../resources/resource-routes.js';
import { checkRemarkTypeParent, saveGradeSet } from './settings.service.js';
import { applyGradeSet, applyProportion, copyTermSettings } from './term-settings.service.js';

const subjectName = { table: 'subjects', key: 'subject_id', column: 'name' } as const;
const markTypeLabel = { table: 'mark_types', key: 'marktype_id', column: 'label' } as const;

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

  actionRoute(app, saveGradeSetEndpoint, (context, { body }) =>
    saveGradeSet(context, placeClassFields(grades.classFields, body, context.school.classes) as GradeSet, gradeRecords),
  );

  // A term's settings in bulk (issue 24): copied from another term, or one applied to all classes or subjects.
  actionRoute(app, copyTermSettingsEndpoint, (context, { body }) => copyTermSettings(context, body));
  actionRoute(app, applyGradeSetEndpoint, (context, { body }) =>
    applyGradeSet(context, placeClassFields(grades.classFields, body, context.school.classes) as typeof body),
  );
  actionRoute(app, applyProportionEndpoint, (context, { body }) =>
    applyProportion(context, placeClassFields(proportions.classFields, body, context.school.classes) as typeof body),
  );
};
