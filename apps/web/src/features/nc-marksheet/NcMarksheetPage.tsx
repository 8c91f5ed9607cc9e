import { ReportPage } from '../report-page/ReportPage.js';
import { ncMarksheetPage } from './ncMarksheet.js';

/** The page of its declaration (`ncMarksheet.ts`), drawn by the report page shell. */
export function NcMarksheetPage() {
  return <ReportPage declaration={ncMarksheetPage} />;
}
