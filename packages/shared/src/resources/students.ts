import { IN_USE_MESSAGES } from '../messages.js';
import { StudentInputSchema, StudentListQuerySchema, StudentSchema } from '../schemas/students.js';
import { defineResource } from './definition.js';

/**
 * Learners as a resource for the web's list screen and form. Their routes are written by hand
 * (multipart with a photo, promotion, uploads): apps/server/src/modules/students.
 */
export const students = defineResource({
  name: 'students',
  path: '/api/school/students',
  listKey: 'students',
  record: StudentSchema,
  input: StudentInputSchema,
  filters: StudentListQuerySchema.pick({ form: true, stream: true, name: true, studentid: true, studentcategory_id: true, status: true }),
  searchFields: [],
  sort: [
    ['form', 'asc'],
    ['stream', 'asc'],
    ['lastname', 'asc'],
  ],
  pageSize: 50,
  subject: 'student',
  inUse: IN_USE_MESSAGES.students,
  exportColumns: [],
});
