import { journalTemplateEndpoint, STUDENT_MESSAGES as M, statementEndpoint, uploadJournalEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, invalid } from '../../errors.js';
import { actionRoute, endpointRoute, spreadsheetAnswer, withAction } from '../../plugins/endpoints.js';
import { headerBelowTitles, readSpreadsheet, SPREADSHEET_LIMITS } from '../../resources/spreadsheet.js';
import { templateExample } from '../students/student-ids.js';
import { learnerStatement, uploadJournal } from './fees.service.js';
import { JOURNAL_TEMPLATE_FILE_NAME, journalTemplate } from './fees-template.js';

/**
 * Fee journals and learners' statements (issue 5 points 4 and 5; spec §7 "Students"). The
 * journal sheet's layout: fees-template.ts; the upload's rules: fees.service.ts.
 */
export const feeRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, journalTemplateEndpoint, async ({ tx, school }) =>
    spreadsheetAnswer(JOURNAL_TEMPLATE_FILE_NAME, await journalTemplate(await templateExample(tx, school))),
  );

  endpointRoute(app, uploadJournalEndpoint, async ({ body, file }, request) => {
    // One column cannot be both the amount invoiced and the amount received.
    if (body.invoice === body.receipt) throw invalid({ receipt: [M.positionsSame] });
    // Read before the transaction holds a connection; the positions may point past the usual
    // column limit (up to 200): read that far. The header row may sit below title rows.
    const sheet = await readSpreadsheet(
      file.buffer,
      { ...SPREADSHEET_LIMITS, columns: Math.max(SPREADSHEET_LIMITS.columns, body.invoice, body.receipt) },
      headerBelowTitles,
    );
    if (sheet.rows.length === 0) throw new AppError(422, M.emptySheet, { file: [M.emptySheet] });
    const counts = await withAction(app, request, (context) =>
      uploadJournal(context, {
        // At most 255 characters, counted whole: a cut must not leave half an emoji.
        fileName: file.filename ? Array.from(file.filename).slice(0, 255).join('') : null,
        file: file.buffer,
        sheet,
        ...body,
      }),
    );
    return { message: M.journalUploaded, created: counts.created, updated: counts.updated, unchanged: counts.unchanged };
  });

  actionRoute(app, statementEndpoint, (context, { query }) => learnerStatement(context, query.id));
};
