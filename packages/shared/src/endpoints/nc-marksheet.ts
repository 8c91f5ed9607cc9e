import { z } from 'zod';
import type { NcRules } from '../grading/engine/nc-rules.js';
import type { NcLearnerResult, NcSubjectResult } from '../grading/engine/new-curriculum.js';
import { type Exact, exactRound, toNumber } from '../grading/exact.js';
import { REPORT_MESSAGES, SETTINGS_MESSAGES } from '../messages.js';
import { subjectCode } from '../reports/marksheet.js';
import { defineEndpoint } from './definition.js';
import { flag, form, markTypeIds, optionalId, optionalStream, shownMarkTypeIds, term, year } from './fields.js';
import { ReportPreviewSchema } from './reports.js';

/*
 * The new-curriculum mark sheet (issue 27 point 4; guide new-curriculum.md): a new-curriculum
 * class's learners by subject, each subject's score (out of 3, the mean of its competencies),
 * identifier, formative /20, summative /80 (the chosen mark type, the summative exam), total /100
 * and grade, as the shared grader (gradeNcLearner) gives them; at the foot, per subject, the
 * learners of each identifier and of each grade. Pure: the model is made once from the graded
 * learners and the three outputs (preview, workbook, PDF) draw it, recomputing nothing.
 */

/** The words the sheet prints (the school's document, in English as the report cards). */
export const NC_MARKSHEET_WORDS = {
  title: 'NEW CURRICULUM MARK SHEET',
  class: 'Class',
  stream: 'Stream',
  term: 'Term',
  year: 'Year',
  markType: 'Summative',
  allStreams: 'All streams',
  number: 'No.',
  studentId: 'Student ID',
  name: 'Name',
  score: 'Score',
  identifier: 'Identifier',
  formative: '/20',
  summative: '/80',
  total: '/100',
  grade: 'Grade',
  subject: 'Subject',
  identifierCounts: 'Learners per identifier',
  gradeCounts: 'Learners per grade',
  none: '-',
} as const;

/**
 * The sheet's filter: the class, stream (none: the whole class), term, year and the summative
 * exam's mark type (as `marktype_id`, or the one of the report filter's `marktype_ids`), and
 * which output: `excel=1` the workbook, `html=1` the preview, `pdf=1` the PDF, otherwise the model.
 */
export const NcMarksheetQuerySchema = z
  .object({
    form,
    stream: optionalStream,
    term,
    year,
    marktype_id: optionalId,
    'marktype_ids[]': markTypeIds,
    marktype_ids: markTypeIds,
    excel: flag,
    html: flag,
    pdf: flag,
  })
  .superRefine((query, context) => {
    const chosen = shownMarkTypeIds(query);
    if (chosen.length === 0) context.addIssue({ code: 'custom', path: ['marktype_id'], message: SETTINGS_MESSAGES.markTypeRequired });
    if (chosen.length > 1) context.addIssue({ code: 'custom', path: ['marktype_id'], message: REPORT_MESSAGES.oneSummative });
  });
export type NcMarksheetQuery = z.output<typeof NcMarksheetQuerySchema>;

/** The summative exam's mark type a query names (the contract allows exactly one). */
export const ncMarksheetExam = (query: NcMarksheetQuery): string => shownMarkTypeIds(query)[0] ?? '';

const nullableNumber = z.number().nullable();

/** A learner's subject on the sheet: numbers rounded for display (score to one decimal, the rest to one). */
export const NcMarksheetCellSchema = z.object({
  subject_id: z.string(),
  score: nullableNumber,
  identifier: z.string().nullable(),
  formative: nullableNumber,
  summative: nullableNumber,
  total: nullableNumber,
  grade: z.string().nullable(),
});
export type NcMarksheetCell = z.infer<typeof NcMarksheetCellSchema>;

export const NcMarksheetModelSchema = z.object({
  school: z.object({ name: z.string() }),
  report: z.object({
    form: z.string(),
    stream: z.string().nullable(),
    term: z.string(),
    year: z.number(),
    marktype: z.object({ id: z.string(), label: z.string(), outof: z.number() }).nullable(),
  }),
  subjects: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })),
  /** The identifier labels and grades the counts list, best first (the school's rules). */
  identifiers: z.array(z.string()),
  grades: z.array(z.string()),
  learners: z.array(
    z.object({
      id: z.string(),
      studentid: z.string(),
      fullname: z.string(),
      stream: z.string().nullable(),
      /** One per subject of the sheet, in its order; a subject the learner has nothing in has every value null. */
      subjects: z.array(NcMarksheetCellSchema),
    }),
  ),
  /** Per subject (the sheet's order): learners of each identifier and of each grade (the lists' order). */
  counts: z.array(z.object({ subject_id: z.string(), identifiers: z.array(z.number()), grades: z.array(z.number()) })),
});
export type NcMarksheetModel = z.infer<typeof NcMarksheetModelSchema>;

/**
 * `GET /api/school/marks/ncmarksheet` (manage on marks, as the mark sheet): the model, or with
 * `html=1` the preview, `pdf=1` the PDF, `excel=1` the workbook, named
 * `ncmarksheet-<class>-<stream>-<year>-<term>` (the stream `all` for the whole class).
 */
export const ncMarksheetEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/marks/ncmarksheet',
  access: { action: 'manage', subject: 'mark' },
  query: NcMarksheetQuerySchema,
  response: z.union([NcMarksheetModelSchema, ReportPreviewSchema]),
  download: true,
});

/** A file name's part: letters, digits, dashes and underscores only. */
const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/** `ncmarksheet-<class>-<stream>-<year>-<term>`; the extension is the caller's. */
export function ncMarksheetFileName(report: { form: string; stream: string | null; year: number; term: string }): string {
  return `ncmarksheet-${namePart(report.form)}-${namePart(report.stream ?? 'all')}-${report.year}-${report.term}`;
}

const shown = (value: Exact | null) => (value === null ? null : toNumber(exactRound(value, 1)));

/** A graded subject as the sheet shows it (null: the learner has nothing in the subject). */
function cellOf(subjectId: string, result: NcSubjectResult | undefined): NcMarksheetCell {
  return {
    subject_id: subjectId,
    score: shown(result?.score ?? null),
    identifier: result?.identifier?.label ?? null,
    formative: shown(result?.formative ?? null),
    summative: shown(result?.summative ?? null),
    total: shown(result?.total ?? null),
    grade: result?.grade?.grade ?? null,
  };
}

export interface NcMarksheetSource {
  school: { name: string };
  report: NcMarksheetModel['report'];
  subjects: ReadonlyArray<{ id: string; name: string; code: string | null }>;
  rules: NcRules;
  learners: ReadonlyArray<{ id: string; studentid: string; fullname: string; stream: string | null; result: NcLearnerResult }>;
}

/** The sheet's model from the graded learners: their cells by subject and each subject's counts. */
export function ncMarksheetModel(source: NcMarksheetSource): NcMarksheetModel {
  const identifiers = source.rules.identifiers.map((band) => band.label);
  const grades = source.rules.grades.map((band) => band.grade);
  const learners = source.learners.map((learner) => {
    const bySubject = new Map(learner.result.subjects.map((subject) => [subject.subject_id, subject]));
    return {
      id: learner.id,
      studentid: learner.studentid,
      fullname: learner.fullname,
      stream: learner.stream,
      subjects: source.subjects.map((subject) => cellOf(subject.id, bySubject.get(subject.id))),
    };
  });
  const counts = source.subjects.map((subject, index) => {
    const cells = learners.map((learner) => learner.subjects[index] as NcMarksheetCell);
    return {
      subject_id: subject.id,
      identifiers: identifiers.map((label) => cells.filter((cell) => cell.identifier === label).length),
      grades: grades.map((grade) => cells.filter((cell) => cell.grade === grade).length),
    };
  });
  return {
    school: source.school,
    report: source.report,
    subjects: source.subjects.map((subject) => ({
      id: subject.id,
      name: subject.name,
      code: subjectCode({ subject: subject.name, code: subject.code }),
    })),
    identifiers,
    grades,
    learners,
    counts,
  };
}

/** A cell's text on the preview and the PDF: the number or label, "-" for nothing. */
export const ncMarksheetText = (value: number | string | null): string => (value === null ? NC_MARKSHEET_WORDS.none : String(value));
