import { ResourceListPage } from '../../resources/ResourceListPage.js';
import type { ScreenDefinition } from '../../resources/screen.js';
import * as staff from '../staff/screens.js';
import * as screens from './screens.js';

/** The list screens of school settings, one chunk: a head teacher setting up moves between them. */
function listPage<Row extends { id: string }>(screen: ScreenDefinition<Row>) {
  return function SettingsListPage() {
    return <ResourceListPage screen={screen} />;
  };
}

export { CurriculaPage } from './CurriculaPage.js';
export { TermDatesPage } from './TermDatesPage.js';
export const StudentCategoriesPage = listPage(screens.studentCategoriesScreen);
export const SubjectsPage = listPage(screens.subjectsScreen);
export const LocationsPage = listPage(screens.locationsScreen);
export const TenantsPage = listPage(screens.tenantsScreen);
export const MarkTypesPage = listPage(screens.markTypesScreen);
export const ProportionsPage = listPage(screens.proportionsScreen);
export const PublishMarksPage = listPage(screens.publishMarksScreen);
export const ALevelScoresPage = listPage(screens.aLevelScoresScreen);
export const RemarkTypesPage = listPage(screens.remarkTypesScreen);
export const AutoMarkCommentsPage = listPage(screens.autoMarkCommentsScreen);
export const AutoReportCommentsPage = listPage(screens.autoReportCommentsScreen);

// Staff assignments: set up at the start of a term beside the settings, so in the same chunk.
export const SubjectTeachersPage = listPage(staff.subjectTeachersScreen);
export const ClassTeachersPage = listPage(staff.classTeachersScreen);
export const DeputiesPage = listPage(staff.deputiesScreen);
export const GradeFootersPage = listPage(staff.gradeFootersScreen);
export const ReportFootersPage = listPage(staff.reportFootersScreen);
export const SubjectPapersPage = listPage(staff.subjectPapersScreen);
