import { FeeJournalFieldsSchema, STUDENT_MESSAGES as M, StatementResponseSchema, UploadResultSchema } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { withTenant } from '../../db/tenant.js';
import { AppError, type FieldErrors, invalid } from '../../errors.js';
import { currentTenant, currentUser, tenantScope } from '../../plugins/access.js';
import { parseFields, readForm } from '../../plugins/multipart.js';
import { readSpreadsheet, SPREADSHEET_LIMITS } from '../../resources/spreadsheet.js';
import { templateExample } from '../students/student-ids.js';
import { learnerStatement, uploadJournal } from './fees.service.js';
import { JOURNAL_TEMPLATE_FILE_NAME, journalTemplate } from './fees-template.js';

const SPREADSHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The upload's fields; a missing file is named beside the other fields' errors. */
function journalFields(fields: Record<string, string>, hasFile: boolean) {
  const missingFile: FieldErrors = hasFile ? {} : { file: [M.fileRequired] };
  let parsed: z.infer<typeof FeeJournalFieldsSchema>;
  try {
    parsed = parseFields(FeeJournalFieldsSchema, {
      ...fields,
      // A blank position means the default, as when the field is left out.
      invoice: fields.invoice?.trim() || undefined,
      receipt: fields.receipt?.trim() || undefined,
    });
  } catch (error) {
    if (error instanceof AppError && error.errors) throw invalid({ ...missingFile, ...error.errors });
    throw error;
  }
  if (!hasFile) throw invalid(missingFile);
  // One column cannot be both the amount invoiced and the amount received.
  if (parsed.invoice === parsed.receipt) throw invalid({ receipt: [M.positionsSame] });
  return parsed;
}

/**
 * Fee journals and learners' statements (issue 5 points 4 and 5; spec §7 "Students"). The
 * journal sheet's layout: fees-template.ts; the upload's rules: fees.service.ts.
 */
export const feeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/uploads/studentjournals/template',
    { config: { access: { action: 'create', subject: 'student' } } },
    async (request, reply) => {
      const example = await withTenant(app.database.db, tenantScope(request), (trx) => templateExample(trx, currentTenant(request).tenant));
      return reply
        .header('content-type', SPREADSHEET)
        .header('content-disposition', `attachment; filename="${JOURNAL_TEMPLATE_FILE_NAME}"`)
        .send((await journalTemplate(example)) as never);
    },
  );

  app.post(
    '/api/uploads/studentjournals',
    {
      config: { access: { action: 'create', subject: 'student' } },
      schema: { response: { 200: UploadResultSchema } },
    },
    async (request) => {
      const scope = tenantScope(request);
      const form = await readForm(request);
      const fields = journalFields(form.fields, form.file !== null);
      const file = form.file!;
      // The positions may point past the usual column limit (up to 200): read that far.
      const sheet = await readSpreadsheet(file.buffer, {
        ...SPREADSHEET_LIMITS,
        columns: Math.max(SPREADSHEET_LIMITS.columns, fields.invoice, fields.receipt),
      });
      if (sheet.rows.length === 0) throw new AppError(422, M.emptySheet, { file: [M.emptySheet] });
      const counts = await withTenant(app.database.db, scope, (trx) =>
        uploadJournal(trx, {
          tenantId: scope.tenantId,
          userId: currentUser(request).id,
          // At most 255 characters, counted whole: a cut must not leave half an emoji.
          fileName: file.filename ? Array.from(file.filename).slice(0, 255).join('') : null,
          file: file.buffer,
          sheet,
          ...fields,
        }),
      );
      return { message: M.journalUploaded, created: counts.created, updated: counts.updated, unchanged: counts.unchanged };
    },
  );

  app.get(
    '/api/student/statement',
    {
      config: { access: { action: 'read', subject: 'student' } },
      schema: { querystring: z.object({ id: z.uuid() }), response: { 200: StatementResponseSchema } },
    },
    async (request) => {
      const scope = tenantScope(request);
      return withTenant(app.database.db, scope, (trx) => learnerStatement(trx, scope.tenantId, request.query.id));
    },
  );
};
