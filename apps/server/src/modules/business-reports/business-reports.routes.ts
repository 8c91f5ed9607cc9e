import { cashupReportEndpoint, debtorsReportEndpoint, type Endpoint, profitReportEndpoint, vatReportEndpoint } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { documentDrawer } from '../../documents/drawers.js';
import { tenantScope } from '../../plugins/access.js';
import { type ActionContext, type Answer, endpointRoute, FileAnswer, spreadsheetAnswer, withAction } from '../../plugins/endpoints.js';
import { type BuiltReport, cashup, debtors, profit, vat } from './business-reports.service.js';
import { reportWorkbook } from './workbook.js';

/*
 * The shop's daily reports (issue 32 point 8): cash-up, debtors, VAT and profit. Each answers
 * JSON, `excel=1` a workbook, `pdf=1` an A4 PDF. The facts are read in the action's one tenant
 * transaction; a PDF is admitted by the document queue before anything is read and drawn in its
 * turn by a document worker (documents/index.ts), so no connection waits on drawing.
 */

/** The reports' drawer, by address (the worker threads load it). */
export const BUSINESS_REPORT_DRAWER = documentDrawer<typeof import('./pdf.js'), 'drawBusinessReport'>(
  import.meta.url,
  './pdf',
  'drawBusinessReport',
);

type Outputs = { excel: boolean; pdf: boolean };

function reportRoute<E extends Endpoint & { query: z.ZodType<Outputs> }, Built>(
  app: FastifyInstance,
  endpoint: E,
  build: (context: ActionContext, query: z.output<E['query']>) => Promise<BuiltReport<Built>>,
): void {
  endpointRoute(app, endpoint, async ({ query }, request, reply) => {
    const asked = query as z.output<E['query']>;
    const read = () => withAction(app, request, (context) => build(context, asked));
    if (asked.pdf)
      return app.documents.serve(tenantScope(request).tenantId, reply, async (draw) => {
        const report = await read();
        return new FileAnswer(`${report.fileName}.pdf`, 'application/pdf', await draw(BUSINESS_REPORT_DRAWER, report.document));
      }) as Promise<Answer<E>>;
    const report = await read();
    if (asked.excel) return spreadsheetAnswer(`${report.fileName}.xlsx`, await reportWorkbook(report.document)) as Answer<E>;
    return report.answer as Answer<E>;
  });
}

export const businessReportRoutes: FastifyPluginAsyncZod = async (app) => {
  reportRoute(app, cashupReportEndpoint, cashup);
  reportRoute(app, debtorsReportEndpoint, debtors);
  reportRoute(app, vatReportEndpoint, vat);
  reportRoute(app, profitReportEndpoint, profit);
};
