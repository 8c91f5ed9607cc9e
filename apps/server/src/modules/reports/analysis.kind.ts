import {
  type AnalysisModel,
  type AnalysisQuery,
  analysisEndpoint,
  classReportScope,
  escapeHtml,
  gradeClass,
  REPORT_MESSAGES,
  resultAnalysis,
  type TerminalReportQuery,
} from '@mustard/shared';
import { invalid } from '../../errors.js';
import type { KindRead, ReportKind } from './pipeline/kind.js';
import type { SourceName } from './pipeline/sources.js';
import { gradingInputs } from './report-model.js';
import { terminalReportInputs } from './terminal-report.kind.js';

/*
 * The result analysis as a report kind (issue 28 point 1; guide statistics.md "Result
 * analysis"): the terminal report's inputs of the same query, graded by the one grader
 * (gradeClass, as the cards are), then the pure analysis of shared/reports/analysis.ts. `json=1`
 * the model, `html=1` the preview; a PDF is refused (422) until it is drawn. An old-curriculum
 * kind: the pipeline refuses a new-curriculum class (422 on form).
 */

/** The one source printed beside the grading: the subject teachers' initials. */
export const ANALYSIS_SOURCES = ['initials'] as const satisfies ReadonlyArray<SourceName>;
type AnalysisSource = (typeof ANALYSIS_SOURCES)[number];

/** The terminal report's query of the analysis's: the same class, stream, term, year and mark types. */
export function analysisReportQuery(query: AnalysisQuery): TerminalReportQuery {
  return {
    form: query.form,
    stream: query.stream,
    studentcategory_id: undefined,
    student_id: undefined,
    term: query.term,
    year: query.year,
    category: query.category,
    marktype_id: query.marktype_id,
    'marktype_ids[]': query['marktype_ids[]'],
    marktype_ids: query.marktype_ids,
    rawmark: false,
    separate: false,
    label: undefined,
    json: true,
    html: false,
    progress: undefined,
  };
}

/** How each column is computed (statistics.md), by column name. */
const EXPLAIN: AnalysisModel['explain'] = {
  sat: 'learners with a grade in the subject (ABS and missing marks left out)',
  absent: 'learners marked ABS in the subject: never a fail nor 0',
  distinction: '% of those who sat with a grade value at most 2 (D1-D2)',
  credit: "% of those who sat with a grade value at most the rules' credit limit (to C6)",
  pass: "% of those who sat with a grade value at most the rules' pass limit (to P8)",
  fail: "% of those who sat with a grade value above the rules' pass limit",
  meanMark: 'sum of the subject marks / N sat',
  meanGradePoint: 'sum of the grade values / N sat (lower is better)',
  performanceIndex: 'sum(worst - g) / (N sat * (worst - best)) * 100 over the grade values g',
  position: 'rank by mean grade point, lower better; ties share a rank',
};

/** The analysis of a class as read by the pipeline (pure). */
export function buildAnalysis(read: KindRead<AnalysisQuery, AnalysisSource>): AnalysisModel {
  const { query } = read;
  const inputs = terminalReportInputs({ ...read, query: analysisReportQuery(query) });
  const graded = gradeClass(inputs.learners, inputs.marks, gradingInputs(inputs));
  const analysis = resultAnalysis(graded, {
    rules: inputs.rules,
    subjects: inputs.subjects,
    level: inputs.report.level,
    only: inputs.printed,
  });
  return {
    report: {
      form: query.form,
      stream: query.stream ?? null,
      term: query.term,
      year: query.year,
      level: inputs.report.level,
      precision: query.precision,
      markTypes: inputs.markTypes.map((type) => type.label),
    },
    ...analysis,
    explain: EXPLAIN,
  };
}

/** The analysis's words (a school document, in the school's language as the cards are). */
const WORDS = {
  title: 'RESULT ANALYSIS',
  subject: 'Subject',
  sat: 'Sat',
  absent: 'ABS',
  distinction: '% Dist.',
  credit: '% Credit+',
  pass: '% Pass+',
  fail: '% Fail',
  meanMark: 'Mean mark',
  meanGradePoint: 'Mean GP',
  performanceIndex: 'Index %',
  position: 'Pos.',
  teacher: 'Teacher',
  boys: 'Boys',
  girls: 'Girls',
  sexes: 'Boys and girls',
  division: 'Division',
  learners: 'Learners',
  divisions: 'Division summary',
} as const;

/** A number shown with the query's decimals (display only), '-' without one. */
const shown = (value: number | null, precision: number) => (value === null ? '-' : value.toFixed(precision));

/** The preview: one HTML document, every text of the school escaped. */
export function renderAnalysisHtml(model: AnalysisModel): string {
  const { report, subjects, grades, divisions, explain } = model;
  const p = report.precision;
  const th = (label: string, key?: string) =>
    `<th${key && explain[key] ? ` title="${escapeHtml(explain[key] ?? '')}"` : ''}>${escapeHtml(label)}</th>`;
  const td = (value: string) => `<td>${escapeHtml(value)}</td>`;
  const head = [
    th(WORDS.subject),
    th(WORDS.sat, 'sat'),
    th(WORDS.absent, 'absent'),
    ...grades.map((grade) => th(grade)),
    th(WORDS.distinction, 'distinction'),
    th(WORDS.credit, 'credit'),
    th(WORDS.pass, 'pass'),
    th(WORDS.fail, 'fail'),
    th(WORDS.meanMark, 'meanMark'),
    th(WORDS.meanGradePoint, 'meanGradePoint'),
    th(WORDS.performanceIndex, 'performanceIndex'),
    th(WORDS.position, 'position'),
    th(WORDS.teacher),
  ].join('');
  const rows = subjects
    .map((row) =>
      [
        td(row.subject),
        td(String(row.sat)),
        td(String(row.absent)),
        ...grades.map((grade) => td(String(row.grades[grade] ?? 0))),
        td(shown(row.distinction, p)),
        td(shown(row.credit, p)),
        td(shown(row.pass, p)),
        td(shown(row.fail, p)),
        td(shown(row.meanMark, p)),
        td(shown(row.meanGradePoint, p)),
        td(shown(row.performanceIndex, p)),
        td(row.position === null ? '-' : String(row.position)),
        td(row.teacher ?? ''),
      ].join(''),
    )
    .map((cells) => `<tr>${cells}</tr>`)
    .join('');
  const sexRows = subjects
    .map(
      (row) =>
        `<tr>${td(row.subject)}${td(String(row.boys.sat))}${td(shown(row.boys.meanMark, p))}${td(shown(row.boys.meanGradePoint, p))}${td(String(row.girls.sat))}${td(shown(row.girls.meanMark, p))}${td(shown(row.girls.meanGradePoint, p))}</tr>`,
    )
    .join('');
  const sexHead = `<tr>${th(WORDS.subject)}${th(`${WORDS.boys} ${WORDS.sat}`)}${th(`${WORDS.boys} ${WORDS.meanMark}`)}${th(`${WORDS.boys} ${WORDS.meanGradePoint}`)}${th(`${WORDS.girls} ${WORDS.sat}`)}${th(`${WORDS.girls} ${WORDS.meanMark}`)}${th(`${WORDS.girls} ${WORDS.meanGradePoint}`)}</tr>`;
  const divisionTable = divisions
    ? `<h3>${WORDS.divisions}</h3><table><tr>${th(WORDS.division)}${divisions.map((each) => th(each.division)).join('')}</tr><tr>${td(WORDS.learners)}${divisions.map((each) => td(String(each.count))).join('')}</tr></table>`
    : '';
  const title = `${report.form}${report.stream ? ` ${report.stream}` : ''} · ${report.term} ${report.year}`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(WORDS.title)}</title><style>
body{margin:0;padding:12px;font:12px/1.3 "DejaVu Sans",Arial,sans-serif;color:#111}
table{border-collapse:collapse;margin:6px 0 12px}th,td{border:1px solid #999;padding:2px 4px;text-align:center}
th{background:#e8e8e8}th[title]{cursor:help}h1{font-size:16px;margin:0}h3{font-size:13px;margin:10px 0 2px}
</style></head><body><h1>${escapeHtml(WORDS.title)}</h1><p>${escapeHtml(title)}</p>
<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>
<h3>${WORDS.sexes}</h3><table>${sexHead}${sexRows}</table>${divisionTable}</body></html>`;
}

/** The result analysis kind: json and html; a PDF request is refused until it is drawn. */
export const analysisKind = {
  name: 'analysis',
  curriculum: 'old',
  endpoint: analysisEndpoint,
  scope: (query: AnalysisQuery) => classReportScope({ ...query, studentcategory_id: undefined }),
  sources: ANALYSIS_SOURCES,
  build: buildAnalysis,
  output: (query) => {
    if (query.json) return 'json';
    if (query.html) return 'html';
    throw invalid({ pdf: [REPORT_MESSAGES.analysisPdfLater] });
  },
  render: {
    json: async (model) => model,
    html: async (model) => ({ html: renderAnalysisHtml(model) }),
  },
} satisfies ReportKind<typeof analysisEndpoint, AnalysisModel, AnalysisSource>;
