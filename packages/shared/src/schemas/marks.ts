import { z } from 'zod';
import { PAPERS, TERMS } from '../constants.js';
import { ABSENT, MAX_GRID_CELLS } from '../marks/cells.js';
import { MARK_MESSAGES, SETTINGS_MESSAGES } from '../messages.js';
import { form, term, year } from '../resources/fields.js';
import { text } from './common.js';

/* Academic results (spec §3 "Student result record"): what the learner's page shows. */

/** A subject's result in one exam: the mark and the grade it earns ("score"); S5 and S6 per paper. */
export const SubjectResultSchema = z.object({
  subject_id: z.uuid(),
  subject: z.string(),
  category: z.string(),
  mark: z.number().nullable(),
  score: z.string().nullable(),
  /** Absent from the exam (ABS): no mark and no grade, never counted as 0. */
  absent: z.boolean().optional(),
  papers: z
    .array(z.object({ paper: z.string(), mark: z.number().nullable(), score: z.string().nullable(), absent: z.boolean().optional() }))
    .optional(),
  /** The papers' marks added up; an absent paper adds nothing. */
  total: z.number().optional(),
});
export type SubjectResult = z.infer<typeof SubjectResultSchema>;

/** A learner's academic records (spec §3 "Student result record"): one per class, term and year. */
export const StudentResultsSchema = z.object({
  results: z.array(
    z.object({
      form: z.string(),
      term: z.string(),
      year: z.number(),
      exams: z.array(z.object({ marktype_id: z.uuid(), marktype: z.string(), subjects: z.array(SubjectResultSchema) })),
      /** New-curriculum results: per subject the competencies (topics) scored 1 to 3, and their average. */
      ncresults: z.array(
        z.object({
          subject_id: z.uuid(),
          subject: z.string(),
          topics: z.array(z.object({ topic_id: z.uuid(), title: z.string(), mark: z.number(), score: z.string() })),
          average: z.number(),
          score: z.string(),
        }),
      ),
    }),
  ),
  /** The classes the learner was in before (promotions). */
  history: z.array(z.object({ form: z.string(), stream: z.string().nullable(), year: z.number(), outcome: z.string() })),
});
export type StudentResults = z.infer<typeof StudentResultsSchema>;

/*
 * Entering marks (issue 14): the grid of a class's learners by mark type for one subject,
 * paper, term and year; its save; the marks list and their deletion.
 */

/** A mark in a request or an answer: a number, ABS for an absence, or none (cleared). */
export const MarkValueSchema = z.union([z.number(), z.literal(ABSENT), z.null()]);

/** A stream, or none for the whole class (every stream). */
const streamField = z
  .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), text().trim().max(40).nullish())
  .transform((value) => value ?? null);
/** Ids a form sends as `marktypes[]` (repeated), a JSON list, or one comma-separated text. */
const idList = (message: string) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
        : value,
    z
      .array(z.uuid({ error: message }), { error: message })
      .min(1, message)
      .max(20, MARK_MESSAGES.gridTooLarge),
  );
const optionalId = z.preprocess((value) => (value === '' || value === null ? undefined : value), z.uuid().optional());
const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

/** Which grid: the class and stream, its learners of one category if given, the subject, paper, term and year. */
export const MarksGridQuerySchema = z.strictObject({
  form,
  stream: streamField,
  studentcategory_id: optionalId,
  term,
  year,
  paper: z.preprocess((value) => (value === '' || value === null ? undefined : value), z.enum(PAPERS).default('I')),
  subject_id: z.uuid({ error: SETTINGS_MESSAGES.subjectRequired }),
  marktypes: idList(MARK_MESSAGES.markTypeUnknown),
  topic_id: optionalId,
  /** The grid as a spreadsheet to fill offline. */
  excel: flag,
});
export type MarksGridQuery = z.infer<typeof MarksGridQuerySchema>;

/** A stored mark in the grid: its value and version (the save's base). */
export const GridMarkSchema = z.object({ mark: MarkValueSchema, version: z.number() });

export const MarksGridSchema = z.object({
  students: z.array(
    z.object({
      student: z.object({ id: z.uuid(), studentid: z.string(), fullname: z.string() }),
      /** By mark type id; a mark type without a mark for the learner is absent from the map. */
      marktypes: z.record(z.string(), GridMarkSchema),
    }),
  ),
  marktypes: z.array(z.object({ id: z.uuid(), label: z.string(), outof: z.number(), published: z.boolean() })),
});
export type MarksGrid = z.infer<typeof MarksGridSchema>;

/** What reading a filled grid sheet back did: marks saved, and unchanged (the same file twice saves nothing). */
export const MarksUploadResultSchema = z.object({ message: z.string(), saved: z.number(), unchanged: z.number() });

/** A save of the grid: the marks by mark type and learner, and the versions the grid was loaded with. */
export const MarksSaveSchema = z.strictObject({
  form,
  stream: streamField,
  term,
  year,
  subject_id: z.uuid({ error: SETTINGS_MESSAGES.subjectRequired }),
  paper: z.enum(PAPERS).default('I'),
  topic_id: z.uuid().nullish(),
  /** One per save, kept by the browser across retries: the same save twice writes once. */
  save_id: z.uuid(),
  marks: z.record(z.uuid(), z.record(z.uuid(), z.unknown())),
  base: z.record(z.uuid(), z.record(z.uuid(), z.number().int().min(0))).default({}),
});
export type MarksSave = z.infer<typeof MarksSaveSchema>;

export const MarksSavedSchema = z.object({
  saved: z.number(),
  unchanged: z.number(),
  /** Every cell of the save as now stored: value and version, the grid's new base. */
  marks: z.record(z.string(), z.record(z.string(), GridMarkSchema)),
  message: z.string(),
});
export type MarksSaved = z.infer<typeof MarksSavedSchema>;

/** A 409's cells: what is stored now (by whom) and what the teacher sent. */
export const MarkConflictSchema = z.object({
  marktype_id: z.string(),
  student_id: z.string(),
  theirs: MarkValueSchema,
  version: z.number(),
  yours: MarkValueSchema,
  by: z.string().nullable(),
});

export const MarkRecordSchema = z.object({
  id: z.uuid(),
  student: z.object({ id: z.uuid(), studentid: z.string(), fullname: z.string() }),
  form: z.string(),
  stream: z.string().nullable(),
  term: z.string(),
  year: z.number(),
  paper: z.string(),
  sub: z.string(),
  user: z.string().nullable(),
  marktype: z.string(),
  mark: MarkValueSchema,
  topic_id: z.string().nullable(),
});

/** What the delete marks page deletes: a class's marks of a term, narrowed as the filter says. */
export const MarksDeleteSchema = z.strictObject({
  form,
  stream: streamField,
  term,
  year,
  paper: z.preprocess((value) => (value === '' || value === null ? undefined : value), z.enum(PAPERS).optional()),
  subject_id: optionalId,
  marktype_id: optionalId,
  topic_id: optionalId,
});
export const MarksDeletedSchema = z.object({ records: z.number() });

/** A cell's history: every change, newest first. */
export const MarkHistoryQuerySchema = z.object({
  student_id: z.uuid(),
  subject_id: z.uuid(),
  marktype_id: z.uuid(),
  term: z.enum(TERMS),
  year: z.coerce.number().int().min(2000).max(2100),
  paper: z.enum(PAPERS).default('I'),
});
export const MarkHistorySchema = z.object({
  history: z.array(
    z.object({
      old: MarkValueSchema,
      new: MarkValueSchema,
      source: z.enum(['grid', 'sheet', 'delete']),
      user: z.string().nullable(),
      at: z.string(),
    }),
  ),
});

/*
 * Attendance and mark targets (issue 14 points 6 and 7): one value per learner of a class for a
 * term, read by the rules of marks/learner-values.ts. Each page has one POST: without values it
 * loads the learners (or, with excel=1, a sheet to fill; with a file, reads one back and saves
 * it); with values it saves them. A value map is keyed by the learner's id; empty clears.
 */

/** A learner as the class pages list them. */
export const LearnerRefSchema = z.object({ id: z.uuid(), studentid: z.string(), fullname: z.string() });

/** Values by learner id: as many as a class has, each a number, its text, or empty. */
const learnerValues = z
  .record(z.uuid(), z.union([z.string().max(20), z.number(), z.null()]))
  .refine((values) => Object.keys(values).length <= MAX_GRID_CELLS, MARK_MESSAGES.gridTooLarge);

/** Attendance (`POST /api/school/attendances`): the class and term; `daysattended` and `totaldays` to save. */
export const AttendanceRequestSchema = z.strictObject({
  form,
  stream: streamField,
  term,
  year,
  excel: flag,
  totaldays: z.preprocess((value) => (value === '' || value === null ? undefined : value), z.unknown().optional()),
  daysattended: learnerValues.optional(),
});
export type AttendanceRequest = z.infer<typeof AttendanceRequestSchema>;

/** A class's attendance: each learner's days (none if not yet recorded), and the term's total days as recorded. */
export const AttendanceRowsSchema = z.object({
  students: z.array(z.object({ student: LearnerRefSchema, daysattended: z.number().nullable() })),
  totaldays: z.number().nullable(),
});
export type AttendanceRows = z.infer<typeof AttendanceRowsSchema>;

/** What a save or an upload of a class's values did: values written, and unchanged. */
export const LearnerValuesSavedSchema = z.object({ message: z.string(), saved: z.number(), unchanged: z.number() });
export type LearnerValuesSaved = z.infer<typeof LearnerValuesSavedSchema>;

/** Mark targets (`POST /api/school/marktargets`): the class, term and subject; `target` to save. */
export const MarkTargetRequestSchema = z.strictObject({
  form,
  stream: streamField,
  term,
  year,
  subject_id: z.uuid({ error: SETTINGS_MESSAGES.subjectRequired }),
  excel: flag,
  target: learnerValues.optional(),
});
export type MarkTargetRequest = z.infer<typeof MarkTargetRequestSchema>;

/** A class's targets in a subject (spec §4): each learner with `targets.target`, or `targets` null if none is set. */
export const MarkTargetRowsSchema = z.array(z.object({ student: LearnerRefSchema, targets: z.object({ target: z.number() }).nullable() }));
export type MarkTargetRows = z.infer<typeof MarkTargetRowsSchema>;

/** A target as the list shows it (spec §3 "Mark target"). */
export const MarkTargetRecordSchema = z.object({
  id: z.uuid(),
  student: LearnerRefSchema,
  form: z.string(),
  stream: z.string().nullable(),
  term: z.string(),
  year: z.number(),
  subject: z.string(),
  subject_id: z.uuid(),
  target: z.number(),
});
