import { z } from 'zod';
import { flag, form, lowerId, optionalId, optionalStream, term, year } from '../endpoints/fields.js';
import { REPORT_MESSAGES, SETTINGS_MESSAGES } from '../messages.js';
import { text } from '../schemas/common.js';
import { MAX_REPORT_LABEL } from './layout.js';
import { ExplanationSchema } from './model.js';

/*
 * The new-curriculum report card (issue 27 point 2; guide new-curriculum.md, "The report
 * screens"): the report pipeline's second report kind. Its query (the class, stream or learner,
 * the term and year, the summative mark type, and the card's options) and its model: per
 * learner each subject's competencies with their scores and identifiers, the formative /20,
 * summative /80, total /100, grade and descriptor, the two remarks, the overall achievement,
 * the projects and the report remarks; each number with the grader's explanation. No
 * positions, divisions or aggregates. `json=1` answers the model, `html=1` the preview
 * (nc-render-html.ts), otherwise the PDF.
 */

/** The card's filter and options (spec §2, "New-curriculum Terminal Reports"). */
export const NcTerminalReportQuerySchema = z.object({
  form,
  stream: optionalStream,
  student_id: optionalId,
  term,
  year,
  /** The summative: the mark type of the end-of-term (or year) exam, its marks without a competency. */
  marktype_id: z.preprocess((value) => (value === '' || value === null ? undefined : value), lowerId(SETTINGS_MESSAGES.markTypeRequired)),
  /** Summary: per subject the formative /20, summative /80, total /100, grade and descriptor. */
  summary: flag,
  /** Show Topics: a row per competency under its subject, with its score and identifier. */
  topics: flag,
  /** Disable Formative: an exam-only card (no competency scores, no 20%). */
  noformative: flag,
  /** Show comments: the remarks on competency and on generic skills and values, and the report remarks. */
  comments: flag,
  /** The card's title (END OF TERM when none is given). */
  label: z.preprocess(
    (value) => (value === '' ? undefined : value),
    text().trim().max(MAX_REPORT_LABEL, REPORT_MESSAGES.labelTooLong).optional(),
  ),
  json: flag,
  html: flag,
  pdf: flag,
  /** A token the web makes up to follow a whole class's PDF as it is drawn (the progress endpoint). */
  progress: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional(),
  ),
});
export type NcTerminalReportQuery = z.output<typeof NcTerminalReportQuerySchema>;

const score = z.number().nullable();

export const NcTopicRowSchema = z.object({
  topic_id: z.uuid(),
  title: z.string(),
  /** The mean of the competency's activities of integration, to one decimal (none when every one was missed or none is entered). */
  score,
  /** The identifier's label, decided on the exact mean. */
  identifier: z.string().nullable(),
  explain: z.object({ score: ExplanationSchema }),
});

export const NcSubjectRowSchema = z.object({
  subject_id: z.uuid(),
  subject: z.string(),
  topics: z.array(NcTopicRowSchema),
  /** The mean of the competencies' scores, to one decimal ("Av. score"). */
  score,
  identifier: z.string().nullable(),
  /** Out of 20, 80 and 100, each cut to one decimal (the grade is decided on the exact total). */
  formative: score,
  summative: score,
  total: score,
  grade: z.string().nullable(),
  /** The grade's descriptor (UNEB's by default). */
  descriptor: z.string().nullable(),
  /** The teacher's remark on the competencies (with Show comments; '' otherwise). */
  comment: z.string(),
  /** The teacher's remark on generic skills and values (with Show comments; '' otherwise). */
  skills: z.string(),
  /** The initials of the subject's teacher of the learner's class and stream. */
  initials: z.string().nullable(),
  explain: z.object({
    score: ExplanationSchema,
    formative: ExplanationSchema,
    summative: ExplanationSchema,
    total: ExplanationSchema,
    grade: ExplanationSchema,
  }),
});
export type NcSubjectRow = z.infer<typeof NcSubjectRowSchema>;

export const NcLearnerCardSchema = z.object({
  id: z.uuid(),
  studentid: z.string(),
  fullname: z.string(),
  lin: z.string().nullable(),
  form: z.string(),
  stream: z.string().nullable(),
  /** The photo's address, or null when the learner has none (or the layout shows none). */
  photo: z.string().nullable(),
  attendance: z.object({ days: z.number(), total: z.number() }).nullable(),
  subjects: z.array(NcSubjectRowSchema),
  /** The class's subjects this learner has nothing in this term (no competency score, no exam mark): the card says so. */
  unscored: z.array(z.string()),
  overall: z.object({
    score,
    identifier: z.string().nullable(),
    total: score,
    grade: z.string().nullable(),
    explain: z.object({ score: ExplanationSchema, total: ExplanationSchema }),
  }),
  project: z.array(
    z.object({ title: z.string(), subject: z.string(), score: z.number().nullable(), max: z.number(), comment: z.string() }),
  ),
  /** The report remarks (class teacher's, head teacher's, ...) in the school's order; text only with Show comments. */
  remarks: z.array(z.object({ remarktype_id: z.uuid().nullable(), label: z.string(), text: z.string() })),
  /** The S4 certificate preview, where the school prints it. */
  certificate: z.object({ result: z.string(), explain: ExplanationSchema }).nullable(),
  /**
   * The learner's position in the class by the overall total, only where the school switched
   * positions on (the new curriculum prints none by default); null when unranked (no total).
   */
  position: z.object({ rank: z.number(), outOf: z.number(), explain: ExplanationSchema }).nullable().optional(),
  feesBalance: z.string().nullable(),
});
export type NcLearnerCard = z.infer<typeof NcLearnerCardSchema>;

export const NcReportModelSchema = z.object({
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
    /** The summative mark type's label ("EOT"). */
    exam: z.string(),
    summary: z.boolean(),
    topics: z.boolean(),
    noformative: z.boolean(),
    comments: z.boolean(),
  }),
  /** The keys a parent reads: the identifiers with their score ranges, the grades with the school's ranges; each with its descriptor. */
  keys: z.object({
    identifiers: z.array(z.object({ label: z.string(), from: z.number(), to: z.number(), descriptor: z.string() })),
    grades: z.array(z.object({ grade: z.string(), from: z.number(), to: z.number(), descriptor: z.string() })),
  }),
  nextTerm: z.object({ term: z.string(), year: z.number(), starts: z.string(), ends: z.string() }).nullable(),
  signatures: z.array(z.string()),
  learners: z.array(NcLearnerCardSchema),
});
export type NcReportModel = z.infer<typeof NcReportModelSchema>;

/** The words the card prints (both renderers), in the school's language of instruction. */
export const NC_REPORT_WORDS = {
  competency: 'Competency',
  stream: 'Stream',
  score: 'Score',
  avScore: 'Av. score',
  identifier: 'Identifier',
  formative: 'F.A /20',
  summative: 'EOT /80',
  total: 'Total /100',
  examOnly: 'Exam /100',
  descriptor: 'Descriptor',
  grade: 'Grade',
  remarkCompetency: 'Remark on competency',
  remarkSkills: 'Remark on generic skills and values',
  summaryTitle: 'Summary of performance',
  overall: 'Overall achievement',
  project: 'Project',
  projects: 'Projects',
  identifierKey: 'Key to the identifiers (average score out of 3)',
  gradeKey: 'Key to the grades (total out of 100)',
  stamp: 'Not valid without the school stamp',
  noScores: 'No competency scores or exam mark this term',
  noSubjects: 'No subject has competency scores or an exam mark this term',
  certificate: 'Certificate preview',
  position: 'Position in class',
} as const;

/** A card's file name: `ncreport-<class>-<stream>-<year>-<term>.pdf` (a whole class of several streams is "all"). */
export function ncReportFileName(report: { form: string; stream: string | null; year: number; term: string }): string {
  const part = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');
  return `ncreport-${part(report.form)}-${part(report.stream ?? 'all')}-${report.year}-${report.term}.pdf`;
}

/** The short name of a grade's descriptor: UNEB's sentence starts with it ("Exceptional: demonstrates ..."). */
export function descriptorName(descriptor: string | null): string {
  if (!descriptor) return '-';
  const colon = descriptor.indexOf(':');
  return colon > 0 && colon <= 30 ? descriptor.slice(0, colon) : descriptor;
}

/** A score out of 3 as printed: one decimal ("2.0"); none as "-". */
export const ncScoreText = (value: number | null) => (value === null ? '-' : value.toFixed(1));
/** A part out of 20, 80 or 100 as printed: one decimal at most ("16.7", "80"); none as "-". */
export const ncPartText = (value: number | null) => (value === null ? '-' : String(value));
