import {
  ANALYSIS_WORDS,
  type AnalysisModel,
  type AnalysisQuery,
  analysisChartsHtml,
  analysisEndpoint,
  analysisNumber,
  classOrSchoolScope,
  classSummary,
  escapeHtml,
  gradeClass,
  REPORT_MESSAGES,
  resultAnalysis,
  type SchoolAnalysisModel,
  schoolAnalysisChartsHtml,
  TERMS,
  type TerminalReportQuery,
} from '@mustard/shared';
import type { TenantTx } from '../../db/tenant.js';
import { AppError, invalid } from '../../errors.js';
import { FileAnswer, spreadsheetAnswer } from '../../plugins/endpoints.js';
import { classTermKey } from '../students/class-learners.repository.js';
import { analysisWorkbook, schoolAnalysisWorkbook } from './analysis-workbook.js';
import { ANALYSIS_DRAWER, SCHOOL_ANALYSIS_DRAWER } from './document-drawers.js';
import { buildNcAnalysis } from './nc-analysis/build.js';
import { ncAnalysisSectionHtml, renderNcAnalysisHtml } from './nc-analysis/html.js';
import { type DocumentDraw, type KindRead, type RenderContext, type ReportKind, readKind } from './pipeline/kind.js';
import type { ClassTermInputs } from './pipeline/loader.js';
import type { SourceName } from './pipeline/sources.js';
import { gradingInputs } from './report-model.js';
import { terminalReportInputs } from './terminal-report.kind.js';

/*
 * The result analysis as a report kind (issue 28 point 1; guide statistics.md "Result
 * analysis"): the terminal report's inputs of the same query, graded by the one grader
 * (gradeClass, as the cards are), then the pure analysis of shared/reports/analysis.ts. `json=1`
 * the model, `html=1` the preview, else the PDF (the one document pool). An old-curriculum
 * kind that answers a class on the new curriculum that year too, with that curriculum's analysis
 * (grades A..E and identifiers, no divisions: nc-analysis/, from the `newCurriculumIfNew` source).
 * `excel=1` the same tables as a workbook (analysis-workbook.ts).
 */

/** The sources beside the grading: the subject teachers' initials, and a new-curriculum class's inputs. */
export const ANALYSIS_SOURCES = ['initials', 'newCurriculumIfNew'] as const satisfies ReadonlyArray<SourceName>;
type AnalysisSource = (typeof ANALYSIS_SOURCES)[number];

/** The query of one class's analysis: the class named. */
type ClassAnalysisQuery = AnalysisQuery & { form: string };

/** The terminal report's query of the analysis's: the same class, stream, term, year and mark types. */
export function analysisReportQuery(query: ClassAnalysisQuery): TerminalReportQuery {
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

/** A part of a file name: letters, digits, dashes and underscores only (a class "S.5" is "S_5"). */
const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/** `analysis-<class>-<stream>-<year>-<term>.pdf` or `.xlsx` (spec §9); a whole class of several streams is "all". */
export function analysisFileName(
  report: { form: string; stream: string | null; year: number; term: string },
  extension: 'pdf' | 'xlsx' = 'pdf',
): string {
  return `analysis-${namePart(report.form)}-${namePart(report.stream ?? 'all')}-${report.year}-${report.term}.${extension}`;
}

/** The earlier terms of the year a class's analysis draws its trend from, each read as that term's analysis reads it. */
type EarlierTerms = Array<KindRead<ClassAnalysisQuery, AnalysisSource>>;

/**
 * The terms of the year before the one analysed (a class alone, issue 28 point 6: the trend of
 * the class mean and Division I across terms), each read by the same pipeline in the action's
 * transaction; a term without marks is left out. Nothing for a whole school, nor a class on the
 * new curriculum (its analysis has no divisions).
 */
async function readEarlierTerms(tx: TenantTx, read: KindRead<AnalysisQuery, AnalysisSource>): Promise<EarlierTerms> {
  const { query } = read;
  const form = query.form;
  if (
    !form ||
    read.load.classes.length === 0 ||
    read.sources.get(classTermKey(read.load.classes[0] as ClassTermInputs))?.newCurriculumIfNew
  )
    return [];
  const earlier: EarlierTerms = [];
  for (const term of TERMS.slice(0, TERMS.indexOf(query.term))) {
    const each = { ...query, form, term };
    const before = await readKind(tx, analysisKind, each);
    if (before.load.classes.some((inputs) => inputs.marks.length > 0)) earlier.push({ ...before, query: each });
  }
  return earlier;
}

/** A term's point of the trend: its analysis's mean of subject means and share in Division I. */
function trendPoint(model: AnalysisModel) {
  const means = model.subjects.flatMap((row) => (row.meanMark === null ? [] : [row.meanMark]));
  return {
    term: model.report.term,
    year: model.report.year,
    meanMark: means.length === 0 ? null : means.reduce((sum, value) => sum + value, 0) / means.length,
    divisionOne: classSummary(model).divisionOne,
  };
}

/** A class's analysis with its trend over the year's earlier terms (each built exactly as alone). */
function buildClassAnalysis(read: KindRead<ClassAnalysisQuery, AnalysisSource> & { more?: EarlierTerms }): AnalysisModel {
  const model = buildAnalysis(read);
  if (model.newCurriculum || !read.more || read.more.length === 0) return model;
  const earlier = read.more.flatMap((each) => {
    try {
      return [trendPoint(buildAnalysis(each))];
    } catch (error) {
      // A term the query cannot analyse (no marks of these types then) is not a point of the trend.
      if (error instanceof AppError && error.statusCode === 422) return [];
      throw error;
    }
  });
  return { ...model, trend: [...earlier, trendPoint(model)] };
}

/** The analysis of a class as read by the pipeline (pure). */
export function buildAnalysis(read: KindRead<ClassAnalysisQuery, AnalysisSource>): AnalysisModel {
  const { query } = read;
  // A class on the new curriculum that year: its own analysis (grades A..E and identifiers).
  const newCurriculum = buildNcAnalysis(read);
  if (newCurriculum) return newCurriculum;
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
      school: inputs.school.name,
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

/** The preview: one HTML document, every text of the school escaped. */
export function renderAnalysisHtml(model: AnalysisModel): string {
  if (model.newCurriculum) return renderNcAnalysisHtml(model);
  return analysisDocument(analysisSectionHtml(model));
}

/** The preview's document around its body: the tables' style, the title. */
export function analysisDocument(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(ANALYSIS_WORDS.title)}</title><style>
body{margin:0;padding:12px;font:12px/1.3 "DejaVu Sans",Arial,sans-serif;color:#111}
table{border-collapse:collapse;margin:6px 0 12px}th,td{border:1px solid #999;padding:2px 4px;text-align:center}
th{background:#e8e8e8}th[title]{cursor:help}h1{font-size:16px;margin:0}h2{font-size:14px;margin:0 0 2px}h3{font-size:13px;margin:10px 0 2px}
section[data-curriculum="new"] p{margin:2px 0}section[data-curriculum="new"] td:first-child{text-align:left}
section+section{margin-top:24px;border-top:2px solid #999;padding-top:12px}@media print{section+section{break-before:page}}
</style></head><body>${body}</body></html>`;
}

/** A class's analysis as a part of a document: its heading and tables (alone, or one class of a whole school's). */
export function analysisSectionHtml(model: AnalysisModel): string {
  const { report, subjects, grades, divisions, explain } = model;
  const p = report.precision;
  const th = (label: string, key?: string) =>
    `<th${key && explain[key] ? ` title="${escapeHtml(explain[key] ?? '')}"` : ''}>${escapeHtml(label)}</th>`;
  const td = (value: string) => `<td>${escapeHtml(value)}</td>`;
  const head = [
    th(ANALYSIS_WORDS.subject),
    th(ANALYSIS_WORDS.sat, 'sat'),
    th(ANALYSIS_WORDS.absent, 'absent'),
    ...grades.map((grade) => th(grade)),
    th(ANALYSIS_WORDS.distinction, 'distinction'),
    th(ANALYSIS_WORDS.credit, 'credit'),
    th(ANALYSIS_WORDS.pass, 'pass'),
    th(ANALYSIS_WORDS.fail, 'fail'),
    th(ANALYSIS_WORDS.meanMark, 'meanMark'),
    th(ANALYSIS_WORDS.meanGradePoint, 'meanGradePoint'),
    th(ANALYSIS_WORDS.performanceIndex, 'performanceIndex'),
    th(ANALYSIS_WORDS.position, 'position'),
    th(ANALYSIS_WORDS.teacher),
  ].join('');
  const rows = subjects
    .map((row) =>
      [
        td(row.subject),
        td(String(row.sat)),
        td(String(row.absent)),
        ...grades.map((grade) => td(String(row.grades[grade] ?? 0))),
        td(analysisNumber(row.distinction, p)),
        td(analysisNumber(row.credit, p)),
        td(analysisNumber(row.pass, p)),
        td(analysisNumber(row.fail, p)),
        td(analysisNumber(row.meanMark, p)),
        td(analysisNumber(row.meanGradePoint, p)),
        td(analysisNumber(row.performanceIndex, p)),
        td(row.position === null ? '-' : String(row.position)),
        td(row.teacher ?? ''),
      ].join(''),
    )
    .map((cells) => `<tr>${cells}</tr>`)
    .join('');
  const sexRows = subjects
    .map(
      (row) =>
        `<tr>${td(row.subject)}${td(String(row.boys.sat))}${td(analysisNumber(row.boys.meanMark, p))}${td(analysisNumber(row.boys.meanGradePoint, p))}${td(String(row.girls.sat))}${td(analysisNumber(row.girls.meanMark, p))}${td(analysisNumber(row.girls.meanGradePoint, p))}</tr>`,
    )
    .join('');
  const sexHead = `<tr>${th(ANALYSIS_WORDS.subject)}${th(`${ANALYSIS_WORDS.boys} ${ANALYSIS_WORDS.sat}`)}${th(`${ANALYSIS_WORDS.boys} ${ANALYSIS_WORDS.meanMark}`)}${th(`${ANALYSIS_WORDS.boys} ${ANALYSIS_WORDS.meanGradePoint}`)}${th(`${ANALYSIS_WORDS.girls} ${ANALYSIS_WORDS.sat}`)}${th(`${ANALYSIS_WORDS.girls} ${ANALYSIS_WORDS.meanMark}`)}${th(`${ANALYSIS_WORDS.girls} ${ANALYSIS_WORDS.meanGradePoint}`)}</tr>`;
  const divisionTable = divisions
    ? `<h3>${ANALYSIS_WORDS.divisions}</h3><table><tr>${th(ANALYSIS_WORDS.division)}${divisions.map((each) => th(each.division)).join('')}</tr><tr>${td(ANALYSIS_WORDS.learners)}${divisions.map((each) => td(String(each.count))).join('')}</tr></table>`
    : '';
  const title = `${report.form}${report.stream ? ` ${report.stream}` : ''} · ${report.term} ${report.year}`;
  return `<section><h1>${escapeHtml(ANALYSIS_WORDS.title)}</h1><p>${escapeHtml(title)}</p>
<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>
<h3>${ANALYSIS_WORDS.sexes}</h3><table>${sexHead}${sexRows}</table>${divisionTable}${analysisChartsHtml(model)}</section>`;
}

/** The analysis's scope: a class, or with none named the whole school's term (a stream needs its class). */
export function analysisScope(query: AnalysisQuery) {
  if (!query.form && query.stream) throw invalid({ stream: [REPORT_MESSAGES.streamNeedsClass] });
  return classOrSchoolScope({ ...query, studentcategory_id: undefined });
}

/** Whether a built analysis is a whole school's. */
export const isSchool = (model: AnalysisModel | SchoolAnalysisModel): model is SchoolAnalysisModel => 'classes' in model;

/** `analysis-all-<year>-<term>`: a whole school's term. */
export const schoolAnalysisFileName = (report: { year: number; term: string }, extension: 'pdf' | 'xlsx') =>
  `analysis-all-${report.year}-${report.term}.${extension}`;

/**
 * A whole school's term (issue 28 point 7), from one pass of the loader over every class with
 * marks: each class analysed exactly as it is alone (the same build on its own inputs: a class on
 * the new curriculum gets its own analysis), and a summary line per class. A class without marks
 * of the chosen types, or that the query cannot analyse (a new-curriculum class without its one
 * summative exam chosen), is named with the reason rather than failing the whole school.
 */
export function buildSchoolAnalysis(read: KindRead<AnalysisQuery, AnalysisSource>): SchoolAnalysisModel {
  const { query, load } = read;
  const leftOut: SchoolAnalysisModel['leftOut'] = (read.otherCurriculum ?? []).map((form) => ({
    form,
    reason: REPORT_MESSAGES.otherCurriculumLeftOut,
  }));
  const classes: AnalysisModel[] = [];
  for (const inputs of load.classes) {
    if (inputs.learners.length === 0 || inputs.marks.length === 0) {
      leftOut.push({ form: inputs.form, reason: REPORT_MESSAGES.classWithoutMarks });
      continue;
    }
    try {
      classes.push(
        buildAnalysis({ ...read, query: { ...query, form: inputs.form, stream: undefined }, load: { ...load, classes: [inputs] } }),
      );
    } catch (error) {
      // A class this query cannot analyse (a new-curriculum class needs its one summative exam) is named with why.
      const reason = error instanceof AppError && error.statusCode === 422 ? Object.values(error.errors ?? {})[0]?.[0] : undefined;
      if (reason === undefined) throw error;
      leftOut.push({ form: inputs.form, reason });
    }
  }
  if (classes.length === 0) throw invalid({ term: [REPORT_MESSAGES.noClassMarks] });
  return {
    report: {
      school: load.school.name,
      term: query.term,
      year: query.year,
      precision: query.precision,
      markTypes: [...new Set(classes.flatMap((each) => each.report.markTypes))],
    },
    summary: classes.map((each) => {
      const { withResult: _counted, ...summary } = classSummary(each);
      return { form: each.report.form, ...summary };
    }),
    classes,
    leftOut,
  };
}

/** The whole school's preview: the summary of classes, the classes left out, then each class's analysis. */
export function renderSchoolAnalysisHtml(model: SchoolAnalysisModel): string {
  const { report, summary, classes, leftOut } = model;
  const p = report.precision;
  const cell = (value: string, tag = 'td') => `<${tag}>${escapeHtml(value)}</${tag}>`;
  const divisionNames = [...new Set(summary.flatMap((row) => (row.divisions ?? []).map((each) => each.division)))];
  const head = [ANALYSIS_WORDS.class, ANALYSIS_WORDS.learners, ...divisionNames, ANALYSIS_WORDS.divisionOne, ANALYSIS_WORDS.meanGradePoint]
    .map((word) => cell(word, 'th'))
    .join('');
  const rows = summary
    .map((row) => {
      const count = (name: string) => row.divisions?.find((each) => each.division === name)?.count;
      return `<tr>${[
        row.form,
        String(row.learners),
        ...divisionNames.map((name) => String(count(name) ?? '-')),
        analysisNumber(row.divisionOne, p),
        analysisNumber(row.meanGradePoint, p),
      ]
        .map((value) => cell(value))
        .join('')}</tr>`;
    })
    .join('');
  const left = leftOut.length
    ? `<h3>${escapeHtml(ANALYSIS_WORDS.leftOut)}</h3><table>${leftOut.map((each) => `<tr>${cell(each.form)}${cell(each.reason)}</tr>`).join('')}</table>`
    : '';
  const heading = `<section><h1>${escapeHtml(ANALYSIS_WORDS.title)} · ${escapeHtml(ANALYSIS_WORDS.allClasses)}</h1><p>${escapeHtml(`${report.school} · ${report.term} ${report.year}`)}</p>
<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>${left}${schoolAnalysisChartsHtml(model)}</section>`;
  return analysisDocument(
    heading + classes.map((each) => (each.newCurriculum ? ncAnalysisSectionHtml(each) : analysisSectionHtml(each))).join(''),
  );
}

/** The whole school's PDF, drawn in its turn of the queue, its progress a class at a time when the page follows it. */
async function drawSchoolAnalysis(model: SchoolAnalysisModel, context: RenderContext<AnalysisQuery>, draw: DocumentDraw) {
  const { app, tenantId, userId, query } = context;
  const progress = query.progress
    ? await app.documents.progress.start({ tenantId, userId, token: query.progress }, model.classes.length)
    : null;
  const pdf = await draw(SCHOOL_ANALYSIS_DRAWER, model, progress?.update);
  await progress?.finish();
  return pdf;
}

/** The result analysis kind: json, html, else the PDF drawn by the one document pool. */
export const analysisKind = {
  name: 'analysis',
  curriculum: 'old',
  answersNewCurriculum: true,
  endpoint: analysisEndpoint,
  scope: analysisScope,
  sources: ANALYSIS_SOURCES,
  readMore: readEarlierTerms,
  build: (read) => {
    const form = read.query.form;
    return form ? buildClassAnalysis({ ...read, query: { ...read.query, form } }) : buildSchoolAnalysis(read);
  },
  output: (query) => (query.json ? 'json' : query.html ? 'html' : query.excel ? 'xlsx' : 'pdf'),
  render: {
    json: async (model) => model,
    html: async (model) => ({ html: isSchool(model) ? renderSchoolAnalysisHtml(model) : renderAnalysisHtml(model) }),
    xlsx: async (model) =>
      isSchool(model)
        ? spreadsheetAnswer(schoolAnalysisFileName(model.report, 'xlsx'), await schoolAnalysisWorkbook(model))
        : spreadsheetAnswer(analysisFileName(model.report, 'xlsx'), await analysisWorkbook(model)),
    pdf: async (model, context, draw) =>
      isSchool(model)
        ? new FileAnswer(schoolAnalysisFileName(model.report, 'pdf'), 'application/pdf', await drawSchoolAnalysis(model, context, draw))
        : new FileAnswer(analysisFileName(model.report), 'application/pdf', await draw(ANALYSIS_DRAWER, model)),
  },
} satisfies ReportKind<typeof analysisEndpoint, AnalysisModel | SchoolAnalysisModel, AnalysisSource, EarlierTerms>;
