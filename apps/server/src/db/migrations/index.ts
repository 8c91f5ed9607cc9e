import type { Migration } from 'kysely/migration';
import * as foundation from './2026_11_21_0001_foundation.js';
import * as schoolSettings from './2026_11_21_0002_school_settings.js';
import * as students from './2026_11_21_0003_students.js';
import * as invitations from './2026_11_22_0004_invitations.js';
import * as autoCommentGrades from './2026_11_23_0005_auto_comment_grades.js';
import * as termDates from './2026_11_23_0006_term_dates.js';
import * as launchNotifications from './2026_11_23_0007_launch_notifications.js';
import * as accessNotices from './2026_11_23_0008_access_notices.js';
import * as signInState from './2026_11_23_0009_sign_in_state.js';
import * as staffAssignments from './2026_11_23_0010_staff_assignments.js';
import * as marksEntry from './2026_11_23_0011_marks_entry.js';
import * as reportSettings from './2026_11_23_0012_report_settings.js';
import * as comments from './2026_11_23_0013_comments.js';
import * as marksClassIndex from './2026_11_23_0014_marks_class_index.js';
import * as teacherRoleRemarks from './2026_11_25_0015_teacher_role_remarks.js';
import * as uploadMappings from './2026_11_25_0016_upload_mappings.js';
import * as documentProgress from './2026_11_25_0017_document_progress.js';
import * as projects from './2026_11_26_0018_projects.js';
import * as projectScores from './2026_11_26_0019_project_scores.js';
import * as classCurricula from './2026_11_26_0020_class_curricula.js';
import * as mailOutbox from './2026_11_26_0021_mail_outbox.js';
import * as registrations from './2026_11_26_0022_registrations.js';
import * as guardianEmail from './2026_11_26_0024_guardian_email.js';
import * as externalSignin from './2026_11_26_0025_external_signin.js';
import * as registrationLogo from './2026_11_26_0026_registration_logo.js';
import * as business from './2026_11_26_0027_business.js';
import * as sales from './2026_11_27_0028_sales.js';
import * as efris from './2026_11_27_0029_efris.js';

/**
 * Every migration in order. Listed by hand (not read from the folder) so the set is fixed at
 * build time and a bundler or a missing file cannot change it silently.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_0002_school_settings': schoolSettings,
  '2026_11_21_0003_students': students,
  '2026_11_22_0004_invitations': invitations,
  '2026_11_23_0005_auto_comment_grades': autoCommentGrades,
  '2026_11_23_0006_term_dates': termDates,
  '2026_11_23_0007_launch_notifications': launchNotifications,
  '2026_11_23_0008_access_notices': accessNotices,
  '2026_11_23_0009_sign_in_state': signInState,
  '2026_11_23_0010_staff_assignments': staffAssignments,
  '2026_11_23_0011_marks_entry': marksEntry,
  '2026_11_23_0012_report_settings': reportSettings,
  '2026_11_23_0013_comments': comments,
  '2026_11_23_0014_marks_class_index': marksClassIndex,
  '2026_11_25_0015_teacher_role_remarks': teacherRoleRemarks,
  '2026_11_25_0016_upload_mappings': uploadMappings,
  '2026_11_25_0017_document_progress': documentProgress,
  '2026_11_26_0018_projects': projects,
  '2026_11_26_0019_project_scores': projectScores,
  '2026_11_26_0020_class_curricula': classCurricula,
  '2026_11_26_0021_mail_outbox': mailOutbox,
  '2026_11_26_0022_registrations': registrations,
  '2026_11_26_0024_guardian_email': guardianEmail,
  '2026_11_26_0025_external_signin': externalSignin,
  '2026_11_26_0026_registration_logo': registrationLogo,
  '2026_11_26_0027_business': business,
  '2026_11_27_0028_sales': sales,
  '2026_11_27_0029_efris': efris,
};
