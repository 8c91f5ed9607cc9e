import { z } from 'zod';
import { flag, form, markTypeIds, optionalId, optionalStream, term, year } from '../endpoints/fields.js';
import { EXPLANATION_CODES, type Explanation } from '../grading/engine/explain.js';
import { text } from '../schemas/common.js';
import { MAX_REPORT_LABEL } from './layout.js';

/*
 * The report model (issue 15 point 3): everything a class's report cards say, computed once per
 * request by the grading engine and drawn by two renderers (HTML preview, PDF). `json=1` answers
 * it as it is, so another program reads the same numbers the cards print, each with the
 * engine's explanation.
 */

/** The report types of the spec's Terminal Reports screen ("assesment" as the spec spells it). */
export const REPORT_TYPES = ['assesment', 'exam', 'mid term', 'custom', 'pre-primary'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** The most learners one report answers (a class of several streams fits; a whole school asks per class). */
export const MAX_REPORT_LEARNERS = 1500;
export { MAX_MARK_TYPES } from '../endpoints/fields.js';

/** The Terminal Reports filter (spec §7 "Reports"): one class and stream, or one learner. */
export const TerminalReportQuerySchema = z.object({
  form,
  stream: optionalStream,
  studentcategory_id: optionalId,
  student_id: optionalId,
  term,
  year,
  category: z.preprocess((value) => (value === '' || value === undefined ? 'exam' : value), z.enum(REPORT_TYPES)),
  marktype_id: optionalId,
  'marktype_ids[]': markTypeIds,
  marktype_ids: markTypeIds,
  /** Display raw marks: each mark as entered, rather than weighted into the total. */
  rawmark: flag,
  /** Seperate mark types: a column per mark type, not only the total. */
  separate: flag,
  label: z.preprocess((value) => (value === '' ? undefined : value), text().trim().max(MAX_REPORT_LABEL).optional()),
  json: flag,
  html: flag,
  /** A token the web makes up to follow a whole class's PDF as it is drawn (the progress endpoint). */
  progress: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional(),
  ),
});
export type TerminalReportQuery = z.output<typeof TerminalReportQuerySchema>;

export const ExplanationSchema: z.ZodType<Explanation> = z.lazy(() =>
  z.object({
    code: z.enum(EXPLANATION_CODES),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))])),
    parts: z.array(ExplanationSchema).optional(),
  }),
);

/** A mark as a card shows it: a number, ABS for an absence, or none. */
const ShownMarkSchema = z.union([z.number(), z.literal('ABS'), z.null()]);

export const ReportSubjectSchema = z.object({
  subject_id: z.uuid(),
  subject: z.string(),
  /** The subject's short name (ENG), for narrow tables. */
  code: z.string().nullable(),
  /** By mark type label: the raw mark (Display raw marks) or the mark out of 100, weighted by the proportion when there is one. */
  marks: z.record(z.string(), ShownMarkSchema),
  /** A level: each paper's mark out of 100 and grade. */
  papers: z.array(z.object({ paper: z.string(), mark: z.number().nullable(), grade: z.string().nullable() })).optional(),
  total: z.number().nullable(),
  grade: z.string().nullable(),
  /**
   * The weighted mark types the learner missed (ABS or no mark) that the school's rule
   * (grading rules `missed`) re-weighted or counted 0 ("MOT ABS" on the card); empty otherwise.
   */
  missed: z.array(z.string()),
  /** A level: the subject's points (a principal's letter points, a subsidiary's 0 or 1). */
  points: z.number().nullable(),
  comment: z.string(),
  /** The initials of the subject's teacher of the learner's class and stream. */
  initials: z.string().nullable(),
  explain: z.object({ total: ExplanationSchema, grade: ExplanationSchema }),
});
export type ReportSubject = z.infer<typeof ReportSubjectSchema>;

const PositionExplainSchema = z.object({ stream: ExplanationSchema, class: ExplanationSchema });

export const ReportLearnerSchema = z.object({
  id: z.uuid(),
  studentid: z.string(),
  fullname: z.string(),
  gender: z.enum(['F', 'M']).nullable(),
  /** The learner's identification number (LIN) of the Ministry's register, when the school has it. */
  lin: z.string().nullable(),
  form: z.string(),
  stream: z.string().nullable(),
  /** The photo's address, or null when the learner has none (or the layout shows none). */
  photo: z.string().nullable(),
  subjects: z.array(ReportSubjectSchema),
  /** The sum of the subject totals, and their mean. */
  total: z.number().nullable(),
  average: z.number().nullable(),
  /** Primary and O level. */
  aggregate: z.number().nullable(),
  division: z.string().nullable(),
  /** A level: the total of the subjects' points. */
  points: z.number().nullable(),
  /** "x out of n" in the stream and in the class; null when the learner is not ranked. */
  position: z.object({ stream: z.number().nullable(), class: z.number().nullable(), of: z.number(), streamOf: z.number() }),
  attendance: z.object({ days: z.number(), total: z.number() }).nullable(),
  /**
   * The remarks of the report's remark types (class teacher's, head teacher's, ...) in the
   * school's order, empty text where none is written; without remark types, the class and head
   * teacher's, for the pen.
   */
  remarks: z.array(z.object({ remarktype_id: z.uuid().nullable(), label: z.string(), text: z.string() })),
  /** The school's report footers that apply to this learner's position. */
  footers: z.array(z.object({ title: z.string(), text: z.string() })),
  /** What the learner owes on their fees statement (invoices less receipts, exact decimal text), null without one. */
  feesBalance: z.string().nullable(),
  explain: z.object({
    total: ExplanationSchema,
    average: ExplanationSchema,
    aggregate: ExplanationSchema.nullable(),
    division: ExplanationSchema.nullable(),
    points: ExplanationSchema.nullable(),
    position: PositionExplainSchema,
  }),
});
export type ReportLearner = z.infer<typeof ReportLearnerSchema>;

/** How a class is graded: PLE divisions, UCE divisions, UACE points, or marks and grades alone. */
export const REPORT_LEVELS = ['primary', 'olevel', 'alevel', 'plain'] as const;
export type ReportLevel = (typeof REPORT_LEVELS)[number];

export const ReportModelSchema = z.object({
  school: z.object({
    name: z.string(),
    address: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    logo: z.string().nullable(),
    lines: z.array(z.string()),
  }),
  report: z.object({
    label: z.string(),
    form: z.string(),
    stream: z.string().nullable(),
    term: z.string(),
    year: z.number(),
    category: z.enum(REPORT_TYPES),
    level: z.enum(REPORT_LEVELS),
    rawmark: z.boolean(),
    separate: z.boolean(),
    /**
     * The cumulative report's (issue 28 point 3): the combined column's title, the person's Label
     * (AVERAGE, FINAL) over the subject's mark the mark types make with the proportions; the card
     * then shows every level's grade points. Absent on the terminal report (its column is Total).
     */
    combined: z.string().optional(),
  }),
  /**
   * The mark types the cards show, in the school's order; `heading` is the column's head: the
   * label over raw marks ("BOT"), with the proportion over weighted parts ("BOT 20%").
   */
  markTypes: z.array(z.object({ id: z.uuid(), label: z.string(), heading: z.string() })),
  /** What a head teacher must fix before printing: proportions not adding up to 100, grade sets with gaps. */
  warnings: z.array(z.object({ subject: z.string().nullable(), explain: ExplanationSchema })),
  /** The class's grading key (grade footer), printed under the table. */
  gradeKey: z.string().nullable(),
  /**
   * The key's lines the card prints whatever the school wrote: the grades, the division rule in
   * force, what X means, how a missed test counts, and what the marks under the mark types are.
   */
  key: z.array(z.string()),
  /** How many streams the class has (a class of one stream prints no position in stream). */
  streams: z.number(),
  /** The next term's first and last day (YYYY-MM-DD) by the school's calendar, null when unknown. */
  nextTerm: z.object({ term: z.string(), year: z.number(), starts: z.string(), ends: z.string() }).nullable(),
  /** Whom the card's signature lines are for ("Class teacher", "Head teacher"); none when the school's footers have them. */
  signatures: z.array(z.string()),
  /** The class's and each stream's mean of the learners' averages. */
  means: z.object({ class: z.number().nullable(), streams: z.record(z.string(), z.number().nullable()) }),
  learners: z.array(ReportLearnerSchema),
});
export type ReportModel = z.infer<typeof ReportModelSchema>;
