import { ReportPage } from '../report-page/ReportPage.js';
import { avgMarksheetPage } from './avg-marksheet.js';

/** The page of its declaration (`avg-marksheet.ts`), drawn by the report page shell. */
export function AvgMarksheetPage() {
  return <ReportPage declaration={avgMarksheetPage} />;
}
