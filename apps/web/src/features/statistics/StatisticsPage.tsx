import { ReportPage } from '../report-page/ReportPage.js';
import { statisticsPage } from './statistics.js';

/** The page of its declaration (`statistics.ts`), drawn by the report page shell. */
export function StatisticsPage() {
  return <ReportPage declaration={statisticsPage} />;
}
