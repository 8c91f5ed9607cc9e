import {
  ALEVEL_LETTERS,
  type MarksheetOrder,
  type MarksheetQuerySchema,
  type ReportModel,
  type TerminalReportQuery,
} from '@mustard/shared';
import type { z } from 'zod';
import type { TenantTx } from '../../../db/tenant.js';
import { loadReportInputs } from '../report-data.repository.js';
import { buildReportModel, type ReportInputs } from '../report-model.js';

/*
 * The mark sheet's reading (issue 15 point 7): the report model of the class, read and computed
 * by the report cards' own repository and engine in the request's one transaction, and the
 * school's order of grades and divisions for the counts. Nothing here grades or ranks.
 */

export type MarksheetQuery = z.output<typeof MarksheetQuerySchema>;

export interface MarksheetData {
  model: ReportModel;
  order: MarksheetOrder;
}

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

/** The class's model and the order of its counts, in the caller's transaction. */
export async function readMarksheet(tx: TenantTx, query: MarksheetQuery): Promise<MarksheetData> {
  const inputs = await loadReportInputs(tx, reportQueryOf(query));
  return { model: buildReportModel(inputs), order: marksheetOrder(inputs) };
}
