import { classOptions, STUDENT_MESSAGES, UploadResultSchema } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withTenant } from '../../db/tenant.js';
import { invalid } from '../../errors.js';
import { currentTenant, currentUser, tenantScope } from '../../plugins/access.js';
import { parseFields, readForm } from '../../plugins/multipart.js';
import { readSpreadsheet } from '../../resources/spreadsheet.js';
import { templateExample } from './student-ids.js';
import { studentCategories, UploadFieldsSchema, uploadStudents } from './upload.service.js';
import { TEMPLATE_FILE_NAME, uploadTemplate } from './upload-template.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Bulk upload of learners from .xlsx (issue 5 point 3); the rules are in upload.service.ts.
 *
 * GET  /api/school/students/template: the workbook to fill in (the header row, and an
 *      "Instructions" sheet with an example in the school's own ids and classes).
 * POST /api/school/students/upload: multipart `file` (.xlsx) and `autoid` ('1', 'true' or 'on':
 *      learners without a student id get the school's next ids). Answers
 *      `{ message, created, updated, unchanged }`.
 *
 * Errors:
 * - no file: 422 `{ errors: { file: ['Please choose a file'] } }`;
 * - too large, too many zip entries, inflating past the limit: 413 (spreadsheet.ts);
 *   not a workbook: 422; no learner rows: 422 `The sheet has no learners`;
 * - bad rows: 422 `{ statusCode: 422, message: 'Some rows are not valid; nothing was saved',
 *   errors: { '<row>.<field>': [messages] } }`, keyed by the row's number in the sheet (the
 *   header is row 1) and the column, e.g. `{ '5.firstname': ['Please enter the first name'],
 *   '7.gender': ['Gender is F or M'], '9.category': ['No student category has this name'] }`.
 *   This keeps the one 422 shape of the API (`errors: Record<string, string[]>`). Nothing is
 *   written when any row is bad.
 */
export const studentUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  app.get('/api/school/students/template', { config: { access: { action: 'create', subject: 'student' } } }, async (request, reply) => {
    const scope = tenantScope(request);
    const tenant = currentTenant(request).tenant;
    const [categories, example] = await withTenant(
      db,
      scope,
      async (trx) => [await studentCategories(trx, scope.tenantId), await templateExample(trx, tenant)] as const,
    );
    const workbook = await uploadTemplate(
      categories.map((category) => category.name),
      example,
    );
    return reply.header('content-type', XLSX).header('content-disposition', `attachment; filename="${TEMPLATE_FILE_NAME}"`).send(workbook);
  });

  app.post(
    '/api/school/students/upload',
    {
      config: { access: { action: 'create', subject: 'student' } },
      schema: { response: { 200: UploadResultSchema } },
    },
    async (request) => {
      const form = await readForm(request);
      const { autoid } = parseFields(UploadFieldsSchema, form.fields);
      if (form.file?.field !== 'file') throw invalid({ file: [STUDENT_MESSAGES.fileRequired] });
      const sheet = await readSpreadsheet(form.file.buffer);
      const counts = await uploadStudents(db, tenantScope(request), sheet, {
        autoid,
        tenantName: currentTenant(request).tenant.name,
        classes: classOptions(currentTenant(request).tenant),
        userId: currentUser(request).id,
      });
      return { message: STUDENT_MESSAGES.uploaded, ...counts };
    },
  );
};
