import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import {
  classOptions,
  deleteStudentEndpoint,
  IdParamsSchema,
  IN_USE_MESSAGES,
  matchClass,
  matchStream,
  PromoteResponseSchema,
  RESULT_MESSAGES,
  STUDENT_MESSAGES,
  StudentInputSchema,
  StudentListQuerySchema,
  StudentListResponseSchema,
  StudentSchema,
} from '@mustard/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type Trx, withTenant, withTenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { conflict, invalid, notFound, stillReferenced } from '../../errors.js';
import { currentTenant, currentUser, tenantScope } from '../../plugins/access.js';
import { endpointRoute } from '../../plugins/endpoints.js';
import { parseFields, readForm } from '../../plugins/multipart.js';
import { rowsToWorkbook } from '../../resources/excel.js';
import { photoFile, removePhoto, storePhoto } from './photos.js';
import { giveLearnerCodes, lockStudentIds, nextStudentIds, schoolLearnerCodes } from './student-ids.js';
import { findStudent, listStudents, schoolStreams, studentColumns } from './students.repository.js';

const manageStudents = { action: 'manage', subject: 'student' } as const;

/** The class list's spreadsheet columns (spec §2 "Students" table). */
const CLASS_LIST_COLUMNS: Array<[string, string]> = [
  ['studentid', 'Student ID'],
  ['fullname', 'Name'],
  ['form', 'Class'],
  ['stream', 'Stream'],
  ['gender', 'Gender'],
  ['phone', 'Phone'],
  ['email', 'Email'],
  ['studentcategory', 'Category'],
  ['code', 'Passcode'],
  ['house', 'House'],
  ['lin', 'LIN'],
];

/** `Classlist-P4-East.xlsx`: the class and stream, with nothing a file name should not hold. */
export function classListFileName(form?: string, stream?: string): string {
  const part = (text: string | undefined, fallback: string) => (text ?? '').replace(/[^A-Za-z0-9-]+/g, '') || fallback;
  return `Classlist-${part(form, 'All')}-${part(stream, 'All')}.xlsx`;
}

async function checkCategory(trx: Trx, tenantId: string, categoryId: string | null): Promise<void> {
  if (!categoryId) return;
  const found = await trx
    .selectFrom('student_categories')
    .select('id')
    .$call(inTenant(tenantId))
    .where('id', '=', categoryId)
    .executeTakeFirst();
  if (!found) throw invalid({ studentcategory_id: [STUDENT_MESSAGES.categoryUnknown] });
}

async function checkStudentIdFree(trx: Trx, tenantId: string, studentid: string, exceptId: string | null): Promise<void> {
  let query = trx.selectFrom('students').select('id').$call(inTenant(tenantId)).where('studentid', '=', studentid);
  if (exceptId) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw invalid({ studentid: [STUDENT_MESSAGES.studentidTaken] });
}

/**
 * A passcode or payment code is one learner's: a bank's payment matched by code must find one
 * learner, and a parent's passcode must open one report.
 */
async function checkCodesFree(
  trx: Trx,
  tenantId: string,
  codes: { code: string | null; paymentcode: string | null },
  exceptId: string | null,
) {
  const errors: Record<string, string[]> = {};
  for (const field of ['code', 'paymentcode'] as const) {
    const value = codes[field];
    if (!value) continue;
    let query = trx.selectFrom('students').select('id').$call(inTenant(tenantId)).where(field, '=', value);
    if (exceptId) query = query.where('id', '<>', exceptId);
    if (await query.executeTakeFirst()) errors[field] = [field === 'code' ? STUDENT_MESSAGES.codeTaken : STUDENT_MESSAGES.paymentcodeTaken];
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

/** Learners (issue 5): the class list, a learner, adding and editing with a photo, promotion, results. */
export const studentRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const dataDir = app.config.dataDir;

  app.get(
    '/api/school/students',
    { config: { access: 'member' }, schema: { querystring: StudentListQuerySchema, response: { 200: StudentListResponseSchema } } },
    async (request, reply) => {
      const scope = tenantScope(request);
      const { excel, page, per_page, ...filters } = request.query;
      const answer = await withTenant(db, scope, (trx) =>
        listStudents(trx, scope.tenantId, filters, excel ? null : { page, perPage: per_page }),
      );
      if (!excel) return answer;
      const sheet = await rowsToWorkbook(
        'Class list',
        CLASS_LIST_COLUMNS.map(([field, header]) => ({
          header,
          value: (row) => (field === 'studentcategory' ? ((row.studentcategory as { name?: string } | null)?.name ?? null) : row[field]),
        })),
        answer.students as unknown as Array<Record<string, unknown>>,
      );
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${classListFileName(filters.form, filters.stream)}"`)
        .send(sheet as never);
    },
  );

  app.get(
    '/api/school/students/:id',
    { config: { access: 'member' }, schema: { params: IdParamsSchema, response: { 200: StudentSchema } } },
    async (request) => {
      const scope = tenantScope(request);
      const student = await withTenant(db, scope, (trx) => findStudent(trx, scope.tenantId, request.params.id));
      if (!student) throw notFound();
      return student;
    },
  );

  /** The photo, to members of the learner's own school only; never stored by a browser (no-store, like every answer). */
  app.get(
    '/api/school/students/:id/photo',
    { config: { access: 'member' }, schema: { params: IdParamsSchema } },
    async (request, reply) => {
      const scope = tenantScope(request);
      const student = await withTenant(db, scope, (trx) => findStudent(trx, scope.tenantId, request.params.id));
      const file = student ? photoFile(dataDir, scope.tenantId, student.photo_path) : null;
      if (!file) throw notFound();
      try {
        await access(file);
      } catch {
        throw notFound();
      }
      return reply.header('content-type', 'image/jpeg').send(createReadStream(file));
    },
  );

  /**
   * Add (POST) or edit (PUT) a learner: a multipart form (spec §7) with the fields of §3 and
   * an optional photo. The photo is stored first; if the database refuses the change, it is
   * removed again, and a replaced photo is removed once the change is saved.
   */
  const save = async (request: FastifyRequest, id: string | null) => {
    const scope = tenantScope(request);
    const form = await readForm(request);
    const { photo: _photo, ...fields } = form.fields;
    const input = parseFields(StudentInputSchema, fields);
    const photo = form.file ? await storePhoto(dataDir, scope.tenantId, form.file.buffer) : null;
    try {
      const { saved, replaced } = await withTenant(db, scope, async (trx) => {
        const before = id ? await findStudent(trx, scope.tenantId, id) : null;
        if (id && !before) throw notFound();
        await checkCategory(trx, scope.tenantId, input.studentcategory_id);
        // The school's classes in its spelling; a stream as the school already writes it.
        const form = matchClass(classOptions(currentTenant(request).tenant), input.form);
        if (form === null) throw invalid({ form: [STUDENT_MESSAGES.classUnknown] });
        input.form = form;
        input.stream = matchStream(await schoolStreams(trx, scope.tenantId), input.stream);
        const studentid =
          input.studentid ??
          before?.studentid ??
          (await nextStudentIds(trx, scope.tenantId, currentTenant(request).tenant.name, 1))[0] ??
          '';
        if (before) {
          // Codes printed on letters stay: a blank in an edit keeps the learner's own.
          input.code ??= before.code;
          input.paymentcode ??= before.paymentcode;
        } else {
          // A new learner gets a passcode and a payment code unless the form gives them; the
          // school's lock keeps two learners added at once from drawing the same one.
          await lockStudentIds(trx, scope.tenantId);
          giveLearnerCodes([input], await schoolLearnerCodes(trx, scope.tenantId));
        }
        // Only a code that changes is checked: a school's older data may hold a pair already.
        await checkCodesFree(
          trx,
          scope.tenantId,
          {
            code: input.code === before?.code ? null : input.code,
            paymentcode: input.paymentcode === before?.paymentcode ? null : input.paymentcode,
          },
          id,
        );
        await checkStudentIdFree(trx, scope.tenantId, studentid, id);
        const columns = { ...studentColumns({ ...input, studentid }), ...(photo ? { photo_path: photo } : {}) };
        const studentId = id ?? newId();
        if (id) {
          await trx
            .updateTable('students')
            .set({ ...columns, updated_at: sql`now()` })
            .$call(inTenant(scope.tenantId))
            .where('id', '=', id)
            .execute();
        } else {
          await trx
            .insertInto('students')
            .values({ ...columns, tenant_id: scope.tenantId, id: studentId })
            .execute();
        }
        const after = await findStudent(trx, scope.tenantId, studentId);
        await recordAudit(trx, scope.tenantId, {
          userId: currentUser(request).id,
          action: id ? 'update' : 'create',
          entity: 'students',
          entityId: studentId,
          before,
          after,
        });
        return { saved: after, replaced: photo && before?.photo_path ? before.photo_path : null };
      });
      if (replaced) await removePhoto(dataDir, scope.tenantId, replaced);
      return saved;
    } catch (error) {
      if (photo) await removePhoto(dataDir, scope.tenantId, photo);
      throw error;
    }
  };

  app.post('/api/school/students', { config: { access: manageStudents }, schema: { response: { 200: StudentSchema } } }, (request) =>
    save(request, null),
  );

  app.put(
    '/api/school/students/:id',
    { config: { access: manageStudents }, schema: { params: IdParamsSchema, response: { 200: StudentSchema } } },
    (request) => save(request, request.params.id),
  );

  /**
   * A learner entered by mistake can be removed while nothing hangs on them: no marks and no
   * fee lines (the database's foreign keys decide, so a mark saved a moment earlier still
   * counts). Anyone else is made inactive instead, keeping their history and balance.
   */
  endpointRoute(app, deleteStudentEndpoint, async ({ params }, request) => {
    const scope = tenantScope(request);
    const removed = await withTenantTx(db, scope, async (tx) => {
      // Locked first: an edit committing meanwhile (a new photo) is seen, not overwritten in the audit.
      const locked = await tx.trx
        .selectFrom('students')
        .select('id')
        .$call(inTenant(tx.tenantId))
        .where('id', '=', params.id)
        .forUpdate()
        .executeTakeFirst();
      // The same delete sent twice at once: the second waited for the first and finds nothing.
      const before = locked ? await findStudent(tx.trx, tx.tenantId, locked.id) : undefined;
      if (!before) throw notFound();
      await tx.trx
        .deleteFrom('students')
        .$call(inTenant(tx.tenantId))
        .where('id', '=', before.id)
        .execute()
        .catch((error: unknown) => {
          throw stillReferenced(error) ? conflict(IN_USE_MESSAGES.students) : error;
        });
      await recordAudit(tx.trx, tx.tenantId, { userId: tx.userId, action: 'delete', entity: 'students', entityId: before.id, before });
      return before;
    });
    // The photo file goes once the learner is gone for good (after the commit); a file that
    // cannot be removed is logged, not turned into an error for a delete that happened.
    if (removed.photo_path)
      await removePhoto(dataDir, scope.tenantId, removed.photo_path).catch((error: unknown) =>
        request.log.error({ err: error }, 'a deleted learner’s photo could not be removed'),
      );
    return { message: RESULT_MESSAGES.deleted };
  });

  /**
   * Promotion (spec §4): every active learner moves to the next class of the school's list (P1
   * to P2 … S5 to S6); the top class leaves the active list as completed. One transaction; the
   * class each learner left is kept in their history. Without `promote=1` nothing moves and
   * the answer says what would.
   */
  app.get(
    '/api/student/promote',
    {
      config: { access: manageStudents },
      schema: { querystring: z.object({ promote: z.enum(['0', '1']).optional() }), response: { 200: PromoteResponseSchema } },
    },
    async (request) => {
      const scope = tenantScope(request);
      const classes = classOptions(currentTenant(request).tenant);
      const top = classes.at(-1) as string;
      const moving = classes.slice(0, -1);
      const year = new Date().getFullYear();
      return withTenant(db, scope, async (trx) => {
        if (request.query.promote === '1') {
          // One promotion at a time per school, and not twice in a row: a second click (or a
          // retried request on a dropping connection) must not move every learner up again.
          await lockInTenant(trx, scope.tenantId, 'promote');
          const recent = await trx
            .selectFrom('student_class_history')
            .select('id')
            .$call(inTenant(scope.tenantId))
            .where(sql<boolean>`recorded_at > now() - interval '10 minutes'`)
            .executeTakeFirst();
          if (recent) throw conflict(STUDENT_MESSAGES.promotedRecently);
        }
        const counts = await trx
          .selectFrom('students')
          .select([
            sql<number>`count(*) FILTER (WHERE form = ${top})::int`.as('completed'),
            sql<number>`count(*) FILTER (WHERE form <> ${top})::int`.as('promoted'),
          ])
          .$call(inTenant(scope.tenantId))
          .where('status', '=', 'active')
          .where('form', 'in', classes)
          .executeTakeFirstOrThrow();
        if (request.query.promote !== '1') {
          return { message: STUDENT_MESSAGES.promoteConfirm, promoted: counts.promoted, completed: counts.completed };
        }
        await sql`
          INSERT INTO student_class_history (tenant_id, id, student_id, form, stream, year, outcome)
          SELECT tenant_id, gen_random_uuid(), id, form, stream, ${year}, CASE WHEN form = ${top} THEN 'completed' ELSE 'promoted' END
            FROM students
           WHERE tenant_id = ${scope.tenantId} AND status = 'active' AND form IN (${sql.join(classes)})
        `.execute(trx);
        await trx
          .updateTable('students')
          .set({ status: 'completed', updated_at: sql`now()` })
          .$call(inTenant(scope.tenantId))
          .where('status', '=', 'active')
          .where('form', '=', top)
          .execute();
        if (moving.length > 0) {
          const next = sql<string>`CASE form ${sql.join(
            moving.map((form, index) => sql`WHEN ${form} THEN ${classes[index + 1]}`),
            sql` `,
          )} END`;
          await trx
            .updateTable('students')
            .set({ form: next, updated_at: sql`now()` })
            .$call(inTenant(scope.tenantId))
            .where('status', '=', 'active')
            .where('form', 'in', moving)
            .execute();
        }
        await recordAudit(trx, scope.tenantId, {
          userId: currentUser(request).id,
          action: 'promote',
          entity: 'students',
          after: { ...counts, year },
        });
        return { message: STUDENT_MESSAGES.promoted, promoted: counts.promoted, completed: counts.completed };
      });
    },
  );
};
