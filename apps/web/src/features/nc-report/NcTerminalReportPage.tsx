import { ReportPage } from '../report-page/ReportPage.js';
import { ncTerminalReportPage } from './ncTerminalReport.js';

/** The page of its declaration (`ncTerminalReport.ts`), drawn by the report page shell. */
export function NcTerminalReportPage() {
  return <ReportPage declaration={ncTerminalReportPage} />;
}
