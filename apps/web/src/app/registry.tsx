import { type ComponentType, lazy } from 'react';
import type { PageKey } from '../lib/pages.js';

/*
 * The page registry: which component each page is, each loaded as its own chunk (React.lazy)
 * when first shown. The app's frame is the only layer that imports features; features,
 * resources, components and lib never import app/ (a unit test holds them to it).
 */

/** A page component from a module that exports it by name, loaded when first shown. */
export function page<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): ComponentType {
  return lazy(async () => ({ default: pick(await load()) }));
}

const auth = () => import('../features/auth/pages.js');
const register = () => import('../features/register/pages.js');
const status = () => import('../features/public/StatusPages.js');
const join = () => import('../features/auth/JoinPage.js');

/** Public pages of spec §2 (the plain layout). */
export const PUBLIC_PAGES: Record<string, ComponentType> = {
  '/login': page(auth, (m) => m.LoginPage),
  '/logout': page(auth, (m) => m.LogoutPage),
  '/auth/password/reset': page(auth, (m) => m.PasswordResetPage),
  '/join': page(join, (m) => m.JoinPage),
  '/register': page(register, (m) => m.RegisterPage),
  '/signup': page(register, (m) => m.SignupPage),
  '/register/business': page(register, (m) => m.BusinessPage),
  '/register/business/products': page(register, (m) => m.ProductsPage),
  '/coming-soon': page(status, (m) => m.ComingSoonPage),
  '/maintenance': page(status, (m) => m.MaintenancePage),
};

/** Signed-in pages that exist now; every other protected route shows its title until its issue lands. */
const home = () => import('../features/dashboard/HomePage.js');
const settings = () => import('../features/settings/pages.js');
const grades = () => import('../features/settings/grades.js');
const learners = () => import('../features/students/pages.js');
const people = () => import('../features/people/screens.js');
const marks = () => import('../features/marks/MarksEntryPage.js');
const marksLists = () => import('../features/marks/screens.js');
const classValues = () => import('../features/marks/ClassValuesPage.js');
const marksheet = () => import('../features/marksheet/MarksheetPage.js');
const reportSettings = () => import('../features/report-settings/pages.js');
const reports = () => import('../features/reports/TerminalReportPage.js');
const subjectComments = () => import('../features/comments/SubjectCommentsPage.js');
const reportComments = () => import('../features/comments/ReportCommentsPage.js');
const deleteComments = () => import('../features/comments/DeleteCommentsPage.js');
/**
 * Each signed-in page registered once, by its key in PAGES (lib/pages.ts): the compiler refuses
 * a key that is not a page. A page without a component shows its title until its issue lands.
 */
export const PAGE_COMPONENTS: { readonly [Key in PageKey]?: ComponentType } = {
  dashboard: page(home, (m) => m.HomePage),
  subjectComments: page(subjectComments, (m) => m.SubjectCommentsPage),
  genericSkills: page(subjectComments, (m) => m.GenericSkillsPage),
  reportComments: page(reportComments, (m) => m.ReportCommentsPage),
  deleteComments: page(deleteComments, (m) => m.DeleteCommentsPage),
  studentCategories: page(settings, (m) => m.StudentCategoriesPage),
  subjects: page(settings, (m) => m.SubjectsPage),
  stockLocations: page(settings, (m) => m.LocationsPage),
  businesses: page(settings, (m) => m.TenantsPage),
  users: page(people, (m) => m.UsersPage),
  createMarks: page(marks, (m) => m.MarksEntryPage),
  marks: page(marksLists, (m) => m.MarksPage),
  deleteMarks: page(marksLists, (m) => m.DeleteMarksPage),
  markTargets: page(marksLists, (m) => m.MarkTargetsPage),
  createMarkTargets: page(classValues, (m) => m.CreateMarkTargetsPage),
  attendance: page(classValues, (m) => m.AttendancePage),
  marksheet: page(marksheet, (m) => m.MarksheetPage),
  markTypes: page(settings, (m) => m.MarkTypesPage),
  proportions: page(settings, (m) => m.ProportionsPage),
  publishMarks: page(settings, (m) => m.PublishMarksPage),
  alevelScores: page(settings, (m) => m.ALevelScoresPage),
  remarkTypes: page(settings, (m) => m.RemarkTypesPage),
  autoSubjectComments: page(settings, (m) => m.AutoMarkCommentsPage),
  autoReportComments: page(settings, (m) => m.AutoReportCommentsPage),
  termDates: page(settings, (m) => m.TermDatesPage),
  gradingRules: page(reportSettings, (m) => m.GradingRulesPage),
  reportLayout: page(reportSettings, (m) => m.ReportLayoutPage),
  terminalReport: page(reports, (m) => m.TerminalReportPage),
  subjectTeachers: page(settings, (m) => m.SubjectTeachersPage),
  classTeachers: page(settings, (m) => m.ClassTeachersPage),
  deputies: page(settings, (m) => m.DeputiesPage),
  gradeFooters: page(settings, (m) => m.GradeFootersPage),
  reportFooters: page(settings, (m) => m.ReportFootersPage),
  subjectPapers: page(settings, (m) => m.SubjectPapersPage),
  students: page(learners, (m) => m.StudentsPage),
  studentDetail: page(learners, (m) => m.StudentDetailPage),
  grades: page(grades, (m) => m.GradesPage),
  newGrade: page(grades, (m) => m.GradeSetPage),
  gradeDetail: page(grades, (m) => m.GradeSetPage),
};
