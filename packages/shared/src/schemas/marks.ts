import { z } from 'zod';
import {
  flag,
  form,
  idKeyed,
  lowerId,
  nullableId,
  optionalId,
  paper,
  paperFilter,
  requiredMarkTypeIds,
  streamField,
  subjectId,
  term,
  termQuery,
  year,
  yearQuery,
} from '../endpoints/fields.js';
import { ABSENT, MAX_GRID_CELLS } from '../marks/cells.js';
import { MARK_MESSAGES, SETTINGS_MESSAGES } from '../messages.js';

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
  /**
   * S5 and S6: the subject's total as the report card has it, the mean of its papers out of 100
   * (none while a paper has no mark); `score` is then the card's letter or grade.
   */
  total: z.number().nullable().optional(),
});
export type SubjectResult = z.infer<typeof SubjectResultSchema>;

/** A mark in a request or an answer: a number, ABS for an absence, or none (cleared). */
export const MarkValueSchema = z.union([z.number(), z.literal(ABSENT), z.null()]);

/** A learner's academic records (spec §3 "Student result record"): one per class, term and year. */
export const StudentResultsSchema = z.object({
  results: z.array(
    z.object({
      form: z.string(),
      term: z.string(),
      year: z.number(),
      exams: z.array(z.object({ marktype_id: z.uuid(), marktype: z.string(), subjects: z.array(SubjectResultSchema) })),
      /**
       * The class's curriculum that year (issue 26 point 1): on the new one the exams show marks
       * without grades, and the competencies and projects below are the learner's results.
       */
      curriculum: z.enum(['new', 'old']),
      /**
       * New-curriculum results (issue 26 point 6): per subject each competency (topic) with its
       * activities of integration (one per mark type, ABS apart), their mean (`mark`, one decimal)
       * and identifier (`score`); the subject's mean of its competencies (`average`) and
       * identifier; and the subject's projects with the learner's score and comment.
       */
      ncresults: z.array(
        z.object({
          subject_id: z.uuid(),
          subject: z.string(),
          topics: z.array(
            z.object({
              topic_id: z.uuid(),
              title: z.string(),
              aois: z.array(z.object({ marktype_id: z.uuid(), marktype: z.string(), mark: MarkValueSchema })),
              mark: z.number().nullable(),
              score: z.string().nullable(),
            }),
          ),
          average: z.number().nullable(),
          score: z.string().nullable(),
          projects: z.array(
            z.object({
              project_id: z.uuid(),
              title: z.string(),
              score: z.number().nullable(),
              max_score: z.number(),
              comment: z.string().nullable(),
            }),
          ),
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

/** Which grid: the class and stream, its learners of one category if given, the subject, paper, term and year. */
export const MarksGridQuerySchema = z.strictObject({
  form,
  stream: streamField,
  studentcategory_id: optionalId,
  term,
  year,
  paper,
  subject_id: subjectId,
  marktypes: requiredMarkTypeIds({ unknown: MARK_MESSAGES.markTypeUnknown, tooMany: MARK_MESSAGES.gridTooLarge }),
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
  /**
   * A competency's grid (with `topic_id`): every column's scores run on the identifier scale,
   * 1 to 3 (0 too where the school allows it), whatever the mark type's maximum.
   */
  scale: z.object({ lowest: z.number(), highest: z.number(), competency: z.boolean() }).optional(),
});
export type MarksGrid = z.infer<typeof MarksGridSchema>;

/** What reading a filled grid sheet back did: marks saved, and unchanged (the same file twice saves nothing). */
export const MarksUploadResultSchema = z.object({ message: z.string(), saved: z.number(), unchanged: z.number() });

/** Cells keyed by id: a key in capitals names the stored record; two keys of one id are one cell sent twice. */
const byId = <Value extends z.ZodType>(value: Value) =>
  idKeyed(value, { invalid: SETTINGS_MESSAGES.referenceMissing, repeated: SETTINGS_MESSAGES.duplicate });

/** A save of the grid: the marks by mark type and learner, and the versions the grid was loaded with. */
export const MarksSaveSchema = z.strictObject({
  form,
  stream: streamField,
  term,
  year,
  subject_id: subjectId,
  paper,
  topic_id: nullableId,
  /** One per save, kept by the browser across retries: the same save twice writes once. */
  save_id: lowerId(),
  /** By mark type id, then learner id, each as stored (small letters): a cell sent twice under capitals is refused. */
  marks: byId(byId(z.unknown())),
  base: byId(byId(z.number().int().min(0))).default({}),
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
  paper: paperFilter,
  subject_id: optionalId,
  marktype_id: optionalId,
  topic_id: optionalId,
});
export const MarksDeletedSchema = z.object({ records: z.number() });

/** A cell's history: every change, newest first. */
export const MarkHistoryQuerySchema = z.object({
  student_id: lowerId(),
  subject_id: lowerId(),
  marktype_id: lowerId(),
  term: termQuery,
  year: yearQuery,
  paper,
  /** A competency's cell (its AOI score); without it, the subject's plain mark. */
  topic_id: lowerId().optional(),
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
const learnerValues = idKeyed(z.union([z.string().max(20), z.number(), z.null()]), {
  invalid: MARK_MESSAGES.learnerNotInClass,
  repeated: SETTINGS_MESSAGES.duplicate,
}).refine((values) => Object.keys(values).length <= MAX_GRID_CELLS, MARK_MESSAGES.gridTooLarge);

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
  subject_id: subjectId,
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
