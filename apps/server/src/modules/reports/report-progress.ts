/*
 * How far each PDF being drawn is (issue 15 point 6) is kept in the database since issue 25
 * point 5, so any server of a deployment answers: documents/progress.ts.
 */
export { DocumentProgressStore as ReportProgressStore, type ProgressKey } from '../../documents/progress.js';
