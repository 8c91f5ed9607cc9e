import {
  ALEVEL_LETTERS,
  classReportScope,
  type MarksheetCounts,
  type MarksheetOrder,
  type MarksheetQuerySchema,
  type MarksheetTable,
  marksheetCounts,
  marksheetEndpoint,
  marksheetFileName,
  marksheetTable,
  type ReportModel,
  type TerminalReportQuery,
} from '@mustard/shared';
import type { z } from 'zod';
import { FileAnswer, spreadsheetAnswer } from '../../../plugins/endpoints.js';
import { MARKSHEET_DRAWER } from '../document-drawers.js';
import type { KindRead, ReportKind } from '../pipeline/kind.js';
import type { SourceName } from '../pipeline/sources.js';
import { buildReportModel, type ReportInputs } from '../report-model.js';
import { terminalReportInputs } from '../terminal-report.kind.js';
import { renderMarksheetHtml } from './html.js';
import { marksheetWorkbook } from './workbook.js';

/*
 * The mark sheet as a report kind: the report cards' inputs and model (one grading path), the
 * school's order of grades and divisions for the counts, and its three renderers. Nothing here
 * grades or ranks.
 */

/** The one source the sheet prints beside its grading: the class's grade key. */
export const MARKSHEET_SOURCES = ['gradeKey'] as const satisfies ReadonlyArray<SourceName>;
type MarksheetSource = (typeof MARKSHEET_SOURCES)[number];

export type MarksheetQuery = z.output<typeof MarksheetQuerySchema>;

/** The report's filter for the sheet's: the class's learners with their totals, weighted as the report cards are. */
export function reportQueryOf(query: MarksheetQuery): TerminalReportQuery {
  return {
    form: query.form,
    stream: query.stream,
    studentcategory_id: query.studentcategory_id,
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
    json: false,
    html: false,
    progress: undefined,
  };
}

const unique = (list: readonly string[]) => [...new Set(list)];

/**
 * The grades and divisions the counts show, best first: the grades of the class's grade sets
 * (by their lower bound, highest first), at A level the subject letters before them; the
 * divisions of the school's rules, then the division of all else (and of a missing mark).
 */
export function marksheetOrder(inputs: ReportInputs): MarksheetOrder {
  const bands = [...inputs.bands.values()].flat().sort((a, b) => b.lower - a.lower);
  const ruleGrades = [...inputs.rules.grades.values].sort((a, b) => a.value - b.value).map((grade) => grade.label);
  const gradeLabels = unique(bands.length > 0 ? bands.map((band) => band.grade) : ruleGrades);
  const { level } = inputs.report;
  if (level === 'alevel') return { grades: [...ALEVEL_LETTERS], gradeOrder: gradeLabels };
  if (level === 'primary') {
    const { divisions, otherwise, noMark } = inputs.rules.primary;
    return { grades: gradeLabels, divisions: unique([...divisions.map((each) => each.division), otherwise, noMark]) };
  }
  if (level === 'olevel') {
    const { divisions, otherwise } = inputs.rules.olevel;
    return { grades: gradeLabels, divisions: unique([...divisions.map((each) => each.division), otherwise]) };
  }
  return { grades: gradeLabels };
}

/** The built sheet: the class's model, its table and its counts. */
export interface Marksheet {
  model: ReportModel;
  table: MarksheetTable;
  counts: MarksheetCounts;
}

const fileName = (model: ReportModel, extension: string) => `${marksheetFileName(model.report)}.${extension}`;

/**
 * The mark sheet kind (issue 15 point 7, issue 25 point 4): the class's graded results as the
 * cards have them, with the one source it prints (the grade key): no remarks, footers,
 * attendance, photos or fees are read. The preview (`html=1`), the PDF (`pdf=1`, the one
 * document pool) or else the workbook, each named `marksheet-<class>-<stream>-<year>-<term>`.
 */
export const marksheetKind = {
  name: 'marksheet',
  curriculum: 'old',
  endpoint: marksheetEndpoint,
  scope: classReportScope,
  sources: MARKSHEET_SOURCES,
  build(read: KindRead<MarksheetQuery, MarksheetSource>): Marksheet {
    const inputs = terminalReportInputs({ ...read, query: reportQueryOf(read.query) });
    const model = buildReportModel(inputs);
    return { model, table: marksheetTable(model), counts: marksheetCounts(model, marksheetOrder(inputs)) };
  },
  output: (query) => (query.pdf && !query.html ? 'pdf' : query.html ? 'html' : 'xlsx'),
  render: {
    html: async ({ model, table, counts }) => ({ html: renderMarksheetHtml(model, table, counts) }),
    xlsx: async ({ model, table, counts }) => spreadsheetAnswer(fileName(model, 'xlsx'), await marksheetWorkbook(model, table, counts)),
    pdf: async ({ model, table, counts }, _context, draw) =>
      new FileAnswer(fileName(model, 'pdf'), 'application/pdf', await draw(MARKSHEET_DRAWER, { model, table, counts })),
  },
} satisfies ReportKind<typeof marksheetEndpoint, Marksheet, MarksheetSource>;
