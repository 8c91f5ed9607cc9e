/** Learners' pages, one chunk. */
export { StudentDetailPage } from './StudentDetailPage.js';
export { StudentsPage } from './StudentsPage.js';
