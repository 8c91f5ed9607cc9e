import { BUSINESS_MESSAGES, businessUploadEndpoint, businessUploadTemplateEndpoint } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute, spreadsheetAnswer, withAction } from '../../plugins/endpoints.js';
import { readSpreadsheet, SPREADSHEET_LIMITS } from '../../resources/spreadsheet.js';
import { OPENING_HEADERS, uploadOpeningStock } from './opening-stock-upload.js';
import { PRODUCT_HEADERS, uploadProducts } from './products-upload.js';

/**
 * A business's uploads (issue 31 point 1): `kind=products` the product list, `kind=openingstock`
 * opening stock into `location_id` on `occurred_on` (default today in Kampala). The workbook is
 * read through the school uploads' bounded, streaming reader (its work gate limits uploads at
 * once; too big: 413, more than 5,000 rows: 422) before the transaction holds a connection.
 * Bad rows: 422 `{ errors: { '<row>.<field>': [messages] } }` with nothing saved.
 */
export const businessUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  endpointRoute(app, businessUploadTemplateEndpoint, async ({ query }) => {
    const workbook = new ExcelJS.Workbook();
    workbook.creator = 'Mustard';
    const products = query.kind === 'products';
    const sheet = workbook.addWorksheet(products ? 'Products' : 'Opening stock');
    sheet.addRow(products ? [...PRODUCT_HEADERS] : [...OPENING_HEADERS]).font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
    const body = Buffer.from(await workbook.xlsx.writeBuffer());
    return spreadsheetAnswer(products ? 'Products-template.xlsx' : 'Opening-stock-template.xlsx', body);
  });

  endpointRoute(app, businessUploadEndpoint, async ({ body, file }, request) => {
    const sheet = await readSpreadsheet(file.buffer, SPREADSHEET_LIMITS, 'first');
    const counts = await withAction(app, request, (context) =>
      body.kind === 'products'
        ? uploadProducts(context, sheet)
        : uploadOpeningStock(context, sheet, file.buffer, {
            locationId: body.location_id,
            occurredOn: body.occurred_on ?? new Date(Date.now() + 3 * 3600 * 1000).toISOString().slice(0, 10),
          }),
    );
    return { message: BUSINESS_MESSAGES.uploaded, ...counts };
  });
};
