import type { Action, SubjectClass } from '@mustard/shared';
import { generatePath, matchPath } from 'react-router';

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

/**
 * Each page's path and title, declared here once: the router, the sidebar, links between pages
 * and the list screens name a page by its key (`PAGES.subjects.path`).
 */
export const PAGES = {
  dashboard: { path: '/dashboard', title: 'pages.dashboard' },
  businesses: { path: '/businesses', title: 'pages.businesses', ability: { action: 'read', subject: 'tenant' } },
  users: { path: '/users', title: 'pages.users', ability: { action: 'read', subject: 'user' } },
  stockLocations: { path: '/inventory/stock/locations', title: 'pages.stockLocations' },
  subjects: { path: '/subjects/list', title: 'pages.subjects' },
  subjectTeachers: { path: '/subjects/teachers', title: 'pages.subjectTeachers' },
  classTeachers: { path: '/classteachers', title: 'pages.classTeachers' },
  studentCategories: { path: '/students/categories', title: 'pages.studentCategories' },
  students: { path: '/students/list', title: 'pages.students' },
  studentDetail: { path: '/students/:id', title: 'pages.studentDetail' },
  deputies: { path: '/school/deputies', title: 'pages.deputies' },
  gradeFooters: { path: '/school/gradefoots', title: 'pages.gradeFooters' },
  reportFooters: { path: '/school/reportfooters', title: 'pages.reportFooters' },
  reportLayout: { path: '/school/reportlayout', title: 'pages.reportLayout', ability: manage('setting') },
  subjectPapers: { path: '/school/subjectpapers', title: 'pages.subjectPapers' },
  markTypes: { path: '/marks/categories', title: 'pages.markTypes' },
  createMarks: { path: '/marks/create', title: 'pages.createMarks', ability: { action: 'create', subject: 'mark' } },
  deleteMarks: { path: '/marks/delete', title: 'pages.deleteMarks', ability: manage('mark') },
  marksheet: { path: '/marks/marksheet', title: 'pages.marksheet', ability: manage('mark') },
  averageMarksheet: { path: '/marks/avgmarksheet', title: 'pages.averageMarksheet' },
  marks: { path: '/school/marks', title: 'pages.marks' },
  markTargets: { path: '/school/marktargets', title: 'pages.markTargets', ability: manage('mark') },
  createMarkTargets: { path: '/school/marktargets/create', title: 'pages.createMarkTargets', ability: manage('mark') },
  attendance: { path: '/attendance/create', title: 'pages.attendance', ability: manage('remark') },
  remarkTypes: { path: '/comments/categories', title: 'pages.remarkTypes' },
  autoSubjectComments: { path: '/comments/automarkcomments', title: 'pages.autoSubjectComments' },
  autoReportComments: { path: '/comments/autoreportcomments', title: 'pages.autoReportComments' },
  subjectComments: { path: '/comments/subject', title: 'pages.subjectComments' },
  deleteComments: { path: '/comments/delete', title: 'pages.deleteComments', ability: manage('remark') },
  reportComments: { path: '/comments/report', title: 'pages.reportComments' },
  ncReportComments: { path: '/school/mark_newcurriculumcomment', title: 'pages.ncReportComments' },
  genericSkills: { path: '/school/mark_genericcomment', title: 'pages.genericSkills' },
  ncRemarks: { path: '/school/ncreportremark', title: 'pages.ncRemarks' },
  grades: { path: '/grades', title: 'pages.grades' },
  termDates: { path: '/school/termdates', title: 'pages.termDates' },
  gradingRules: { path: '/school/gradingrules', title: 'pages.gradingRules', ability: manage('setting') },
  newGrade: { path: '/grades/new', title: 'pages.newGrade' },
  gradeDetail: { path: '/grades-detail/:id', title: 'pages.gradeDetail' },
  proportions: { path: '/proportions', title: 'pages.proportions' },
  publishMarks: { path: '/school/publishmarks', title: 'pages.publishMarks', ability: manage('publish-mark') },
  alevelScores: { path: '/alevelscores', title: 'pages.alevelScores' },
  terminalReport: { path: '/terminalreport', title: 'pages.terminalReport' },
  cumulativeReport: { path: '/cummulativereport', title: 'pages.cumulativeReport' },
  progressReport: { path: '/progressreport', title: 'pages.progressReport' },
  statistics: { path: '/otherstats', title: 'pages.statistics' },
  resultAnalysis: { path: '/resultanalysis', title: 'pages.resultAnalysis' },
  ncMarksheet: { path: '/school/ncmarksheet', title: 'pages.ncMarksheet' },
  ncTerminalReport: { path: '/school/ncterminalreport', title: 'pages.ncTerminalReport' },
  competencies: { path: '/school/topics', title: 'pages.competencies' },
  newCompetency: { path: '/school/topics/new', title: 'pages.newCompetency' },
  competencyDetail: { path: '/competency-detail/:id', title: 'pages.competencyDetail' },
  projects: { path: '/school/projects', title: 'pages.projects' },
  newProject: { path: '/school/projects/new', title: 'pages.newProject' },
  projectDetail: { path: '/project-detail/:id', title: 'pages.projectDetail' },
  projectScores: { path: '/school/projectscores/new', title: 'pages.projectScores' },
} as const satisfies Record<string, RouteDefinition>;

export const PROTECTED_ROUTES: RouteDefinition[] = Object.values(PAGES);

/** A page's address with its parameters filled in: `pathTo(PAGES.studentDetail, { id })`. */
export function pathTo(page: RouteDefinition, params: Record<string, string>): string {
  return generatePath(page.path, params);
}

/** The sidebar of spec §2 "Navigation chrome": groups of entries, each a route. */
export interface NavEntry {
  label: string;
  to: string;
  ability?: { action: Action; subject: SubjectClass };
  /** Shown only for secondary schools (the new lower-secondary curriculum). */
  secondaryOnly?: boolean;
  /** An expandable group: the screens of one area (issue 13 point 5); `to` is its first screen. */
  children?: NavEntry[];
}

const entry = (label: string, page: RouteDefinition): NavEntry => ({
  label,
  to: page.path,
  ...(page.ability ? { ability: page.ability } : {}),
});

/**
 * A business (a tenant whose category is not School) has no classes, marks or reports: its
 * frame shows what a business keeps (issue 10 point 8). Products, stock and invoices join here
 * as they are built.
 */
export const BUSINESS_NAVIGATION: Array<{ label: string; entries: NavEntry[] }> = [
  { label: '', entries: [{ label: 'nav.dashboard', to: PAGES.dashboard.path }] },
  {
    label: 'nav.business',
    entries: [{ label: 'nav.stockLocations', to: PAGES.stockLocations.path }, entry('nav.businesses', PAGES.businesses)],
  },
];

/**
 * The pages a business opens: its dashboard, what it keeps, its tenants and its people. Every
 * other page is a school's (classes, marks, reports) and says so to a business that types it.
 */
export const BUSINESS_PAGES: ReadonlyArray<RouteDefinition> = [PAGES.dashboard, PAGES.stockLocations, PAGES.businesses, PAGES.users];

/**
 * A school's menu. Its Settings are the school's own: stock locations belong to a business and
 * the list of businesses to the platform's administrator, whose account menu opens it (issue 24
 * point 7).
 */
export const NAVIGATION: Array<{ label: string; entries: NavEntry[] }> = [
  { label: '', entries: [{ label: 'nav.dashboard', to: PAGES.dashboard.path }] },
  {
    label: 'nav.general',
    entries: [
      {
        label: 'nav.students',
        to: PAGES.students.path,
        children: [entry('nav.classList', PAGES.students), entry('nav.studentCategories', PAGES.studentCategories)],
      },
      {
        label: 'nav.marks',
        to: PAGES.marks.path,
        children: [
          entry('nav.marks', PAGES.marks),
          entry('nav.createMarks', PAGES.createMarks),
          entry('nav.deleteMarks', PAGES.deleteMarks),
          { ...entry('nav.marksheet', PAGES.marksheet), ability: manage('mark') },
          { ...entry('nav.averageMarksheet', PAGES.averageMarksheet), ability: manage('mark') },
          { ...entry('nav.markTargets', PAGES.markTargets), ability: manage('mark') },
        ],
      },
      {
        label: 'nav.comments',
        to: PAGES.reportComments.path,
        children: [
          entry('nav.reportComments', PAGES.reportComments),
          entry('nav.subjectComments', PAGES.subjectComments),
          entry('nav.genericSkills', PAGES.genericSkills),
          entry('nav.deleteComments', PAGES.deleteComments),
          entry('nav.remarkTypes', PAGES.remarkTypes),
          entry('nav.autoSubjectComments', PAGES.autoSubjectComments),
          entry('nav.autoReportComments', PAGES.autoReportComments),
        ],
      },
      {
        label: 'nav.newCurriculum',
        to: PAGES.competencies.path,
        secondaryOnly: true,
        children: [
          entry('nav.competencies', PAGES.competencies),
          entry('nav.projects', PAGES.projects),
          entry('nav.ncReportComments', PAGES.ncReportComments),
          entry('nav.ncRemarks', PAGES.ncRemarks),
          entry('nav.ncMarksheet', PAGES.ncMarksheet),
          entry('nav.ncTerminalReport', PAGES.ncTerminalReport),
        ],
      },
    ],
  },
  {
    label: 'nav.reports',
    entries: [
      { label: 'nav.terminalReport', to: PAGES.terminalReport.path },
      { label: 'nav.cumulativeReport', to: PAGES.cumulativeReport.path },
      { label: 'nav.progressiveReport', to: PAGES.progressReport.path, ability: manage('mark') },
      { label: 'nav.generalStatistics', to: PAGES.statistics.path },
      { label: 'nav.resultAnalytics', to: PAGES.resultAnalysis.path },
      { label: 'nav.gradeFooter', to: PAGES.gradeFooters.path },
      { label: 'nav.reportFooter', to: PAGES.reportFooters.path },
      entry('nav.reportLayout', PAGES.reportLayout),
      { label: 'nav.recordAttendance', to: PAGES.attendance.path, ability: manage('remark') },
    ],
  },
  {
    label: 'nav.settings',
    entries: [
      { label: 'nav.grades', to: PAGES.grades.path },
      { label: 'nav.termDates', to: PAGES.termDates.path },
      entry('nav.gradingRules', PAGES.gradingRules),
      { label: 'nav.proportions', to: PAGES.proportions.path },
      { label: 'nav.alevelScores', to: PAGES.alevelScores.path },
      { label: 'nav.subjects', to: PAGES.subjects.path },
      { label: 'nav.classTeachers', to: PAGES.classTeachers.path },
      { label: 'nav.deputyHeadTeachers', to: PAGES.deputies.path },
      { label: 'nav.subjectTeachers', to: PAGES.subjectTeachers.path },
      entry('nav.markTypes', PAGES.markTypes),
      entry('nav.publishMarks', PAGES.publishMarks),
      entry('nav.subjectPapers', PAGES.subjectPapers),
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
