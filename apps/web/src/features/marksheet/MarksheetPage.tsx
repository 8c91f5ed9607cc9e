import { ReportPage } from '../report-page/ReportPage.js';
import { marksheetPage } from './marksheet.js';

/** The page of its declaration (`marksheet.ts`), drawn by the report page shell. */
export function MarksheetPage() {
  return <ReportPage declaration={marksheetPage} />;
}
