import { ReportPage } from '../report-page/ReportPage.js';
import { progressReportPage } from './progress-report.js';

/** The page of its declaration (`progress-report.ts`), drawn by the report page shell. */
export function ProgressReportPage() {
  return <ReportPage declaration={progressReportPage} />;
}
