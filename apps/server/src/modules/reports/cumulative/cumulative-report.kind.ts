import {
  CUMULATIVE_WORDS,
  type CumulativeReportQuery,
  classReportScope,
  cumulativeReportEndpoint,
  type GradedClass,
  gradeClass,
  type ReportLayout,
  type ReportModel,
  type ReportSection,
  SUBJECT_COLUMNS,
  type TerminalReportQuery,
} from '@mustard/shared';
import type { KindRead, ReportKind } from '../pipeline/kind.js';
import { buildReportModel, gradingInputs, type ReportInputs, type ReportLearnerRow } from '../report-model.js';
import {
  REPORT_CARD_RENDERERS,
  TERMINAL_REPORT_SOURCES,
  type TerminalReport,
  type TerminalReportSource,
  terminalReportInputs,
} from '../terminal-report.kind.js';

/*
 * The cumulative report as a report kind (issue 28 point 3; statistics.md "Cumulative report"):
 * the terminal report of the ticked mark types, read by the same pipeline and built by the same
 * model (report-model.ts), each mark type its own column side by side, then the column that
 * combines them with the proportions, titled by the person's Label (AVERAGE, FINAL), graded by
 * the one grader (gradeClass: the combined mark is graded, never the grades averaged), then the
 * grade, the grade points, the subject teacher's remark and initials; under the table the total,
 * average, aggregate or division (points at A level), position and the remarks. Drawn by the
 * card's own renderers (preview, PDF through the document pool). An old-curriculum kind: the
 * pipeline refuses a new-curriculum class (422 on form).
 */

/** The terminal report's query of the cumulative report's: the same learners, term and mark types, each mark type its own column. */
export function cumulativeTerminalQuery(query: CumulativeReportQuery): TerminalReportQuery {
  return {
    form: query.form,
    stream: query.stream,
    studentcategory_id: undefined,
    student_id: query.student_id,
    term: query.term,
    year: query.year,
    category: query.category,
    marktype_id: query.marktype_id,
    'marktype_ids[]': query['marktype_ids[]'],
    marktype_ids: query.marktype_ids,
    rawmark: false,
    separate: true,
    label: undefined,
    json: query.json,
    html: query.html,
    progress: query.progress,
  };
}

/**
 * The school's card layout as the cumulative report prints it: every column of the subject table
 * (the mark types, the combined column, grade, points, remark, initials) and always the summary
 * and the remarks under it; the school's header lines, photos, positions and other sections kept.
 */
export function cumulativeLayout(layout: ReportLayout): ReportLayout {
  const sections: ReportSection[] = [...layout.sections];
  let after: ReportSection = 'subjects';
  for (const needed of ['summary', 'remarks'] as const) {
    if (!sections.includes(needed)) sections.splice(sections.indexOf(after) + 1, 0, needed);
    after = needed;
  }
  return { ...layout, sections, columns: [...SUBJECT_COLUMNS] };
}

/**
 * Each printed subject's grade points: at A level the subject's points as the card has them; at
 * the other levels the grade value of the combined mark's grade (D1 1 .. F9 9), as the one grader
 * gave it (an ABS or ungraded subject has none). Pure.
 */
export function withGradePoints(model: ReportModel, graded: GradedClass<ReportLearnerRow>): ReportModel {
  const values = new Map(
    graded.results.map((result) => [
      result.learner.id,
      new Map(result.subjects.map((subject) => [subject.row.subject_id, subject.graded.value])),
    ]),
  );
  return {
    ...model,
    learners: model.learners.map((learner) => ({
      ...learner,
      subjects: learner.subjects.map((subject) => {
        const value = values.get(learner.id)?.get(subject.subject_id);
        return { ...subject, points: subject.points ?? (typeof value === 'number' ? value : null) };
      }),
    })),
  };
}

type CumulativeRead = KindRead<CumulativeReportQuery, TerminalReportSource>;

/** The cumulative report of what the pipeline read (pure): the card's inputs and model, its title, Label and grade points. */
export function buildCumulativeReport(read: CumulativeRead): TerminalReport {
  const { query } = read;
  const card = terminalReportInputs({ ...read, query: cumulativeTerminalQuery(query) });
  const inputs: ReportInputs = {
    ...card,
    report: { ...card.report, label: CUMULATIVE_WORDS.title, combined: query.label ?? CUMULATIVE_WORDS.combined },
    layout: cumulativeLayout(card.layout),
  };
  // Graded once: the model and the grade points read the same graded class.
  const graded = gradeClass(inputs.learners, inputs.marks, gradingInputs(inputs));
  return {
    model: withGradePoints(buildReportModel(inputs, graded), graded),
    layout: inputs.layout,
    photoFiles: inputs.photoFiles,
    logoFile: inputs.logoFile,
  };
}

/** The cumulative report kind: the card's sources, the cumulative model, the card's renderers. */
export const cumulativeReportKind = {
  name: 'cumulative-report',
  curriculum: 'old',
  endpoint: cumulativeReportEndpoint,
  scope: (query: CumulativeReportQuery) => classReportScope({ ...query, studentcategory_id: undefined }),
  sources: TERMINAL_REPORT_SOURCES,
  build: buildCumulativeReport,
  output: (query) => (query.json ? 'json' : query.html ? 'html' : 'pdf'),
  render: REPORT_CARD_RENDERERS,
} satisfies ReportKind<typeof cumulativeReportEndpoint, TerminalReport, TerminalReportSource>;
