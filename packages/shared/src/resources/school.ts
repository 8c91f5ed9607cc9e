import { z } from 'zod';
import {
  AUTO_COMMENT_CATEGORIES,
  DISPLAY_TYPES,
  INPUT_TYPES,
  MARK_TYPE_CATEGORIES,
  OLEVEL_CATEGORIES,
  REMARK_TYPE_CATEGORIES,
  STATUSES,
  SUBJECT_CATEGORIES,
  TENANT_NAME_MAX,
  TENANT_NAME_MIN,
  TERMS,
} from '../constants.js';
import { classFilter, optionalId } from '../endpoints/fields.js';
import { gradeSetProblems } from '../grading/index.js';
import { GRADE_SET_MESSAGES, IN_USE_MESSAGES, SETTINGS_MESSAGES as M } from '../messages.js';
import { optionalText, requiredText, text, typedNumber } from '../schemas/common.js';
import { defineResource } from './definition.js';
import { form, formTermYearFilters, id, labelled, named, none, optionalInt, requiredUuid, term, year } from './fields.js';

/*
 * The school settings of spec §2 "School list screens" and §3, each one resource.
 */

export const studentCategories = defineResource({
  name: 'studentcategories',
  path: '/api/school/studentcategories',
  listKey: 'studentcategories',
  record: z.object({ id, name: z.string(), remarks: z.string().nullable() }),
  input: z.strictObject({
    // Spec §5: the student category name rule, with its messages.
    name: requiredText(M.categoryNameRequired).min(TENANT_NAME_MIN, M.nameTooShort).max(TENANT_NAME_MAX, M.nameTooLong),
    remarks: optionalText,
  }),
  filters: none,
  searchFields: ['name', 'remarks'],
  sort: [['name', 'asc']],
  pageSize: 10,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.studentcategories,
  exportColumns: [
    ['name', 'Name'],
    ['remarks', 'Remarks'],
  ],
});

export const subjects = defineResource({
  name: 'subjects',
  path: '/api/school/subjects',
  listKey: 'subjects',
  record: z.object({
    id,
    name: z.string(),
    category: z.enum(SUBJECT_CATEGORIES),
    abbreviation: z.string().nullable(),
    olevelcategory: z.enum(OLEVEL_CATEGORIES).nullable(),
    position: z.number().nullable(),
    weeklylabel: z.string().nullable(),
    multiple_paper_forms: z.string().nullable(),
    multiple_papers: z.boolean(),
    active: z.boolean(),
  }),
  input: z.strictObject({
    name: requiredText(M.nameRequired).max(80),
    category: z.enum(SUBJECT_CATEGORIES, { error: M.categoryRequired }),
    abbreviation: optionalText,
    olevelcategory: z.preprocess((value) => (value === '' ? null : value), z.enum(OLEVEL_CATEGORIES).nullish()).transform((v) => v ?? null),
    position: optionalInt,
    weeklylabel: optionalText,
    multiple_paper_forms: optionalText,
    multiple_papers: z.boolean().default(false),
    active: z.boolean().default(true),
  }),
  filters: z.object({ active: z.enum(['true', 'false']).optional() }),
  searchFields: ['name', 'abbreviation', 'category'],
  sort: [['name', 'asc']],
  pageSize: 25,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.subjects,
  exportColumns: [
    ['name', 'Name'],
    ['category', 'Category'],
    ['position', 'Position'],
    ['abbreviation', 'Abbreviation'],
    ['active', 'Active'],
    ['weeklylabel', 'Weekly label'],
    ['olevelcategory', 'Stats category'],
    ['multiple_papers', 'Multiple papers'],
    ['multiple_paper_forms', 'Paper classes'],
  ],
  classFields: [{ field: 'multiple_paper_forms', list: true }],
});

export const locations = defineResource({
  name: 'locations',
  path: '/api/locations',
  listKey: 'locations',
  record: z.object({ id, name: z.string(), code: z.string().nullable() }),
  input: z.strictObject({ name: requiredText(M.nameRequired).max(80), code: optionalText }),
  filters: none,
  searchFields: ['name', 'code'],
  sort: [['name', 'asc']],
  pageSize: 25,
  subject: 'location',
  inUse: IN_USE_MESSAGES.locations,
  exportColumns: [
    ['name', 'Name'],
    ['code', 'Code'],
  ],
});

export const markTypes = defineResource({
  name: 'marktypes',
  path: '/api/school/marktypes',
  listKey: 'marktypes',
  record: z.object({
    id,
    label: z.string(),
    category: z.enum(MARK_TYPE_CATEGORIES),
    position: z.number().nullable(),
    status: z.enum(STATUSES),
    outof: z.number(),
  }),
  input: z.strictObject({
    label: requiredText(M.labelRequired).max(40),
    category: z.enum(MARK_TYPE_CATEGORIES, { error: M.categoryRequired }),
    position: optionalInt,
    status: z.enum(STATUSES).default('active'),
    /** The mark a learner can reach in this assessment (guide grading.md: default 100). */
    outof: typedNumber(
      z.number({ error: M.numberRequired }).int(M.numberInvalid).min(1, M.numberInvalid).max(1000, M.numberInvalid).default(100),
    ),
  }),
  filters: z.object({ status: z.enum(STATUSES).optional() }),
  searchFields: ['label', 'category'],
  sort: [
    ['position', 'asc'],
    ['label', 'asc'],
  ],
  pageSize: 25,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.marktypes,
  exportColumns: [
    ['label', 'Label'],
    ['category', 'Category'],
    ['position', 'Position'],
    ['status', 'Status'],
    ['outof', 'Out of'],
  ],
});

const gradeRecord = z.object({
  id,
  subject_id: id,
  subject: named,
  form: z.string(),
  term: z.enum(TERMS),
  year: z.number(),
  grade: z.string(),
  lower: z.number(),
  upper: z.number(),
});

/** One grade of a set; sets are written whole (see GradeSetSchema). */
export const grades = defineResource({
  name: 'grades',
  path: '/api/school/grades',
  listKey: 'grades',
  record: gradeRecord,
  input: z
    .strictObject({
      form,
      term,
      year,
      subject_id: requiredUuid(M.subjectRequired),
      grade: requiredText(M.labelRequired).max(10),
      lower: typedNumber(z.number({ error: M.numberRequired }).min(0, M.percentageInvalid).max(100, M.percentageInvalid)),
      upper: typedNumber(z.number({ error: M.numberRequired }).min(0, M.percentageInvalid).max(100, M.percentageInvalid)),
    })
    .refine((grade) => grade.lower <= grade.upper, { error: M.rangeReversed, path: ['lower'] }),
  filters: formTermYearFilters.extend({ subject_id: optionalId }),
  searchFields: ['grade', 'form'],
  sort: [
    ['year', 'desc'],
    ['form', 'asc'],
    ['term', 'asc'],
    ['subject_id', 'asc'],
    ['upper', 'desc'],
  ],
  pageSize: 100,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.grades,
  exportColumns: [
    ['subject.name', 'Subject'],
    ['form', 'Class'],
    ['term', 'Term'],
    ['year', 'Year'],
    ['grade', 'Grade'],
    ['lower', 'Lower'],
    ['upper', 'Upper'],
  ],
  classFields: [{ field: 'form' }],
});

export const proportions = defineResource({
  name: 'proportions',
  path: '/api/school/proportions',
  listKey: 'proportions',
  record: z.object({
    id,
    form: z.string(),
    term: z.enum(TERMS),
    year: z.number(),
    subject_id: id,
    subject: named,
    marktype_id: id,
    marktype: labelled,
    percentage: z.number(),
  }),
  input: z.strictObject({
    form,
    term,
    year,
    subject_id: requiredUuid(M.subjectRequired),
    marktype_id: requiredUuid(M.markTypeRequired),
    percentage: typedNumber(z.number({ error: M.percentageInvalid }).min(0, M.percentageInvalid).max(100, M.percentageInvalid)),
  }),
  filters: formTermYearFilters.extend({ subject_id: optionalId }),
  searchFields: ['form'],
  sort: [
    ['year', 'desc'],
    ['form', 'asc'],
    ['term', 'asc'],
  ],
  pageSize: 25,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.proportions,
  exportColumns: [
    ['form', 'Class'],
    ['term', 'Term'],
    ['year', 'Year'],
    ['subject.name', 'Subject'],
    ['marktype.label', 'Type'],
    ['percentage', 'Percentage'],
  ],
  classFields: [{ field: 'form' }],
});

export const publishMarks = defineResource({
  name: 'publishmarks',
  path: '/api/school/publishmarks',
  listKey: 'school_publishmarks',
  record: z.object({ id, term: z.enum(TERMS), year: z.number(), marktype_id: id, marktype: labelled }),
  input: z.strictObject({ term, year, marktype_id: requiredUuid(M.markTypeRequired) }),
  filters: formTermYearFilters.omit({ form: true }),
  searchFields: ['term'],
  sort: [
    ['year', 'desc'],
    ['term', 'desc'],
  ],
  pageSize: 25,
  subject: 'publish-mark',
  inUse: IN_USE_MESSAGES.publishmarks,
  exportColumns: [
    ['term', 'Term'],
    ['year', 'Year'],
    ['marktype.label', 'Type'],
  ],
});

export const aLevelScores = defineResource({
  name: 'alevelscores',
  path: '/api/school/alevelscores',
  listKey: 'alevelscores',
  record: z.object({ id, total: z.number(), score: z.number(), papercount: z.number() }),
  input: z.strictObject({
    total: typedNumber(z.number({ error: M.numberRequired }).int(M.numberInvalid).min(0, M.numberInvalid).max(60, M.numberInvalid)),
    score: typedNumber(z.number({ error: M.numberRequired }).int(M.numberInvalid).min(0, M.numberInvalid).max(6, M.numberInvalid)),
    papercount: typedNumber(z.number({ error: M.numberRequired }).int(M.numberInvalid).min(1, M.numberInvalid).max(6, M.numberInvalid)),
  }),
  filters: z.object({ papercount: z.coerce.number().int().min(1).max(6).optional() }),
  searchFields: [],
  sort: [
    ['papercount', 'asc'],
    ['total', 'asc'],
  ],
  pageSize: 25,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.alevelscores,
  exportColumns: [
    ['total', 'Total'],
    ['score', 'Score'],
    ['papercount', 'Papers'],
  ],
});

const remarkTypeFields = {
  id,
  label: z.string(),
  category: z.enum(REMARK_TYPE_CATEGORIES),
  parent_id: id.nullable(),
  displaytype: z.enum(DISPLAY_TYPES),
  inputtype: z.enum(INPUT_TYPES),
  position: z.number().nullable(),
  forms: z.string().nullable(),
  active: z.boolean(),
};

/** Remark types form a tree (spec §3): the list answers parents with their `children`. */
export const remarkTypes = defineResource({
  name: 'remarktypes',
  path: '/api/school/remarktypes',
  listKey: 'remarktypes',
  record: z.object({ ...remarkTypeFields, children: z.array(z.object(remarkTypeFields)).optional() }),
  input: z.strictObject({
    label: requiredText(M.labelRequired).max(80),
    category: z.enum(REMARK_TYPE_CATEGORIES, { error: M.categoryRequired }),
    parent_id: z.preprocess((value) => (value === '' ? null : value), id.nullish()).transform((v) => v ?? null),
    displaytype: z.enum(DISPLAY_TYPES).default('list'),
    inputtype: z.enum(INPUT_TYPES).default('text'),
    position: optionalInt,
    forms: optionalText,
    active: z.boolean().default(true),
  }),
  filters: z.object({ category: z.enum(REMARK_TYPE_CATEGORIES).optional() }),
  searchFields: ['label'],
  sort: [
    ['position', 'asc'],
    ['label', 'asc'],
  ],
  pageSize: 100,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.remarktypes,
  exportColumns: [
    ['label', 'Name'],
    ['category', 'Category'],
    ['position', 'Position'],
    ['forms', 'Classes'],
    ['displaytype', 'Display type'],
    ['inputtype', 'Input type'],
    ['active', 'Active'],
  ],
  classFields: [{ field: 'forms', list: true }],
});

export const autoMarkComments = defineResource({
  name: 'automarkcomments',
  path: '/api/school/automarkcomments',
  listKey: 'automarkcomments',
  record: z.object({ id, score: z.string(), comment: z.string(), category: z.enum(AUTO_COMMENT_CATEGORIES) }),
  input: z.strictObject({
    score: requiredText(M.scoreRequired).max(20),
    comment: requiredText(M.commentRequired).max(500),
    category: z.enum(AUTO_COMMENT_CATEGORIES).default('general'),
  }),
  filters: z.object({ category: z.enum(AUTO_COMMENT_CATEGORIES).optional() }),
  searchFields: ['score', 'comment'],
  sort: [
    ['category', 'asc'],
    ['score', 'asc'],
  ],
  pageSize: 25,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.automarkcomments,
  exportColumns: [
    ['score', 'Score'],
    ['comment', 'Comment'],
    ['category', 'Category'],
  ],
});

export const autoReportComments = defineResource({
  name: 'autoreportcomments',
  path: '/api/school/autoreportcomments',
  listKey: 'autoreportcomments',
  record: z.object({
    id,
    form: z.string(),
    remarktype_id: id,
    remarktype: labelled,
    /** From (spec §3: the score the band starts at). */
    score: z.number(),
    /** To. */
    upper: z.number(),
    comment: z.string(),
  }),
  input: z
    .strictObject({
      form,
      remarktype_id: requiredUuid(M.remarkTypeRequired),
      score: typedNumber(z.number({ error: M.numberRequired }).min(0, M.numberInvalid).max(1000, M.numberInvalid)),
      upper: typedNumber(z.number({ error: M.numberRequired }).min(0, M.numberInvalid).max(1000, M.numberInvalid)),
      comment: requiredText(M.commentRequired).max(500),
    })
    .refine((row) => row.score <= row.upper, { error: M.rangeReversed, path: ['score'] }),
  filters: z.object({ form: classFilter, remarktype_id: optionalId }),
  searchFields: ['comment'],
  sort: [
    ['form', 'asc'],
    ['score', 'asc'],
  ],
  pageSize: 50,
  subject: 'setting',
  inUse: IN_USE_MESSAGES.autoreportcomments,
  exportColumns: [
    ['form', 'Class'],
    ['remarktype.label', 'Remark type'],
    ['score', 'From'],
    ['upper', 'To'],
    ['comment', 'Comment'],
  ],
  classFields: [{ field: 'form' }],
});

export const SCHOOL_RESOURCES = [
  studentCategories,
  subjects,
  locations,
  markTypes,
  grades,
  proportions,
  publishMarks,
  aLevelScores,
  remarkTypes,
  autoMarkComments,
  autoReportComments,
] as const;

/** A new or replaced grade set (spec §3 "Grade set"): bounds sent as maps keyed by grade. */
export const GradeSetSchema = z
  .strictObject({
    form,
    term,
    year,
    subject_id: requiredUuid(M.subjectRequired),
    lower: z.record(text().trim().min(1).max(10), typedNumber(z.number({ error: M.numberRequired }).min(0).max(100))),
    upper: z.record(text().trim().min(1).max(10), typedNumber(z.number({ error: M.numberRequired }).min(0).max(100))),
    /**
     * Replace the set of this class, subject, term and year if there is one. Without it, saving
     * where a set exists is refused (409), so a new set never silently replaces a school's own.
     */
    replace: z.boolean().optional(),
  })
  .superRefine((set, context) => {
    for (const problem of gradeSetProblems(
      Object.keys(set.lower).map((grade) => ({ grade, lower: set.lower[grade] ?? 0, upper: set.upper[grade] ?? -1 })),
    )) {
      context.addIssue({ code: 'custom', message: GRADE_SET_MESSAGES[problem.kind], path: ['lower', problem.grade] });
    }
  });
export type GradeSet = z.infer<typeof GradeSetSchema>;

/** The grade-set check lives in the grading engine; re-exported for old importers. */
export { type GradeBand, type GradeSetProblem, type GradeSetProblemKind, gradeSetProblems } from '../grading/index.js';
