import { ReportPage } from '../report-page/ReportPage.js';
import { terminalReportPage } from './terminal-report.js';

/** The page of its declaration (`terminal-report.ts`), drawn by the report page shell. */
export function TerminalReportPage() {
  return <ReportPage declaration={terminalReportPage} />;
}
