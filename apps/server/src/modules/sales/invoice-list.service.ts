import type { InvoicesQuerySchema } from '@mustard/shared';
import type { z } from 'zod';
import type { TenantTx } from '../../db/tenant.js';
import { rowsToWorkbook, timestampedFileName } from '../../resources/excel.js';
import { listInvoices } from './sales.repository.js';
import { invoiceSummaryOf, kampalaToday } from './sales.service.js';

/*
 * The invoices list (issue 32 point 1; spec §7 `GET /api/invoices?sdate=2020-01-01`, §9): from
 * the start date, newest first, with what is paid and the payment status; `excel=1` answers every
 * row of the filter as a workbook (mustard-<timestamp>.xlsx).
 */

export async function invoiceList({ tx }: { tx: TenantTx }, query: z.output<typeof InvoicesQuerySchema>) {
  const today = kampalaToday();
  const rows = await listInvoices(tx, { ...query, today, per_page: query.excel ? null : query.per_page });
  const invoices = rows.map((row) => invoiceSummaryOf(row, today));
  if (query.excel) {
    const workbook = await rowsToWorkbook(
      'Invoices',
      [
        { header: 'Number', value: (r) => r.number ?? '' },
        { header: 'Date', value: (r) => r.issued_on },
        { header: 'Due', value: (r) => r.due_on },
        { header: 'Customer', value: (r) => (r.customer as { name: string }).name },
        { header: 'Buyer', value: (r) => r.buyer_name ?? '' },
        { header: 'Currency', value: (r) => r.currency_code },
        { header: 'Net', value: (r) => Number(r.net_total) },
        { header: 'VAT', value: (r) => Number(r.tax_total) },
        { header: 'Total', value: (r) => Number(r.gross_total) },
        { header: 'Paid', value: (r) => Number(r.paid) },
        { header: 'Credited', value: (r) => Number(r.credited) },
        { header: 'Balance', value: (r) => Number(r.balance) },
        { header: 'Status', value: (r) => r.payment_status },
        { header: 'Fiscal', value: (r) => r.fiscal_status },
        { header: 'FDN', value: (r) => r.fiscal_fdn ?? '' },
      ],
      invoices,
    );
    return { file: { fileName: timestampedFileName('mustard'), workbook } };
  }
  return { answer: { invoices, totalRecords: Number(rows[0]?.total ?? 0) } };
}
