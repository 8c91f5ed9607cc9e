import { ReportPage } from '../report-page/ReportPage.js';
import { cumulativeReportPage } from './cumulative-report.js';

/** The page of its declaration (`cumulative-report.ts`), drawn by the report page shell. */
export function CumulativeReportPage() {
  return <ReportPage declaration={cumulativeReportPage} />;
}
