import type { Action, SubjectClass } from '@mustard/shared';
import { matchPath } from 'react-router';

/**
 * Every protected route of spec §2, exact-match, with the ability it needs (§6) and its
 * title key. Pages whose features arrive with later issues show their title only.
 */
export interface RouteDefinition {
  path: string;
  title: string;
  ability?: { action: Action; subject: SubjectClass };
}

const manage = (subject: SubjectClass) => ({ action: 'manage' as const, subject });

export const PROTECTED_ROUTES: RouteDefinition[] = [
  { path: '/dashboard', title: 'pages.dashboard' },
  { path: '/businesses', title: 'pages.businesses', ability: { action: 'read', subject: 'tenant' } },
  { path: '/inventory/stock/locations', title: 'pages.stockLocations' },
  { path: '/subjects/list', title: 'pages.subjects' },
  { path: '/subjects/teachers', title: 'pages.subjectTeachers' },
  { path: '/classteachers', title: 'pages.classTeachers' },
  { path: '/students/categories', title: 'pages.studentCategories' },
  { path: '/students/list', title: 'pages.students' },
  { path: '/students/:id', title: 'pages.studentDetail' },
  { path: '/school/deputies', title: 'pages.deputies' },
  { path: '/school/gradefoots', title: 'pages.gradeFooters' },
  { path: '/school/reportfooters', title: 'pages.reportFooters' },
  { path: '/school/subjectpapers', title: 'pages.subjectPapers' },
  { path: '/marks/categories', title: 'pages.markTypes' },
  { path: '/marks/create', title: 'pages.createMarks' },
  { path: '/marks/delete', title: 'pages.deleteMarks', ability: manage('mark') },
  { path: '/marks/marksheet', title: 'pages.marksheet' },
  { path: '/marks/avgmarksheet', title: 'pages.averageMarksheet' },
  { path: '/school/marks', title: 'pages.marks' },
  { path: '/school/marktargets', title: 'pages.markTargets' },
  { path: '/school/marktargets/create', title: 'pages.createMarkTargets' },
  { path: '/attendance/create', title: 'pages.attendance', ability: manage('remark') },
  { path: '/comments/categories', title: 'pages.remarkTypes' },
  { path: '/comments/automarkcomments', title: 'pages.autoSubjectComments' },
  { path: '/comments/autoreportcomments', title: 'pages.autoReportComments' },
  { path: '/comments/subject', title: 'pages.subjectComments' },
  { path: '/comments/delete', title: 'pages.deleteComments', ability: manage('remark') },
  { path: '/comments/report', title: 'pages.reportComments' },
  { path: '/school/mark_newcurriculumcomment', title: 'pages.ncReportComments' },
  { path: '/school/mark_genericcomment', title: 'pages.genericSkills' },
  { path: '/school/ncreportremark', title: 'pages.ncRemarks' },
  { path: '/grades', title: 'pages.grades' },
  { path: '/school/termdates', title: 'pages.termDates' },
  { path: '/grades/new', title: 'pages.newGrade' },
  { path: '/grades-detail/:id', title: 'pages.gradeDetail' },
  { path: '/proportions', title: 'pages.proportions' },
  { path: '/school/publishmarks', title: 'pages.publishMarks', ability: manage('publish-mark') },
  { path: '/alevelscores', title: 'pages.alevelScores' },
  { path: '/terminalreport', title: 'pages.terminalReport' },
  { path: '/cummulativereport', title: 'pages.cumulativeReport' },
  { path: '/progressreport', title: 'pages.progressReport' },
  { path: '/otherstats', title: 'pages.statistics' },
  { path: '/resultanalysis', title: 'pages.resultAnalysis' },
  { path: '/school/ncmarksheet', title: 'pages.ncMarksheet' },
  { path: '/school/ncterminalreport', title: 'pages.ncTerminalReport' },
  { path: '/school/topics', title: 'pages.competencies' },
  { path: '/school/topics/new', title: 'pages.newCompetency' },
  { path: '/competency-detail/:id', title: 'pages.competencyDetail' },
  { path: '/school/projects', title: 'pages.projects' },
  { path: '/school/projects/new', title: 'pages.newProject' },
  { path: '/project-detail/:id', title: 'pages.projectDetail' },
  { path: '/school/projectscores/new', title: 'pages.projectScores' },
];

/** The sidebar of spec §2 "Navigation chrome": groups of entries, each a route. */
export interface NavEntry {
  label: string;
  to: string;
  ability?: { action: Action; subject: SubjectClass };
  /** Shown only for secondary schools (the new lower-secondary curriculum). */
  secondaryOnly?: boolean;
}

/**
 * A business (a tenant whose category is not School) has no classes, marks or reports: its
 * frame shows what a business keeps (issue 10 point 8). Products, stock and invoices join here
 * as they are built.
 */
export const BUSINESS_NAVIGATION: Array<{ label: string; entries: NavEntry[] }> = [
  { label: '', entries: [{ label: 'nav.dashboard', to: '/dashboard' }] },
  { label: 'nav.business', entries: [{ label: 'nav.stockLocations', to: '/inventory/stock/locations' }] },
];

export const NAVIGATION: Array<{ label: string; entries: NavEntry[] }> = [
  { label: '', entries: [{ label: 'nav.dashboard', to: '/dashboard' }] },
  {
    label: 'nav.general',
    entries: [
      { label: 'nav.students', to: '/students/list' },
      { label: 'nav.marks', to: '/school/marks' },
      { label: 'nav.comments', to: '/comments/report' },
      { label: 'nav.newCurriculum', to: '/school/topics', secondaryOnly: true },
    ],
  },
  {
    label: 'nav.reports',
    entries: [
      { label: 'nav.terminalReport', to: '/terminalreport' },
      { label: 'nav.cumulativeReport', to: '/cummulativereport' },
      { label: 'nav.progressiveReport', to: '/progressreport', ability: manage('mark') },
      { label: 'nav.generalStatistics', to: '/otherstats' },
      { label: 'nav.resultAnalytics', to: '/resultanalysis' },
      { label: 'nav.gradeFooter', to: '/school/gradefoots' },
      { label: 'nav.reportFooter', to: '/school/reportfooters' },
      { label: 'nav.recordAttendance', to: '/attendance/create', ability: manage('remark') },
    ],
  },
  {
    label: 'nav.settings',
    entries: [
      { label: 'nav.grades', to: '/grades' },
      { label: 'nav.termDates', to: '/school/termdates' },
      { label: 'nav.proportions', to: '/proportions' },
      { label: 'nav.alevelScores', to: '/alevelscores' },
      { label: 'nav.subjects', to: '/subjects/list' },
      { label: 'nav.classTeachers', to: '/classteachers' },
      { label: 'nav.deputyHeadTeachers', to: '/school/deputies' },
      { label: 'nav.subjectTeachers', to: '/subjects/teachers' },
    ],
  },
];

/**
 * Whether the page shows one record (its route has an id), which another school cannot show.
 * A page with a route of its own wins: /students/list is a list, though /students/:id matches it.
 */
export function showsOneRecord(pathname: string): boolean {
  if (PROTECTED_ROUTES.some((route) => !route.path.includes('/:') && matchPath(route.path, pathname))) return false;
  return PROTECTED_ROUTES.some((route) => route.path.includes('/:') && matchPath(route.path, pathname));
}
