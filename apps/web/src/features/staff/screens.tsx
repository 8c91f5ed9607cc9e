import { Text } from '@mantine/core';
import {
  CLASS_TEACHER_CATEGORIES,
  classTeachers,
  deputies,
  gradeFooters,
  REPORT_FOOTER_CATEGORIES,
  reportFooters,
  subjectPapers,
  subjects,
  subjectTeachers,
  type TeacherRef,
} from '@mustard/shared';
import { useTranslation } from 'react-i18next';
import { PAGES } from '../../lib/pages.js';
import { defineScreen, type FieldSpec } from '../../resources/screen.js';

/*
 * Staff assignments (spec §2 "Staff assignment and settings lists"): six lists on the one
 * mechanism, each with its search form, sorted ascending, 100 a page, and an Add/Edit side panel.
 */

const classField: FieldSpec<'form'> = { name: 'form', kind: 'select', choices: 'classes' };
const streamField: FieldSpec<'stream'> = { name: 'stream', kind: 'text' };
const termField: FieldSpec<'term'> = { name: 'term', kind: 'select', choices: 'terms' };
const yearField: FieldSpec<'year'> = { name: 'year', kind: 'year' };
const subjectField: FieldSpec<'subject_id'> = { name: 'subject_id', kind: 'select', choices: { resource: subjects, label: 'name' } };
const teacherField: FieldSpec<'user_id'> = { name: 'user_id', label: 'fields.teacher', kind: 'select', choices: 'teachers' };

/** A teacher's name; someone no longer a member is greyed and says so (their past assignments stay). */
function Teacher({ teacher }: { teacher: TeacherRef }) {
  const { t } = useTranslation();
  if (!teacher) return null;
  if (teacher.member) return <>{teacher.name}</>;
  return (
    <Text span c="dimmed" size="sm" title={t('staff.formerMember')} data-former-member="yes">
      {teacher.name} ({t('staff.formerMember')})
    </Text>
  );
}

const teacherColumn = {
  field: 'teacher.name',
  label: 'fields.teacher',
  render: (row: { teacher: TeacherRef }) => <Teacher teacher={row.teacher} />,
} as const;
const staff = { panel: 'drawer', addLabel: 'staff.addTeachers' } as const;

export const subjectTeachersScreen = defineScreen({
  ...staff,
  resource: subjectTeachers,
  page: PAGES.subjectTeachers,
  loadingText: 'staff.loadingTeachers',
  columns: [
    teacherColumn,
    { field: 'subject.name', label: 'fields.subject' },
    { field: 'form' },
    { field: 'stream' },
    { field: 'term' },
    { field: 'year', plain: true },
  ],
  fields: [teacherField, subjectField, classField, streamField, termField, yearField],
  filters: [classField, streamField, yearField, termField, subjectField],
  search: false,
});

export const classTeachersScreen = defineScreen({
  ...staff,
  resource: classTeachers,
  page: PAGES.classTeachers,
  loadingText: 'staff.loadingTeachers',
  columns: [
    teacherColumn,
    { field: 'form' },
    { field: 'stream' },
    { field: 'term' },
    { field: 'year', plain: true },
    { field: 'category', translate: true },
  ],
  fields: [
    teacherField,
    classField,
    streamField,
    termField,
    yearField,
    { name: 'category', kind: 'select', choices: { values: CLASS_TEACHER_CATEGORIES } },
  ],
  filters: [classField, streamField],
  defaults: { category: 'primary' },
  search: false,
});

export const deputiesScreen = defineScreen({
  ...staff,
  resource: deputies,
  page: PAGES.deputies,
  loadingText: 'staff.loadingDeputies',
  addLabel: 'staff.newDeputy',
  addTitle: 'staff.addDeputyTitle',
  columns: [{ field: 'form' }, { field: 'stream' }, teacherColumn],
  fields: [classField, streamField, teacherField],
  filters: [classField, streamField, teacherField],
  search: false,
});

export const gradeFootersScreen = defineScreen({
  ...staff,
  resource: gradeFooters,
  page: PAGES.gradeFooters,
  addLabel: 'staff.newGradeFooter',
  columns: [{ field: 'form' }, { field: 'stream' }, { field: 'details' }],
  fields: [classField, streamField, { name: 'details', kind: 'textarea' }],
  filters: [classField, streamField],
});

export const reportFootersScreen = defineScreen({
  ...staff,
  resource: reportFooters,
  page: PAGES.reportFooters,
  addLabel: 'staff.newRecord',
  columns: [
    { field: 'title' },
    { field: 'form' },
    { field: 'term' },
    { field: 'year', plain: true },
    { field: 'remarks' },
    { field: 'category', translate: true },
    { field: 'position' },
  ],
  fields: [
    { name: 'title', kind: 'text' },
    classField,
    termField,
    yearField,
    { name: 'category', kind: 'select', choices: { values: REPORT_FOOTER_CATEGORIES } },
    { name: 'position', kind: 'number' },
    { name: 'remarks', kind: 'textarea' },
  ],
  filters: [classField, termField, yearField],
});

export const subjectPapersScreen = defineScreen({
  ...staff,
  resource: subjectPapers,
  page: PAGES.subjectPapers,
  addLabel: 'staff.newSubjectPaper',
  columns: [
    { field: 'form' },
    { field: 'term' },
    { field: 'year', plain: true },
    { field: 'subject.name', label: 'fields.subject' },
    { field: 'papers' },
  ],
  fields: [classField, termField, yearField, subjectField, { name: 'papers', kind: 'number' }],
  filters: [classField, termField, yearField, subjectField],
  search: false,
});
