import { z } from 'zod';
import { students } from '../resources/students.js';
import { MessageResponseSchema } from '../schemas/common.js';
import {
  PromoteQuerySchema,
  PromoteResponseSchema,
  StudentInputSchema,
  StudentListQuerySchema,
  StudentListResponseSchema,
  StudentSchema,
  StudentUploadFieldsSchema,
  StudentUploadPreviewFieldsSchema,
  StudentUploadPreviewSchema,
  StudentUploadResultSchema,
} from '../schemas/students.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/*
 * Learners (spec §7 "Students"). The list screen and its form are described by the `students`
 * resource (resources/students.ts); these are its routes, written by hand because a learner
 * carries a photo, an id sequence and codes.
 */

/** The `students` resource's path: the list screen and these routes are one collection. */
const STUDENTS_PATH = students.path;
const manageStudents = { action: 'manage', subject: 'student' } as const;
const addStudents = { action: 'create', subject: 'student' } as const;

/** The class list: filters, paging; with `excel=1` the list as a spreadsheet. */
export const listStudentsEndpoint = defineEndpoint({
  method: 'GET',
  path: STUDENTS_PATH,
  access: 'member',
  query: StudentListQuerySchema,
  response: StudentListResponseSchema,
  spreadsheet: true,
});

export const studentEndpoint = defineEndpoint({
  method: 'GET',
  path: `${STUDENTS_PATH}/:id`,
  access: 'member',
  params: IdParamsSchema,
  response: StudentSchema,
});

/** The learner's photo, to members of the learner's own school only. */
export const studentPhotoEndpoint = defineEndpoint({
  method: 'GET',
  path: `${STUDENTS_PATH}/:id/photo`,
  access: 'member',
  params: IdParamsSchema,
  response: 'file',
});

/** Adds a learner: the form's fields and an optional photo, as multipart. */
export const createStudentEndpoint = defineEndpoint({
  method: 'POST',
  path: STUDENTS_PATH,
  access: manageStudents,
  body: StudentInputSchema,
  file: { field: 'photo', required: false },
  response: StudentSchema,
});

/** Edits a learner: the same form; a new photo replaces the old one. */
export const updateStudentEndpoint = defineEndpoint({
  method: 'PUT',
  path: `${STUDENTS_PATH}/:id`,
  access: manageStudents,
  params: IdParamsSchema,
  body: StudentInputSchema,
  file: { field: 'photo', required: false },
  response: StudentSchema,
});

/** Removes a learner entered by mistake (no marks, no fee lines); 409 for anyone else. */
export const deleteStudentEndpoint = defineEndpoint({
  method: 'DELETE',
  path: `${STUDENTS_PATH}/:id`,
  access: { action: 'delete', subject: 'student' },
  params: IdParamsSchema,
  response: MessageResponseSchema,
});

/** The learners workbook to fill in, with an example in the school's own ids and classes. */
export const studentTemplateEndpoint = defineEndpoint({
  method: 'GET',
  path: `${STUDENTS_PATH}/template`,
  access: addStudents,
  response: 'file',
});

/**
 * Bulk upload of learners from .xlsx (a school's own register too): all rows or none. The
 * mapping sent is remembered for the school; columns nobody mapped are left out and named.
 */
export const uploadStudentsEndpoint = defineEndpoint({
  method: 'POST',
  path: `${STUDENTS_PATH}/upload`,
  access: addStudents,
  body: StudentUploadFieldsSchema,
  file: { field: 'file', required: true },
  response: StudentUploadResultSchema,
});

/** What an upload of this file would read: its header row, columns and their fields, first rows. Writes nothing. */
export const previewStudentUploadEndpoint = defineEndpoint({
  method: 'POST',
  path: `${STUDENTS_PATH}/upload/preview`,
  access: addStudents,
  body: StudentUploadPreviewFieldsSchema,
  file: { field: 'file', required: true },
  response: StudentUploadPreviewSchema,
});

/** Every active learner up one class (spec §4); without `promote=1`, what would move. */
export const promoteEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/student/promote',
  access: manageStudents,
  query: PromoteQuerySchema,
  response: PromoteResponseSchema,
});

/** Each class's streams, as its active learners are in them (issue 23 item 18). */
export const ClassStreamsSchema = z.object({ classes: z.array(z.object({ form: z.string(), streams: z.array(z.string()) })) });
export type ClassStreams = z.infer<typeof ClassStreamsSchema>;

/**
 * The streams of each class: what the filters of the class sheets (marks, comments, attendance,
 * targets, reports) offer in their Stream field, so a stream is chosen, not typed.
 */
export const classStreamsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/classstreams',
  access: 'member',
  response: ClassStreamsSchema,
});
