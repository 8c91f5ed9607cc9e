import {
  classTeachers,
  deputies,
  entryReach,
  gradeFooters,
  myAssignmentsEndpoint,
  reportFooters,
  requisitionDefaultsEndpoint,
  SETTINGS_MESSAGES,
  subjectPapers,
  subjectTeachers,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TenantTx } from '../../db/tenant.js';
import { conflict, invalid } from '../../errors.js';
import { currentTenant, currentUser } from '../../plugins/access.js';
import { tenantEndpointRoute } from '../../plugins/endpoints.js';
import { registerResource } from '../../resources/resource-routes.js';
import { assignmentsOf, memberName, membersByName, primaryClassTeacher } from './staff.repository.js';

const subjectName = { table: 'subjects', key: 'subject_id', column: 'name' } as const;

/** A teacher is a member of the school: someone removed keeps their past assignments, and gets no new ones. */
async function teacherIsMember(tx: TenantTx, input: Record<string, unknown>): Promise<void> {
  if (!(await memberName(tx, String(input.user_id)))) throw invalid({ user_id: [SETTINGS_MESSAGES.teacherNotMember] });
}

/** One primary class teacher per class, stream, term and year: 409 naming who has it. */
async function onePrimaryClassTeacher(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  await teacherIsMember(tx, input);
  if (input.category !== 'primary') return;
  const which = {
    form: String(input.form),
    stream: (input.stream as string | null) ?? null,
    term: String(input.term),
    year: Number(input.year),
  };
  const holder = await primaryClassTeacher(tx, which, id);
  if (holder) throw conflict(SETTINGS_MESSAGES.classTeacherTaken, holder);
}

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

  tenantEndpointRoute(app, requisitionDefaultsEndpoint, async (tx) => ({ users: await membersByName(tx) }));

  tenantEndpointRoute(app, myAssignmentsEndpoint, async (tx, { query }, request) => ({
    term: query.term,
    year: query.year,
    reach: entryReach(currentTenant(request).ability),
    ...(await assignmentsOf(tx, currentUser(request).id, query)),
  }));
};
