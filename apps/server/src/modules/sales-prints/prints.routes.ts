import { readFile } from 'node:fs/promises';
import { type PrintQuery, printInvoiceEndpoint, printReceiptEndpoint, THERMAL_WIDTHS, thermalLines } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { documentDrawer } from '../../documents/drawers.js';
import { tenantScope } from '../../plugins/access.js';
import { type ActionContext, endpointRoute, FileAnswer, withAction } from '../../plugins/endpoints.js';
import { photoFile } from '../students/photos.js';
import { type LoadedPrint, loadInvoicePrint, loadReceiptPrint } from './prints.repository.js';

/*
 * The prints of invoices and receipts (issue 32 point 6): `GET /api/invoices/:id/print` and
 * `GET /api/receipts/:id/print` with `format=a4|80mm|58mm` and `output=pdf|text`. The model is
 * read in the request's one tenant transaction (another business's id: 404); a PDF is admitted
 * by the document queue before anything is read and drawn by a document worker, as every PDF
 * is (documents/index.ts); the thermal text is laid out here, it is only lines.
 */

/** The prints' drawer, by address (the worker threads load it). */
export const SALES_PRINT_DRAWER = documentDrawer<typeof import('./pdf.js'), 'drawSalesPrint'>(import.meta.url, './pdf', 'drawSalesPrint');

/** The logo's bytes (stored with the photos, as a school's badge is), or null when there is none to read. */
async function logoBytes(app: FastifyInstance, tenantId: string, file: string | null): Promise<Uint8Array | null> {
  const stored = photoFile(app.config.dataDir, tenantId, file);
  return stored ? readFile(stored).catch(() => null) : null;
}

/** A file name from a document number: letters, digits and dashes only. */
const fileName = (loaded: LoadedPrint, format: string, extension: string) =>
  `${(loaded.doc.number ?? 'draft').replace(/[^A-Za-z0-9-]/g, '_')}-${format}.${extension}`;

function printRoute(
  app: FastifyInstance,
  endpoint: typeof printInvoiceEndpoint | typeof printReceiptEndpoint,
  load: (context: ActionContext, id: string) => Promise<LoadedPrint>,
) {
  endpointRoute(app, endpoint, async ({ params, query }, request, reply) => {
    const asked = query as PrintQuery;
    const read = () => withAction(app, request, (context) => load(context, params.id));
    if (asked.output === 'text' && asked.format !== 'a4') {
      const loaded = await read();
      const text = `${thermalLines(loaded.doc, THERMAL_WIDTHS[asked.format]).join('\n')}\n`;
      return new FileAnswer(fileName(loaded, asked.format, 'txt'), 'text/plain; charset=utf-8', Buffer.from(text, 'utf8'));
    }
    const tenantId = tenantScope(request).tenantId;
    return app.documents.serve(tenantId, reply, async (draw) => {
      const loaded = await read();
      const logo = loaded.doc.business.has_logo ? await logoBytes(app, tenantId, loaded.logoFile) : null;
      const pdf = await draw(SALES_PRINT_DRAWER, { doc: loaded.doc, format: asked.format, logo });
      return new FileAnswer(fileName(loaded, asked.format, 'pdf'), 'application/pdf', pdf);
    });
  });
}

export const salesPrintRoutes: FastifyPluginAsyncZod = async (app) => {
  printRoute(app, printInvoiceEndpoint, (context, id) => loadInvoicePrint(context.tx, id));
  printRoute(app, printReceiptEndpoint, (context, id) => loadReceiptPrint(context.tx, id));
};
