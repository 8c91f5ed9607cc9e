import { z } from 'zod';
import { CLASS_TEACHER_CATEGORIES, MAX_SUBJECT_PAPERS, REPORT_FOOTER_CATEGORIES, TERMS } from '../constants.js';
import { classFilter, optionalId, streamField, termQuery, yearQuery } from '../endpoints/fields.js';
import { IN_USE_MESSAGES, SETTINGS_MESSAGES as M } from '../messages.js';
import { optionalText, requiredText, typedNumber } from '../schemas/common.js';
import { defineResource } from './definition.js';
import { form, id, named, optionalInt, requiredUuid, term, year } from './fields.js';

/*
 * Staff assignments (spec §2 "Staff assignment and settings lists", §3): who teaches what, who
 * is class teacher and deputy, and what a class's report card carries at its foot. Each is one
 * resource on the list mechanism: sorted ascending, 100 a page (spec §9), `excel=1` downloads,
 * written by those with `manage` on its subject class.
 */

/**
 * The member an assignment names, as the lists show it: a person removed from the school keeps
 * their past assignments, named and marked as no longer a member (issue 13 point 3).
 */
export const teacherRef = z.object({ name: z.string(), member: z.boolean() }).nullable();
export type TeacherRef = z.infer<typeof teacherRef>;

/** A stream, or none for the whole class (every stream). */
const stream = streamField;
const teacher = requiredUuid(M.teacherRequired);
const filterText = classFilter;
const filterYear = yearQuery.optional();
const STAFF_PAGE_SIZE = 100;
const byClass = [
  ['form', 'asc'],
  ['stream', 'asc'],
] as const;

export const subjectTeachers = defineResource({
  name: 'subjectteachers',
  path: '/api/school/subjectteachers',
  listKey: 'subjectteachers',
  record: z.object({
    id,
    user_id: id,
    teacher: teacherRef,
    subject_id: id,
    subject: named,
    form: z.string(),
    stream: z.string().nullable(),
    term: z.enum(TERMS),
    year: z.number(),
  }),
  input: z.strictObject({ user_id: teacher, subject_id: requiredUuid(M.subjectRequired), form, stream, term, year }),
  filters: z.object({
    form: filterText,
    stream: filterText,
    year: filterYear,
    term: termQuery.optional(),
    subject_id: optionalId,
  }),
  searchFields: ['form', 'stream'],
  sort: [...byClass, ['term', 'asc'], ['year', 'asc']],
  pageSize: STAFF_PAGE_SIZE,
  subject: 'subject-teacher',
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['teacher.name', 'Teacher'],
    ['subject.name', 'Subject'],
    ['form', 'Class'],
    ['stream', 'Stream'],
    ['term', 'Term'],
    ['year', 'Year'],
  ],
  classFields: [{ field: 'form' }],
});

export const classTeachers = defineResource({
  name: 'classteachers',
  path: '/api/school/classteachers',
  listKey: 'classteachers',
  record: z.object({
    id,
    user_id: id,
    teacher: teacherRef,
    form: z.string(),
    stream: z.string().nullable(),
    term: z.enum(TERMS),
    year: z.number(),
    category: z.enum(CLASS_TEACHER_CATEGORIES),
  }),
  input: z.strictObject({
    user_id: teacher,
    form,
    stream,
    term,
    year,
    category: z.enum(CLASS_TEACHER_CATEGORIES, { error: M.categoryRequired }).default('primary'),
  }),
  filters: z.object({ form: filterText, stream: filterText, year: filterYear, term: termQuery.optional() }),
  searchFields: ['form', 'stream'],
  sort: [...byClass, ['term', 'asc'], ['year', 'asc']],
  pageSize: STAFF_PAGE_SIZE,
  subject: 'class-teacher',
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['teacher.name', 'Teacher'],
    ['form', 'Class'],
    ['stream', 'Stream'],
    ['term', 'Term'],
    ['year', 'Year'],
    ['category', 'Category'],
  ],
  classFields: [{ field: 'form' }],
});

export const deputies = defineResource({
  name: 'deputies',
  path: '/api/school/deputies',
  listKey: 'deputies',
  record: z.object({ id, form: z.string(), stream: z.string().nullable(), user_id: id, teacher: teacherRef }),
  input: z.strictObject({ user_id: teacher, form, stream }),
  filters: z.object({ form: filterText, stream: filterText, user_id: optionalId }),
  searchFields: ['form', 'stream'],
  sort: byClass,
  pageSize: STAFF_PAGE_SIZE,
  subject: 'deputy',
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['form', 'Class'],
    ['stream', 'Stream'],
    ['teacher.name', 'Teacher'],
  ],
  classFields: [{ field: 'form' }],
});

export const gradeFooters = defineResource({
  name: 'gradefoots',
  path: '/api/school/gradefoots',
  listKey: 'gradefoots',
  record: z.object({ id, form: z.string(), stream: z.string().nullable(), details: z.string() }),
  input: z.strictObject({ form, stream, details: requiredText(M.detailsRequired).max(2000) }),
  filters: z.object({ form: filterText, stream: filterText }),
  searchFields: ['form', 'stream', 'details'],
  sort: byClass,
  pageSize: STAFF_PAGE_SIZE,
  subject: 'grade-footer',
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['form', 'Class'],
    ['stream', 'Stream'],
    ['details', 'Details'],
  ],
  classFields: [{ field: 'form' }],
});

export const reportFooters = defineResource({
  name: 'reportfooters',
  path: '/api/school/reportfooters',
  listKey: 'reportfooters',
  record: z.object({
    id,
    title: z.string(),
    form: z.string(),
    term: z.enum(TERMS),
    year: z.number(),
    category: z.enum(REPORT_FOOTER_CATEGORIES),
    position: z.number().nullable(),
    remarks: z.string().nullable(),
  }),
  input: z.strictObject({
    title: requiredText(M.titleRequired).max(120),
    form,
    term,
    year,
    category: z.enum(REPORT_FOOTER_CATEGORIES, { error: M.categoryRequired }),
    position: optionalInt,
    remarks: optionalText,
  }),
  filters: z.object({
    form: filterText,
    year: filterYear,
    term: termQuery.optional(),
    category: z.enum(REPORT_FOOTER_CATEGORIES).optional(),
  }),
  searchFields: ['title', 'remarks'],
  sort: [
    ['form', 'asc'],
    ['position', 'asc'],
    ['title', 'asc'],
  ],
  pageSize: STAFF_PAGE_SIZE,
  subject: 'report-footer',
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['title', 'Title'],
    ['form', 'Class'],
    ['term', 'Term'],
    ['year', 'Year'],
    ['remarks', 'Remarks'],
    ['category', 'Category'],
    ['position', 'Position'],
  ],
  classFields: [{ field: 'form' }],
});

export const subjectPapers = defineResource({
  name: 'subjectpapers',
  path: '/api/school/subjectpapers',
  listKey: 'subjectpapers',
  record: z.object({ id, form: z.string(), term: z.enum(TERMS), year: z.number(), subject_id: id, subject: named, papers: z.number() }),
  input: z.strictObject({
    form,
    term,
    year,
    subject_id: requiredUuid(M.subjectRequired),
    papers: typedNumber(
      z.number({ error: M.papersInvalid }).int(M.papersInvalid).min(1, M.papersInvalid).max(MAX_SUBJECT_PAPERS, M.papersInvalid),
    ),
  }),
  filters: z.object({ form: filterText, year: filterYear, term: termQuery.optional(), subject_id: optionalId }),
  searchFields: ['form'],
  sort: [
    ['form', 'asc'],
    ['term', 'asc'],
    ['year', 'asc'],
  ],
  pageSize: STAFF_PAGE_SIZE,
  subject: 'subject-paper',
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['form', 'Class'],
    ['term', 'Term'],
    ['year', 'Year'],
    ['subject.name', 'Subject'],
    ['papers', 'Papers'],
  ],
  classFields: [{ field: 'form' }],
});

export const STAFF_RESOURCES = [subjectTeachers, classTeachers, deputies, gradeFooters, reportFooters, subjectPapers] as const;
