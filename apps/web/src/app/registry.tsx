import { type ComponentType, lazy } from 'react';
import { loadScreenTexts } from '../lib/i18n.js';
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

/** A screen behind the dashboard: its code and its texts (lib/locale-parts.ts) arrive together. */
function screen<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): ComponentType {
  return lazy(async () => {
    const [module] = await Promise.all([load(), loadScreenTexts()]);
    return { default: pick(module) };
  });
}

const auth = () => import('../features/auth/pages.js');
const register = () => import('../features/register/pages.js');
const status = () => import('../features/public/StatusPages.js');
const join = () => import('../features/auth/JoinPage.js');
const passwordReset = () => import('../features/password-reset/PasswordResetPage.js');

/** Public pages of spec §2 (the plain layout). */
export const PUBLIC_PAGES: Record<string, ComponentType> = {
  '/login': page(auth, (m) => m.LoginPage),
  '/logout': page(auth, (m) => m.LogoutPage),
  // Its texts are the screens' part of the locale files: none of them weighs on /login.
  '/auth/password/reset': screen(passwordReset, (m) => m.PasswordResetPage),
  '/join': page(join, (m) => m.JoinPage),
  // The sign-up's texts are the screens' part of the locale files: none of them weighs on /login.
  '/register': screen(register, (m) => m.RegisterPage),
  '/signup': screen(register, (m) => m.SignupPage),
  '/register/business': screen(register, (m) => m.BusinessPage),
  '/register/business/products': screen(register, (m) => m.ProductsPage),
  '/register/check-email': screen(register, (m) => m.CheckEmailPage),
  '/register/verify': screen(register, (m) => m.VerifyPage),
  '/coming-soon': page(status, (m) => m.ComingSoonPage),
  '/maintenance': page(status, (m) => m.MaintenancePage),
};

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
const catalogue = () => import('../features/catalogue/pages.js');
const stock = () => import('../features/stock/pages.js');
const businessUploads = () => import('../features/business-uploads/BusinessUploadsPage.js');
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
  stockOnHand: screen(stock, (m) => m.StockOnHandPage),
  stockReceive: screen(stock, (m) => m.ReceivePage),
  stockAdjust: screen(stock, (m) => m.AdjustPage),
  stockTransfer: screen(stock, (m) => m.TransferPage),
  stockLedger: screen(stock, (m) => m.LedgerPage),
  stockLow: screen(stock, (m) => m.LowStockPage),
  stockValuation: screen(stock, (m) => m.ValuationPage),
  businessUploads: screen(businessUploads, (m) => m.BusinessUploadsPage),
  products: screen(catalogue, (m) => m.ProductsPage),
  productGroups: screen(catalogue, (m) => m.ProductGroupsPage),
  partners: screen(catalogue, (m) => m.PartnersPage),
  currencies: screen(catalogue, (m) => m.CurrenciesPage),
  taxes: screen(catalogue, (m) => m.TaxesPage),
  whduties: screen(catalogue, (m) => m.WhdutiesPage),
  banks: screen(catalogue, (m) => m.BanksPage),
};
