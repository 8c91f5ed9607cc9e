import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ErrorPage } from '../features/errors/ErrorPage.js';
import { RequireSession } from './guards.js';
import { PageErrorBoundary } from './PageErrorBoundary.js';
import { PageLoading } from './PageLoading.js';
import { PlaceholderPage } from './PlaceholderPage.js';
import { PAGES, PROTECTED_ROUTES } from './routes.js';

/*
 * Declarative routes rather than a data router: a cold /login downloads about 17 KB (gzipped)
 * less of react-router, which a teacher's slow connection feels. Each page is its own chunk
 * (React.lazy); the signed-in frame is one more.
 */

/** A page component from a module that exports it by name, loaded when first shown. */
function page<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType): ComponentType {
  return lazy(async () => ({ default: pick(await load()) }));
}

const auth = () => import('../features/auth/pages.js');
const register = () => import('../features/register/pages.js');
const status = () => import('../features/public/StatusPages.js');
const join = () => import('../features/auth/JoinPage.js');

/** Public pages of spec §2 (the plain layout). */
const PUBLIC_PAGES: Record<string, ComponentType> = {
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
const PAGE_COMPONENTS: Record<string, ComponentType> = {
  [PAGES.dashboard.path]: page(home, (m) => m.HomePage),
  [PAGES.subjectComments.path]: page(subjectComments, (m) => m.SubjectCommentsPage),
  [PAGES.genericSkills.path]: page(subjectComments, (m) => m.GenericSkillsPage),
  [PAGES.reportComments.path]: page(reportComments, (m) => m.ReportCommentsPage),
  [PAGES.deleteComments.path]: page(deleteComments, (m) => m.DeleteCommentsPage),
  [PAGES.studentCategories.path]: page(settings, (m) => m.StudentCategoriesPage),
  [PAGES.subjects.path]: page(settings, (m) => m.SubjectsPage),
  [PAGES.stockLocations.path]: page(settings, (m) => m.LocationsPage),
  [PAGES.businesses.path]: page(settings, (m) => m.TenantsPage),
  [PAGES.users.path]: page(people, (m) => m.UsersPage),
  [PAGES.createMarks.path]: page(marks, (m) => m.MarksEntryPage),
  [PAGES.marks.path]: page(marksLists, (m) => m.MarksPage),
  [PAGES.deleteMarks.path]: page(marksLists, (m) => m.DeleteMarksPage),
  [PAGES.markTargets.path]: page(marksLists, (m) => m.MarkTargetsPage),
  [PAGES.createMarkTargets.path]: page(classValues, (m) => m.CreateMarkTargetsPage),
  [PAGES.attendance.path]: page(classValues, (m) => m.AttendancePage),
  [PAGES.marksheet.path]: page(marksheet, (m) => m.MarksheetPage),
  [PAGES.markTypes.path]: page(settings, (m) => m.MarkTypesPage),
  [PAGES.proportions.path]: page(settings, (m) => m.ProportionsPage),
  [PAGES.publishMarks.path]: page(settings, (m) => m.PublishMarksPage),
  [PAGES.alevelScores.path]: page(settings, (m) => m.ALevelScoresPage),
  [PAGES.remarkTypes.path]: page(settings, (m) => m.RemarkTypesPage),
  [PAGES.autoSubjectComments.path]: page(settings, (m) => m.AutoMarkCommentsPage),
  [PAGES.autoReportComments.path]: page(settings, (m) => m.AutoReportCommentsPage),
  [PAGES.termDates.path]: page(settings, (m) => m.TermDatesPage),
  [PAGES.gradingRules.path]: page(reportSettings, (m) => m.GradingRulesPage),
  [PAGES.reportLayout.path]: page(reportSettings, (m) => m.ReportLayoutPage),
  [PAGES.terminalReport.path]: page(reports, (m) => m.TerminalReportPage),
  [PAGES.subjectTeachers.path]: page(settings, (m) => m.SubjectTeachersPage),
  [PAGES.classTeachers.path]: page(settings, (m) => m.ClassTeachersPage),
  [PAGES.deputies.path]: page(settings, (m) => m.DeputiesPage),
  [PAGES.gradeFooters.path]: page(settings, (m) => m.GradeFootersPage),
  [PAGES.reportFooters.path]: page(settings, (m) => m.ReportFootersPage),
  [PAGES.subjectPapers.path]: page(settings, (m) => m.SubjectPapersPage),
  [PAGES.students.path]: page(learners, (m) => m.StudentsPage),
  [PAGES.studentDetail.path]: page(learners, (m) => m.StudentDetailPage),
  [PAGES.grades.path]: page(grades, (m) => m.GradesPage),
  [PAGES.newGrade.path]: page(grades, (m) => m.GradeSetPage),
  [PAGES.gradeDetail.path]: page(grades, (m) => m.GradeSetPage),
};

const SignedInFrame = page(
  () => import('./AppLayout.js'),
  (m) => m.AppLayout,
);

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

export function AppRoutes() {
  return (
    <BrowserRouter>
      <PageErrorBoundary>
        <Loading>
          <Routes>
            <Route path="/" element={<Navigate to="/login" replace />} />
            {Object.entries(PUBLIC_PAGES).map(([path, Page]) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="/error-403-basic" element={<ErrorPage status={403} />} />
            <Route path="/error-404-basic" element={<ErrorPage status={404} />} />
            <Route path="/error-404-cover" element={<ErrorPage status={404} cover />} />
            <Route path="/error-500-basic" element={<ErrorPage status={500} />} />
            <Route path="/error-500-cover" element={<ErrorPage status={500} cover />} />
            <Route
              element={
                <RequireSession>
                  <SignedInFrame />
                </RequireSession>
              }
            >
              {PROTECTED_ROUTES.map((route) => {
                const Page = PAGE_COMPONENTS[route.path];
                return <Route key={route.path} path={route.path} element={Page ? <Page /> : <PlaceholderPage title={route.title} />} />;
              })}
            </Route>
            <Route path="*" element={<ErrorPage status={404} />} />
          </Routes>
        </Loading>
      </PageErrorBoundary>
    </BrowserRouter>
  );
}
