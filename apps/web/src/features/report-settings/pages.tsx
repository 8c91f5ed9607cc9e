/** The report settings pages (issue 15 points 1 and 5), one chunk: the router loads them from here. */
export { GradingRulesPage } from './GradingRulesPage.js';
export { ReportLayoutPage } from './ReportLayoutPage.js';
