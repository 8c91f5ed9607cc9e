import { z } from 'zod';
import { MarksListQuerySchema, MarksListSchema, MarkTargetsListQuerySchema, MarkTargetsListSchema } from '../resources/marks.js';
import {
  AttendanceRequestSchema,
  AttendanceRowsSchema,
  LearnerValuesSavedSchema,
  MarkHistoryQuerySchema,
  MarkHistorySchema,
  MarksDeletedSchema,
  MarksDeleteSchema,
  MarksGridQuerySchema,
  MarksGridSchema,
  MarksSavedSchema,
  MarksSaveSchema,
  MarksUploadResultSchema,
  MarkTargetRequestSchema,
  MarkTargetRowsSchema,
  StudentResultsSchema,
} from '../schemas/marks.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/** A learner's academic records: per class, term and year, each exam's subjects with mark and grade. */
export const studentResultsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/students/:id/results',
  access: 'member',
  params: IdParamsSchema,
  response: StudentResultsSchema,
});

const enterMarks = { action: 'create', subject: 'mark' } as const;

/**
 * The grid of a class's learners by mark type (multipart or JSON): with `excel=1` the grid as a
 * spreadsheet to fill offline; with a `file`, such a sheet read back and saved, all or nothing.
 */
export const marksGridEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/marks/grid',
  access: enterMarks,
  body: MarksGridQuerySchema,
  file: { field: 'file', required: false },
  response: z.union([MarksGridSchema, MarksUploadResultSchema]),
  spreadsheet: true,
});

/** Saves a grid: marks by mark type and learner, the versions it was loaded with, and its save_id. */
export const saveMarksEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/marks',
  access: enterMarks,
  body: MarksSaveSchema,
  response: MarksSavedSchema,
});

/** A school's marks, narrowed by class, stream, term, year, subject, paper and mark type; `excel=1` for a spreadsheet. */
export const marksEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/marks',
  access: 'member',
  query: MarksListQuerySchema,
  response: MarksListSchema,
  spreadsheet: true,
});

/** Deletes the marks the filter names, in one transaction; answers how many. */
export const deleteMarksEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/marks/bulkdelete',
  access: { action: 'manage', subject: 'mark' },
  body: MarksDeleteSchema,
  response: MarksDeletedSchema,
});

/** Every change of one learner's mark, newest first (opened from the grid's cell). */
export const markHistoryEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/marks/history',
  access: 'member',
  query: MarkHistoryQuerySchema,
  response: MarkHistorySchema,
});

/**
 * A class's attendance for a term (`/attendance/create`, manage on remark): without
 * `daysattended` the learners with their days (`excel=1`: as a sheet to fill; a `file`: such a
 * sheet read back and saved, all or nothing); with `daysattended` and `totaldays`, saved.
 */
export const attendanceEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/attendances',
  access: { action: 'manage', subject: 'remark' },
  body: AttendanceRequestSchema,
  file: { field: 'file', required: false },
  response: z.union([AttendanceRowsSchema, LearnerValuesSavedSchema]),
  spreadsheet: true,
});

/** Setting targets is managing marks (spec §7). */
const manageMarks = { action: 'manage', subject: 'mark' } as const;

/** A school's mark targets, narrowed by class, stream, term, year and subject; `excel=1` for a spreadsheet. */
export const markTargetsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/marktargets',
  access: manageMarks,
  query: MarkTargetsListQuerySchema,
  response: MarkTargetsListSchema,
  spreadsheet: true,
});

/**
 * A class's targets in a subject (`/school/marktargets/create`): without `target` the learners
 * with their targets (`excel=1`: Mark_Targets-<timestamp>.xlsx to fill; a `file`: such a sheet
 * read back and saved, all or nothing, answering a message); with `target`, saved.
 */
export const markTargetGridEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/marktargets',
  access: manageMarks,
  body: MarkTargetRequestSchema,
  file: { field: 'file', required: false },
  response: z.union([MarkTargetRowsSchema, LearnerValuesSavedSchema]),
  spreadsheet: true,
});
