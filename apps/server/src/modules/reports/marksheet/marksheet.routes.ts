import { marksheetCounts, marksheetEndpoint, marksheetFileName, marksheetTable } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { renderDocument } from '../../../documents/pool.js';
import { tenantScope } from '../../../plugins/access.js';
import { endpointRoute, FileAnswer, spreadsheetAnswer, withRequestTx } from '../../../plugins/endpoints.js';
import { renderMarksheetHtml } from './html.js';
import { readMarksheet } from './marksheet.service.js';
import { marksheetWorkbook } from './workbook.js';

/**
 * The mark sheet (issue 15 point 7): the class's report model read in the request's one
 * transaction, then the table and counts drawn after it as the preview (`html=1`), the PDF
 * (`pdf=1`, drawn in the one document pool, documents/) or, otherwise, the workbook (`excel=1`), so no connection
 * waits on drawing. Files are named `marksheet-<class>-<stream>-<year>-<term>` (.pdf, .xlsx; the
 * stream `all` for the whole class).
 */
export const marksheetRoutes: FastifyPluginAsyncZod = async (app) => {
  endpointRoute(app, marksheetEndpoint, async ({ query }, request, reply) => {
    const read = async () => {
      const { model, order } = await withRequestTx(app, request, (tx) => readMarksheet(tx, query));
      return { model, table: marksheetTable(model), counts: marksheetCounts(model, order) };
    };
    if (query.pdf && !query.html)
      // Admitted before anything is read, drawn in its turn, as the report cards (documents/queue.ts).
      return app.documents.serve(tenantScope(request).tenantId, reply, async (draw) => {
        const { model, table, counts } = await read();
        const pdf = await draw(() => renderDocument('marksheet', { model, table, counts }));
        return new FileAnswer(`${marksheetFileName(model.report)}.pdf`, 'application/pdf', pdf);
      });
    const { model, table, counts } = await read();
    if (query.html) return { html: renderMarksheetHtml(model, table, counts) };
    return spreadsheetAnswer(`${marksheetFileName(model.report)}.xlsx`, await marksheetWorkbook(model, table, counts));
  });
};
