import {
  CashupReportSchema,
  DebtorsQuerySchema,
  DebtorsReportSchema,
  ProfitReportSchema,
  ReportPeriodQuerySchema,
  VatQuerySchema,
  VatReportSchema,
} from '../schemas/business-reports.js';
import { defineEndpoint } from './definition.js';

/*
 * The reports a shop owner reads daily (issue 32 point 8). Each answers JSON, or with `excel=1`
 * the same report as a workbook, with `pdf=1` as an A4 PDF. Business routes (/api/business/):
 * a school's TENANTCODE gets 404; reading them takes `read business-report` (a manager has it).
 */

const readReports = { action: 'read', subject: 'business-report' } as const;

/** Money in by payment method per day and per cashier, with the mobile-money receipts to check. */
export const cashupReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/business/reports/cashup',
  access: readReports,
  query: ReportPeriodQuerySchema,
  response: CashupReportSchema,
  spreadsheet: true,
});

/** Each customer's open invoices on a day by aging bucket, with their advances. */
export const debtorsReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/business/reports/debtors',
  access: readReports,
  query: DebtorsQuerySchema,
  response: DebtorsReportSchema,
  spreadsheet: true,
});

/** A month's output VAT by tax code, input VAT from paid vouchers, and the net to pay. */
export const vatReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/business/reports/vat',
  access: readReports,
  query: VatQuerySchema,
  response: VatReportSchema,
  spreadsheet: true,
});

/** Sales net of VAT - cost of sales - expenses over a period. */
export const profitReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/business/reports/profit',
  access: readReports,
  query: ReportPeriodQuerySchema,
  response: ProfitReportSchema,
  spreadsheet: true,
});
