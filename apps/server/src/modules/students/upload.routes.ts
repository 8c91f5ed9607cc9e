import { previewStudentUploadEndpoint, STUDENT_MESSAGES, studentTemplateEndpoint, uploadStudentsEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute, endpointRoute, spreadsheetAnswer, withAction } from '../../plugins/endpoints.js';
import { readSpreadsheet, SPREADSHEET_LIMITS } from '../../resources/spreadsheet.js';
import { templateExample } from './student-ids.js';
import { chosenMapping, previewUpload, studentCategories, uploadStudents } from './upload.service.js';
import { TEMPLATE_FILE_NAME, uploadTemplate } from './upload-template.js';

/**
 * Bulk upload of learners from .xlsx (issue 5 point 3); the rules are in upload.service.ts.
 *
 * The template: the header row, and an "Instructions" sheet with an example in the school's own
 * ids and classes. The upload: multipart `file` (.xlsx), `autoid`, and (issue 24 point 2) a
 * school's own register too: `mapping` (JSON `{ heading: field | 'ignore' }`, remembered for the
 * school), `form` and `stream` for rows whose file names no class; answers
 * `{ message, created, updated, unchanged, header_row, ignored }` (the headings left out). The
 * preview (`upload/preview`, the same file) answers what the upload would read, writing nothing.
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
  actionRoute(app, studentTemplateEndpoint, async ({ tx, school }) => {
    const categories = await studentCategories(tx);
    const example = await templateExample(tx, school);
    const workbook = await uploadTemplate(
      categories.map((category) => category.name),
      example,
    );
    return spreadsheetAnswer(TEMPLATE_FILE_NAME, workbook);
  });

  endpointRoute(app, uploadStudentsEndpoint, async ({ body, file }, request) => {
    // The workbook is read (and refused if unsafe) before the transaction holds a connection;
    // its header row is found in the transaction, with the school's remembered headings.
    const sheet = await readSpreadsheet(file.buffer, SPREADSHEET_LIMITS, 'none');
    const answer = await withAction(app, request, (context) =>
      uploadStudents(context, sheet, {
        autoid: body.autoid,
        chosen: chosenMapping(body.mapping),
        defaults: { form: body.form, stream: body.stream },
      }),
    );
    return {
      message: STUDENT_MESSAGES.uploaded,
      created: answer.created,
      updated: answer.updated,
      unchanged: answer.unchanged,
      header_row: answer.headerRow,
      ignored: answer.ignored,
    };
  });

  endpointRoute(app, previewStudentUploadEndpoint, async ({ body, file }, request) => {
    const sheet = await readSpreadsheet(file.buffer, SPREADSHEET_LIMITS, 'none');
    return withAction(app, request, (context) => previewUpload(context, sheet, chosenMapping(body.mapping)));
  });
};
