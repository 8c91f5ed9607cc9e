import { ReportPage } from '../report-page/ReportPage.js';
import { analysisPage } from './analysis.js';

/** The page of its declaration (`analysis.ts`), drawn by the report page shell. */
export function ResultAnalysisPage() {
  return <ReportPage declaration={analysisPage} />;
}
