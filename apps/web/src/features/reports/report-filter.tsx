/*
 * The report filter moved to the report page shell (`features/report-page/`, issue 25 point 6):
 * this path stays for the pages that still import the term and year fields from here.
 */
export { TermYearFields } from '../report-page/ReportFilterCard.js';
