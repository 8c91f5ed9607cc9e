import { z } from 'zod';
import { classFilter, formTermYearFilters, optionalId, paperFilter } from '../endpoints/fields.js';
import { IN_USE_MESSAGES } from '../messages.js';
import { MarkRecordSchema, MarkTargetRecordSchema } from '../schemas/marks.js';
import { defineResource, listQuerySchema, listResponseSchema } from './definition.js';

/**
 * The marks list (`/school/marks`, spec §2 "Marks view") on the common list screen: a school's
 * marks narrowed by class, stream, term, year, subject, paper and mark type, 100 a page, with
 * excel=1. Its route is written by hand (marks are entered in the grid, never one by one here).
 */
export const marks = defineResource({
  name: 'marks',
  path: '/api/school/marks',
  listKey: 'marks',
  record: MarkRecordSchema,
  input: z.strictObject({}),
  filters: z.object({
    ...formTermYearFilters.shape,
    stream: classFilter,
    subject_id: optionalId,
    paper: paperFilter,
    marktype_id: optionalId,
    topic_id: optionalId,
  }),
  searchFields: [],
  sort: [
    ['student.fullname', 'asc'],
    ['sub', 'asc'],
    ['paper', 'asc'],
    ['marktype', 'asc'],
  ],
  pageSize: 100,
  subject: 'mark',
  // Never answered: marks are deleted by the delete marks page, which counts them.
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['student.studentid', 'Student ID'],
    ['student.fullname', 'Student'],
    ['form', 'Class'],
    ['stream', 'Stream'],
    ['term', 'Term'],
    ['year', 'Year'],
    ['paper', 'Paper'],
    ['sub', 'Subject'],
    ['user', 'User'],
    ['marktype', 'Mark type'],
    ['mark', 'Mark'],
  ],
});

export const MarksListQuerySchema = listQuerySchema(marks);
export const MarksListSchema = listResponseSchema(marks);

/**
 * The mark targets list (`/school/marktargets`, spec §2 "Mark Targets", manage on mark): a
 * class's targets narrowed by stream, term, year and subject, 100 a page, with excel=1. Targets
 * are set on the create page, a class at a time, so this list only reads (its route by hand).
 */
export const markTargets = defineResource({
  name: 'marktargets',
  path: '/api/school/marktargets',
  listKey: 'marktargets',
  record: MarkTargetRecordSchema,
  input: z.strictObject({}),
  filters: z.object({
    ...formTermYearFilters.shape,
    stream: classFilter,
    subject_id: optionalId,
  }),
  searchFields: [],
  sort: [
    ['student.fullname', 'asc'],
    ['subject', 'asc'],
  ],
  pageSize: 100,
  subject: 'mark',
  // Never answered: targets are cleared on the create page.
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['student.studentid', 'Student ID'],
    ['student.fullname', 'Student'],
    ['form', 'Class'],
    ['stream', 'Stream'],
    ['term', 'Term'],
    ['year', 'Year'],
    ['subject', 'Subject'],
    ['target', 'Target'],
  ],
});

export const MarkTargetsListQuerySchema = listQuerySchema(markTargets);
export const MarkTargetsListSchema = listResponseSchema(markTargets);
