import { z } from 'zod';
import { REPORT_MESSAGES as M } from '../messages.js';
import { REPORT_LEVELS } from '../reports/model.js';
import { defineEndpoint } from './definition.js';
import { flag, form, lowerId, optionalStream } from './fields.js';
import { ReportPreviewSchema } from './reports.js';

// The report's pure changes and words travel with its contract (one export line in index.ts).
export * from '../reports/progress-report.js';

/**
 * The Progressive Reports filter (spec §2 "Progressive Reports": class, stream, student; issue 28
 * point 4): the learner of that class (and stream) whose terms are shown. `json=1` the model,
 * `html=1` the preview, otherwise the PDF.
 */
export const ProgressReportQuerySchema = z.object({
  form,
  stream: optionalStream,
  student_id: z.preprocess((value) => (value === '' || value === null ? undefined : value), lowerId(M.learnerRequired)),
  json: flag,
  html: flag,
  pdf: flag,
});
export type ProgressReportQuery = z.output<typeof ProgressReportQuerySchema>;

/** A change from the term before, read in the measure's direction; null when either term has none. */
const ChangeSchema = z
  .object({ from: z.number(), to: z.number(), difference: z.number(), direction: z.enum(['improved', 'same', 'dropped']) })
  .nullable();

/** One term of the learner's: as it was computed then, in the class the learner was in. */
const ProgressTermSchema = z.object({
  term: z.string(),
  year: z.number(),
  /** The class and stream the learner was in that term. */
  form: z.string(),
  stream: z.string().nullable(),
  level: z.enum(REPORT_LEVELS),
  /** The exams graded that term, in the school's order. */
  markTypes: z.array(z.string()),
  total: z.number().nullable(),
  average: z.number().nullable(),
  aggregate: z.number().nullable(),
  division: z.string().nullable(),
  points: z.number().nullable(),
  /** The position in the class that term (ties share a rank), and how many were ranked. */
  position: z.number().nullable(),
  outOf: z.number(),
  change: z.object({
    average: ChangeSchema,
    aggregate: ChangeSchema,
    points: ChangeSchema,
    position: ChangeSchema,
    division: z.enum(['improved', 'same', 'dropped']).nullable(),
  }),
});

/** A subject's cell in one term: the subject's mark (0..100) and grade, ABS, and the change in the mark. */
const ProgressCellSchema = z
  .object({ mark: z.number().nullable(), grade: z.string().nullable(), absent: z.boolean(), change: ChangeSchema })
  .nullable();

export const ProgressReportModelSchema = z.object({
  report: z.object({ school: z.string(), title: z.string(), form: z.string(), stream: z.string().nullable() }),
  learner: z.object({ id: z.string(), studentid: z.string(), name: z.string(), form: z.string(), stream: z.string().nullable() }),
  /** The terms on record, oldest first. */
  terms: z.array(ProgressTermSchema),
  /** Rows: each subject the learner has a mark in; a cell per term (null: no mark that term). */
  subjects: z.array(
    z.object({ subject_id: z.string(), subject: z.string(), code: z.string().nullable(), terms: z.array(ProgressCellSchema) }),
  ),
  /** The trend line: the learner's average mark term by term (higher is better). */
  trend: z.array(z.object({ label: z.string(), value: z.number().nullable() })),
  /** Terms on record not shown, and why (a new-curriculum year's). */
  leftOut: z.array(z.object({ term: z.string(), year: z.number(), form: z.string(), reason: z.string() })),
  /** Why the report is empty (no terms to show); null when it has terms. */
  empty: z.string().nullable(),
  /** How the numbers are computed. */
  explain: z.record(z.string(), z.string()),
});
export type ProgressReportModel = z.output<typeof ProgressReportModelSchema>;

/**
 * One learner's progressive report (issue 28 point 4): every term on record, each graded as it
 * was then; `json=1` the model, `html=1` `{ html }` for the web's frame, otherwise the PDF
 * `progressreport-<class>-<stream>-<student id>.pdf`.
 */
export const progressReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/progressreport',
  access: 'member',
  query: ProgressReportQuerySchema,
  response: z.union([ProgressReportModelSchema, ReportPreviewSchema]),
  download: true,
});
