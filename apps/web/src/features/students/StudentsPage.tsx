import { Anchor } from '@mantine/core';
import { STUDENT_STATUSES, studentCategories, students } from '@mustard/shared';
import { Link } from 'react-router';
import { PAGES, pathTo } from '../../lib/pages.js';
import { ResourceListPage } from '../../resources/ResourceListPage.js';
import { defineScreen, type FieldSpec } from '../../resources/screen.js';
import { PromoteDialog, UploadJournalDialog, UploadStudentsDialog } from './dialogs.js';

const categoryField: FieldSpec<'studentcategory_id'> = {
  name: 'studentcategory_id',
  kind: 'select',
  choices: { resource: studentCategories, label: 'name' },
};

/** The class list (spec §2 "Students"): 1,000 asked at once, 50 a page, the menus for those who manage learners. */
export const studentsScreen = defineScreen({
  resource: students,
  page: PAGES.students,
  columns: [
    {
      field: 'studentid',
      render: (row) => (
        <Anchor component={Link} to={pathTo(PAGES.studentDetail, { id: row.id })}>
          {row.studentid}
        </Anchor>
      ),
    },
    { field: 'fullname' },
    { field: 'form', render: (row) => [row.form, row.stream].filter(Boolean).join(' ') },
    { field: 'gender' },
    { field: 'phone' },
    { field: 'email' },
    { field: 'studentcategory.name', label: 'fields.studentcategory_id' },
    { field: 'code', label: 'fields.passcode' },
    { field: 'house' },
    { field: 'lin' },
    // Where the report cards are e-mailed: a blank here is a learner whose card cannot be sent.
    { field: 'guardian_email', label: 'students.guardianEmail' },
  ],
  filters: [
    { name: 'form', kind: 'select', choices: 'classes' },
    { name: 'stream', kind: 'text' },
    // A person's name ("Имя"), not a thing's ("Название", which fields.name is for subjects and schools).
    { name: 'name', kind: 'text', label: 'fields.personName' },
    { name: 'studentid', kind: 'text' },
    categoryField,
    // Leavers and inactive learners stay reachable (their history and balances) by status.
    { name: 'status', kind: 'select', choices: { values: STUDENT_STATUSES } },
  ],
  initialFilters: () => ({ status: 'active' }),
  search: false,
  // A phone shows a card per learner: id (the link to their page), name, class and stream.
  cardColumns: ['studentid', 'fullname', 'form'],
  excelCheckbox: true,
  fetchAll: 1000,
  menusForWritersOnly: true,
  addLabel: 'students.add',
  // Only a learner with no marks and no fee lines; the server answers why for the others.
  deletable: true,
  deleteText: 'students.deleteText',
  fields: [
    { name: 'firstname', kind: 'text' },
    { name: 'lastname', kind: 'text' },
    { name: 'othername', kind: 'text' },
    { name: 'studentid', kind: 'text' },
    { name: 'form', kind: 'select', choices: 'classes' },
    { name: 'stream', kind: 'text' },
    { name: 'gender', kind: 'select', choices: { values: ['F', 'M'] } },
    { name: 'dob', kind: 'date' },
    categoryField,
    { name: 'status', kind: 'select', choices: { values: STUDENT_STATUSES } },
    { name: 'paymentcode', kind: 'text' },
    { name: 'phone', kind: 'text' },
    { name: 'email', kind: 'text' },
    { name: 'address', kind: 'text' },
    { name: 'house', kind: 'text' },
    { name: 'lin', kind: 'text' },
    { name: 'code', kind: 'text', label: 'fields.passcode' },
    { name: 'guardian_email', kind: 'text', label: 'students.guardianEmail' },
    { name: 'photo', kind: 'photo' },
  ],
  defaults: { status: 'active' },
  rowActions: () => [{ label: 'students.details', to: (row) => pathTo(PAGES.studentDetail, { id: row.id }) }],
  headerActions: [
    { label: 'students.upload', render: (close) => <UploadStudentsDialog onDone={close} />, offerWhenEmpty: true },
    { label: 'students.uploadFinancial', render: (close) => <UploadJournalDialog onDone={close} /> },
    { label: 'students.promote', render: (close) => <PromoteDialog onDone={close} /> },
  ],
});

export function StudentsPage() {
  return <ResourceListPage screen={studentsScreen} />;
}
