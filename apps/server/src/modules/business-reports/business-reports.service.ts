import {
  type CashupReportAnswer,
  cashupReport,
  type DebtorsQuery,
  type DebtorsReportAnswer,
  debtorsReport,
  monthPeriod,
  type ProfitReportAnswer,
  profitReport,
  type ReportPeriodQuery,
  type VatQuery,
  type VatReportAnswer,
  vatReport,
} from '@mustard/shared';
import type { ActionContext } from '../../plugins/endpoints.js';
import {
  advanceFacts,
  cashupFacts,
  currencies,
  mobileMoneyReceipts,
  openInvoiceFacts,
  profitFacts,
  vatInputFacts,
  vatOutputFacts,
} from './business-reports.repository.js';
import { cashupDocument, debtorsDocument, profitDocument, type ReportDocument, vatDocument } from './document.js';

/*
 * The shop's daily reports (issue 32 point 8): each reads its facts in the action's one tenant
 * transaction and builds the report with shared business/reports.ts; the same report becomes the
 * tables a workbook or PDF prints (document.ts), named by what it is of.
 */

type Context = Pick<ActionContext, 'tx' | 'school'>;

/** A report, its printable tables and the file name (without extension) its downloads take. */
export interface BuiltReport<Answer> {
  answer: Answer;
  document: ReportDocument;
  fileName: string;
}

export async function cashup({ tx, school }: Context, query: ReportPeriodQuery): Promise<BuiltReport<CashupReportAnswer>> {
  const [facts, mobileMoney, money] = [
    await cashupFacts(tx, query.from, query.to),
    await mobileMoneyReceipts(tx, query.from, query.to),
    await currencies(tx),
  ];
  const answer = { ...cashupReport(query, facts, mobileMoney), decimals: money.decimals };
  return { answer, document: cashupDocument(answer, school.name), fileName: `cashup-${query.from}-${query.to}` };
}

export async function debtors({ tx, school }: Context, query: DebtorsQuery): Promise<BuiltReport<DebtorsReportAnswer>> {
  const [invoices, advances, money] = [await openInvoiceFacts(tx, query.date), await advanceFacts(tx, query.date), await currencies(tx)];
  const answer = { ...debtorsReport(query.date, invoices, advances), decimals: money.decimals };
  return { answer, document: debtorsDocument(answer, school.name), fileName: `debtors-${query.date}` };
}

export async function vat({ tx, school }: Context, query: VatQuery): Promise<BuiltReport<VatReportAnswer>> {
  const { from, to } = monthPeriod(query.month);
  const [output, input, money] = [await vatOutputFacts(tx, from, to), await vatInputFacts(tx, from, to), await currencies(tx)];
  const answer = { ...vatReport(query.month, output, input), currency: money.own };
  return { answer, document: vatDocument(answer, school.name), fileName: `vat-${query.month}` };
}

export async function profit({ tx, school }: Context, query: ReportPeriodQuery): Promise<BuiltReport<ProfitReportAnswer>> {
  const [facts, money] = [await profitFacts(tx, query.from, query.to), await currencies(tx)];
  const answer = { ...profitReport(query, facts), currency: money.own };
  return { answer, document: profitDocument(answer, school.name), fileName: `profit-${query.from}-${query.to}` };
}
