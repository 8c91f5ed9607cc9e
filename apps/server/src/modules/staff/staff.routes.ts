import {
  classTeachers,
  deputies,
  gradeFooters,
  myAssignmentsEndpoint,
  reportFooters,
  requisitionDefaultsEndpoint,
  SETTINGS_MESSAGES,
  subjectPapers,
  subjectTeachers,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute } from '../../plugins/endpoints.js';
import { registerResource } from '../../resources/resource-routes.js';
import { myAssignments, onePrimaryClassTeacher, teacherIsMember, teacherOptions } from './staff.service.js';

const subjectName = { table: 'subjects', key: 'subject_id', column: 'name' } as const;

/**
 * Staff assignments (issue 13): six lists on the resource mechanism, the teacher options, and
 * what the signed-in member may enter given their roles and assignments.
 */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const people = { teacher: 'user_id' };
  registerResource(app, subjectTeachers, {
    table: 'subject_teachers',
    references: { subject: subjectName },
    people,
    duplicate: SETTINGS_MESSAGES.assignmentExists,
    beforeWrite: teacherIsMember,
  });
  registerResource(app, classTeachers, {
    table: 'class_teachers',
    people,
    duplicate: SETTINGS_MESSAGES.classTeacherTaken,
    beforeWrite: onePrimaryClassTeacher,
  });
  registerResource(app, deputies, { table: 'deputies', people, duplicate: SETTINGS_MESSAGES.deputyExists, beforeWrite: teacherIsMember });
  registerResource(app, gradeFooters, { table: 'grade_footers', duplicate: SETTINGS_MESSAGES.gradeFooterExists });
  registerResource(app, reportFooters, { table: 'report_footers', duplicate: SETTINGS_MESSAGES.reportFooterExists });
  registerResource(app, subjectPapers, {
    table: 'subject_papers',
    references: { subject: subjectName },
    duplicate: SETTINGS_MESSAGES.subjectPaperExists,
  });

  actionRoute(app, requisitionDefaultsEndpoint, (context) => teacherOptions(context));
  actionRoute(app, myAssignmentsEndpoint, (context, { query }) => myAssignments(context, query));
};
