import {
  classOrSchoolScope,
  classReportScope,
  gradeClass,
  previousClassTerm,
  REPORT_MESSAGES,
  type ReportScope,
  type SchoolStatisticsModel,
  STATISTICS_WORDS,
  type StatisticsModel,
  type StatisticsQuery,
  type StatLearner,
  statisticsEndpoint,
  statisticsFileName,
  statisticsRefusal,
  statisticsTables,
  statLearnersOf,
  type Term,
  type TerminalReportQuery,
} from '@mustard/shared';
import { AppError, invalid } from '../../../errors.js';
import { FileAnswer, spreadsheetAnswer } from '../../../plugins/endpoints.js';
import { SCHOOL_STATISTICS_DRAWER, STATISTICS_DRAWER } from '../document-drawers.js';
import type { DocumentDraw, KindRead, RenderContext, ReportKind } from '../pipeline/kind.js';
import type { ClassTermInputs, GradingLoad } from '../pipeline/loader.js';
import type { SourceName } from '../pipeline/sources.js';
import { gradingInputs } from '../report-model.js';
import { terminalReportInputs } from '../terminal-report.kind.js';
import { renderSchoolStatisticsHtml, renderStatisticsHtml } from './html.js';
import { schoolStatisticsWorkbook, statisticsWorkbook } from './workbook.js';

/*
 * Mark statistics as a report kind (issue 28 point 2; guide statistics.md): the terminal
 * report's inputs of the same class, stream, term, year and mark types, graded by the one grader
 * (gradeClass, as the cards are), the learners as the statistics read them (statLearnersOf), then
 * the category's pure tables (statisticsTables). Progress reads the term before as well (the
 * scope's two terms, one load) and grades it the same way. `json=1` the model, `html=1` the
 * preview, `excel=1` the workbook, else the PDF (the one document pool). An old-curriculum kind:
 * the pipeline refuses a new-curriculum class (422 on form). With no class named, the whole
 * school's classes in one pass (buildSchoolStatistics).
 */

/** The one source printed beside the grading: the subject teachers' initials. */
export const STATISTICS_SOURCES = ['initials'] as const satisfies ReadonlyArray<SourceName>;
type StatisticsSource = (typeof STATISTICS_SOURCES)[number];

/** The query of one class's statistics: the class named. */
type ClassStatisticsQuery = StatisticsQuery & { form: string };

/** The scope: the class and term; progress also the term before (in the class before, before Term I). */
export function statisticsScope(query: StatisticsQuery): ReportScope {
  if (!query.form) return schoolStatisticsScope(query);
  const scope = classReportScope({ ...query, form: query.form, category: 'exam', studentcategory_id: undefined });
  if (query.category !== 'progress') return scope;
  const before = previousClassTerm(query.form, query.term, query.year);
  return {
    ...scope,
    classes: [...new Set([before.form, query.form])],
    terms: [
      { term: before.term, year: before.year },
      { term: query.term, year: query.year },
    ],
  };
}

/**
 * A whole school's term (issue 28 point 7): no class named, the pipeline reads every class with
 * marks in one pass; progress also the term before (each class's own class before it is among them).
 */
function schoolStatisticsScope(query: StatisticsQuery): ReportScope {
  if (query.stream) throw invalid({ stream: [REPORT_MESSAGES.streamNeedsClass] });
  const scope = classOrSchoolScope({ ...query, category: 'exam', studentcategory_id: undefined });
  if (query.category !== 'progress') return scope;
  const before = previousClassTerm('', query.term, query.year);
  return { ...scope, terms: [{ term: before.term, year: before.year }, ...scope.terms] };
}

/** The terminal report's query of a class and term of the statistics': its stream and mark types, the exam's categories. */
function reportQuery(
  query: StatisticsQuery,
  where: { form: string; term: Term; year: number },
  stream: string | undefined,
): TerminalReportQuery {
  return {
    form: where.form,
    stream,
    studentcategory_id: undefined,
    student_id: undefined,
    term: where.term,
    year: where.year,
    category: 'exam',
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

const sameClassTerm = (where: { form: string; term: string; year: number }) => (inputs: ClassTermInputs) =>
  inputs.form.trim().toLowerCase() === where.form.trim().toLowerCase() && inputs.term === where.term && inputs.year === where.year;

/** Whether any learner printed (the stream's, or the class's) has a mark. */
function hasMarks(inputs: ClassTermInputs, stream: string | null | undefined): boolean {
  const printed = new Set(
    inputs.learners.filter((learner) => !stream || (learner.stream ?? '').toLowerCase() === stream.toLowerCase()).map((each) => each.id),
  );
  return inputs.marks.some((mark) => printed.has(mark.student_id));
}

/** One class and term graded as its cards are: the learners printed as the statistics read them, the subjects, the teachers. */
function gradedTerm(read: KindRead<ClassStatisticsQuery, StatisticsSource>, inputs: ClassTermInputs, query: TerminalReportQuery) {
  const load: GradingLoad = { ...read.load, classes: [inputs] };
  const card = terminalReportInputs({ query, load, sources: read.sources });
  const graded = gradeClass(card.learners, card.marks, gradingInputs(card));
  const printed = card.printed;
  const results = graded.results.filter((result) => !printed || printed.has(result.learner.id));
  const learners = statLearnersOf(graded.results, graded.positions).filter((learner) => !printed || printed.has(learner.id));
  const present = new Set(learners.flatMap((learner) => learner.subjects.map((subject) => subject.subject_id)));
  // Each subject's teacher as the cards print them: the first initials found among those printed.
  const teachers = new Map<string, string>();
  for (const result of results)
    for (const subject of result.subjects)
      if (subject.row.initials && !teachers.has(subject.row.subject_id)) teachers.set(subject.row.subject_id, subject.row.initials);
  return {
    card,
    learners,
    subjects: card.subjects
      .filter((subject) => present.has(subject.id))
      .map((subject) => ({ subject_id: subject.id, subject: subject.name })),
    teachers,
  };
}

/** The statistics of a class in one category, as read by the pipeline (pure). */
export function buildStatistics(read: KindRead<ClassStatisticsQuery, StatisticsSource>): StatisticsModel {
  const { query, load } = read;
  const current = load.classes.find(sameClassTerm(query));
  if (!current || current.learners.length === 0) throw invalid({ form: [REPORT_MESSAGES.noLearners] });
  const refusal = statisticsRefusal(query.category, current.level);
  if (refusal) throw invalid({ category: [refusal] });
  const before = query.category === 'progress' ? previousClassTerm(query.form, query.term, query.year) : null;
  const report = (markTypes: string[]): StatisticsModel['report'] => ({
    school: load.school.name,
    form: query.form,
    stream: query.stream ?? null,
    term: query.term,
    year: query.year,
    level: current.level,
    category: query.category,
    weight: query.weight,
    precision: query.precision,
    markTypes,
    previous: before,
  });
  // A class (or stream) without marks this term: the table says so, rather than a refusal.
  if (!hasMarks(current, query.stream)) {
    if (query.stream && !current.learners.some((learner) => (learner.stream ?? '').toLowerCase() === query.stream?.toLowerCase()))
      throw invalid({ stream: [REPORT_MESSAGES.noLearners] });
    return {
      report: report(current.markTypes.map((type) => type.label)),
      tables: [
        {
          key: query.category,
          title: STATISTICS_WORDS.title,
          table: { category: query.category, columns: [], rows: [], empty: REPORT_MESSAGES.noMarks },
        },
      ],
    };
  }
  const now = gradedTerm(read, current, reportQuery(query, query, query.stream ?? undefined));
  let previous: { label: string; learners: StatLearner[] | null } | undefined;
  if (before) {
    const then = load.classes.find(sameClassTerm(before));
    const label = `${before.form} ${STATISTICS_WORDS.term} ${before.term} ${before.year}`;
    previous = {
      label,
      learners: then && hasMarks(then, null) ? gradedTerm(read, then, reportQuery(query, before, undefined)).learners : null,
    };
  }
  return {
    report: report(now.card.markTypes.map((type) => type.label)),
    tables: statisticsTables({
      category: query.category,
      level: current.level,
      learners: now.learners,
      subjects: now.subjects,
      teachers: now.teachers,
      weight: query.weight,
      ...(previous ? { previous } : {}),
    }),
  };
}

const fileName = (model: StatisticsModel | SchoolStatisticsModel, extension: string) => `${statisticsFileName(model.report)}.${extension}`;

/** Whether built statistics are a whole school's. */
const isSchool = (model: StatisticsModel | SchoolStatisticsModel): model is SchoolStatisticsModel => 'classes' in model;

/**
 * A whole school's term in one category (issue 28 point 7), from one pass of the loader: each
 * class with marks that term built exactly as it is alone; a class the category does not fit (an
 * A-level table of a primary class) is named with the refusal's words rather than failing the school.
 */
export function buildSchoolStatistics(read: KindRead<StatisticsQuery, StatisticsSource>): SchoolStatisticsModel {
  const { query, load } = read;
  const leftOut: SchoolStatisticsModel['leftOut'] = (read.otherCurriculum ?? []).map((form) => ({
    form,
    reason: REPORT_MESSAGES.otherCurriculumLeftOut,
  }));
  const classes: StatisticsModel[] = [];
  for (const inputs of load.classes) {
    if (inputs.term !== query.term || inputs.year !== query.year) continue;
    try {
      classes.push(buildStatistics({ ...read, query: { ...query, form: inputs.form, stream: undefined } }));
    } catch (error) {
      const reason = error instanceof AppError && error.statusCode === 422 ? Object.values(error.errors ?? {})[0]?.[0] : undefined;
      if (reason === undefined) throw error;
      leftOut.push({ form: inputs.form, reason });
    }
  }
  if (classes.length === 0 && leftOut.length === 0) throw invalid({ term: [REPORT_MESSAGES.noClassMarks] });
  const { school } = load;
  return {
    report: {
      school: school.name,
      term: query.term,
      year: query.year,
      category: query.category,
      weight: query.weight,
      precision: query.precision,
    },
    classes,
    leftOut,
  };
}

/** The whole school's PDF, drawn in its turn of the queue, its progress a class at a time when the page follows it. */
async function drawSchool(model: SchoolStatisticsModel, context: RenderContext<StatisticsQuery>, draw: DocumentDraw) {
  const { app, tenantId, userId, query } = context;
  const progress = query.progress
    ? await app.documents.progress.start({ tenantId, userId, token: query.progress }, model.classes.length)
    : null;
  const pdf = await draw(SCHOOL_STATISTICS_DRAWER, model, progress?.update);
  await progress?.finish();
  return pdf;
}

/** The mark statistics kind: json, preview, workbook, otherwise the PDF drawn by the one document pool. */
export const statisticsKind = {
  name: 'statistics',
  curriculum: 'old',
  endpoint: statisticsEndpoint,
  scope: statisticsScope,
  sources: STATISTICS_SOURCES,
  build: (read) => {
    const form = read.query.form;
    return form ? buildStatistics({ ...read, query: { ...read.query, form } }) : buildSchoolStatistics(read);
  },
  output: (query) => (query.json ? 'json' : query.html ? 'html' : query.excel ? 'xlsx' : 'pdf'),
  render: {
    json: async (model) => model,
    html: async (model) => ({ html: isSchool(model) ? renderSchoolStatisticsHtml(model) : renderStatisticsHtml(model) }),
    xlsx: async (model) =>
      spreadsheetAnswer(fileName(model, 'xlsx'), await (isSchool(model) ? schoolStatisticsWorkbook(model) : statisticsWorkbook(model))),
    pdf: async (model, context, draw) =>
      new FileAnswer(
        fileName(model, 'pdf'),
        'application/pdf',
        isSchool(model) ? await drawSchool(model, context, draw) : await draw(STATISTICS_DRAWER, model),
      ),
  },
} satisfies ReportKind<typeof statisticsEndpoint, StatisticsModel | SchoolStatisticsModel, StatisticsSource>;
