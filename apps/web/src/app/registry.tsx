import type { ComponentType } from 'react';
import type { PageKey } from '../lib/pages.js';
import { page, screen } from './public-pages.js';

// A business's pages (paths under /inventory/ or /business/) are registered in app/business-registry.tsx, not here.
/*
 * The page registry: which component each page is, each loaded as its own chunk (React.lazy)
 * when first shown. The app's frame is the only layer that imports features; features,
 * resources, components and lib never import app/ (a unit test holds them to it). It travels
 * with the signed-in frame's chunk (app/RegisteredPage.tsx), not with /login; the public pages
 * are in app/public-pages.tsx.
 */

/** Signed-in pages that exist now; every other protected route shows its title until its issue lands. */
const home = () => import('../features/dashboard/HomePage.js');
const mailOutbox = () => import('../features/mail-outbox/MailOutboxPage.js');
const settings = () => import('../features/settings/pages.js');
const signinDomains = () => import('../features/signin-domains/SigninDomainsPage.js');
const grades = () => import('../features/settings/grades.js');
const learners = () => import('../features/students/pages.js');
const people = () => import('../features/people/screens.js');
const marks = () => import('../features/marks/MarksEntryPage.js');
const marksLists = () => import('../features/marks/screens.js');
const classValues = () => import('../features/marks/ClassValuesPage.js');
const marksheet = () => import('../features/marksheet/MarksheetPage.js');
const avgMarksheet = () => import('../features/avg-marksheet/AvgMarksheetPage.js');
const progressReport = () => import('../features/progress-report/ProgressReportPage.js');
const resultAnalysis = () => import('../features/analysis/ResultAnalysisPage.js');
const statistics = () => import('../features/statistics/StatisticsPage.js');
const cumulativeReport = () => import('../features/cumulative-report/CumulativeReportPage.js');
const ncMarksheet = () => import('../features/nc-marksheet/NcMarksheetPage.js');
const ncTerminalReport = () => import('../features/nc-report/NcTerminalReportPage.js');
const reportSettings = () => import('../features/report-settings/pages.js');
const reports = () => import('../features/reports/TerminalReportPage.js');
const subjectComments = () => import('../features/comments/SubjectCommentsPage.js');
const reportComments = () => import('../features/comments/ReportCommentsPage.js');
const deleteComments = () => import('../features/comments/DeleteCommentsPage.js');
const curriculum = () => import('../features/curriculum/pages.js');
const projectScores = () => import('../features/curriculum/ProjectScoresPage.js');
/**
 * Each signed-in page registered once, by its key in PAGES (lib/pages.ts): the compiler refuses
 * a key that is not a page. A page without a component shows its title until its issue lands.
 */
export const PAGE_COMPONENTS: { readonly [Key in PageKey]?: ComponentType } = {
  dashboard: page(home, (m) => m.HomePage),
  subjectComments: screen(subjectComments, (m) => m.SubjectCommentsPage),
  genericSkills: screen(subjectComments, (m) => m.GenericSkillsPage),
  ncReportComments: screen(subjectComments, (m) => m.NcCommentsPage),
  reportComments: screen(reportComments, (m) => m.ReportCommentsPage),
  ncRemarks: screen(reportComments, (m) => m.NcRemarksPage),
  deleteComments: screen(deleteComments, (m) => m.DeleteCommentsPage),
  studentCategories: screen(settings, (m) => m.StudentCategoriesPage),
  subjects: screen(settings, (m) => m.SubjectsPage),
  stockLocations: screen(settings, (m) => m.LocationsPage),
  businesses: screen(settings, (m) => m.TenantsPage),
  mailOutbox: screen(mailOutbox, (m) => m.MailOutboxPage),
  signinDomains: screen(signinDomains, (m) => m.SigninDomainsPage),
  users: screen(people, (m) => m.UsersPage),
  createMarks: screen(marks, (m) => m.MarksEntryPage),
  marks: screen(marksLists, (m) => m.MarksPage),
  deleteMarks: screen(marksLists, (m) => m.DeleteMarksPage),
  markTargets: screen(marksLists, (m) => m.MarkTargetsPage),
  createMarkTargets: screen(classValues, (m) => m.CreateMarkTargetsPage),
  attendance: screen(classValues, (m) => m.AttendancePage),
  marksheet: screen(marksheet, (m) => m.MarksheetPage),
  averageMarksheet: screen(avgMarksheet, (m) => m.AvgMarksheetPage),
  progressReport: screen(progressReport, (m) => m.ProgressReportPage),
  resultAnalysis: screen(resultAnalysis, (m) => m.ResultAnalysisPage),
  statistics: screen(statistics, (m) => m.StatisticsPage),
  cumulativeReport: screen(cumulativeReport, (m) => m.CumulativeReportPage),
  ncMarksheet: screen(ncMarksheet, (m) => m.NcMarksheetPage),
  ncTerminalReport: screen(ncTerminalReport, (m) => m.NcTerminalReportPage),
  markTypes: screen(settings, (m) => m.MarkTypesPage),
  proportions: screen(settings, (m) => m.ProportionsPage),
  publishMarks: screen(settings, (m) => m.PublishMarksPage),
  alevelScores: screen(settings, (m) => m.ALevelScoresPage),
  remarkTypes: screen(settings, (m) => m.RemarkTypesPage),
  autoSubjectComments: screen(settings, (m) => m.AutoMarkCommentsPage),
  autoReportComments: screen(settings, (m) => m.AutoReportCommentsPage),
  termDates: screen(settings, (m) => m.TermDatesPage),
  gradingRules: screen(reportSettings, (m) => m.GradingRulesPage),
  curricula: screen(settings, (m) => m.CurriculaPage),
  reportLayout: screen(reportSettings, (m) => m.ReportLayoutPage),
  terminalReport: screen(reports, (m) => m.TerminalReportPage),
  subjectTeachers: screen(settings, (m) => m.SubjectTeachersPage),
  classTeachers: screen(settings, (m) => m.ClassTeachersPage),
  deputies: screen(settings, (m) => m.DeputiesPage),
  gradeFooters: screen(settings, (m) => m.GradeFootersPage),
  reportFooters: screen(settings, (m) => m.ReportFootersPage),
  subjectPapers: screen(settings, (m) => m.SubjectPapersPage),
  students: screen(learners, (m) => m.StudentsPage),
  studentDetail: screen(learners, (m) => m.StudentDetailPage),
  grades: screen(grades, (m) => m.GradesPage),
  newGrade: screen(grades, (m) => m.GradeSetPage),
  gradeDetail: screen(grades, (m) => m.GradeSetPage),
  competencies: screen(curriculum, (m) => m.CompetenciesPage),
  newCompetency: screen(curriculum, (m) => m.CompetencyFormPage),
  competencyDetail: screen(curriculum, (m) => m.CompetencyDetailPage),
  projects: screen(curriculum, (m) => m.ProjectsPage),
  newProject: screen(curriculum, (m) => m.ProjectFormPage),
  projectDetail: screen(curriculum, (m) => m.ProjectDetailPage),
  projectScores: screen(projectScores, (m) => m.ProjectScoresPage),
};
