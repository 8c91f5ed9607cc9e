import { ANALYSIS_WORDS, type AnalysisModel } from '@mustard/shared';
import { decimalsFormat, tablesWorkbook, type WorkbookSheet } from '../tables-workbook.js';
import { ncAnalysisHeading, ncAnalysisTables } from './tables.js';

/*
 * The new-curriculum result analysis as a spreadsheet (`excel=1`): the preview's tables (subjects
 * with grades A..E and identifiers, boys against girls, the overall grades and identifiers) with
 * numbers as numbers and the query's precision as the format of the means and shares.
 */

/** A new-curriculum class's sheet: the heading then the tables, named `name` (alone, or one class of a whole school's). */
export function ncAnalysisSheet(model: AnalysisModel, name: string): WorkbookSheet {
  const { report } = model;
  const decimals = decimalsFormat(report.precision);
  const tables = (model.newCurriculum ? ncAnalysisTables(model.newCurriculum) : []).map((table) => ({
    title: table.title,
    head: table.head,
    rows: table.rows,
    formats: table.decimal.map((decimal) => (decimal ? decimals : undefined)),
  }));
  return {
    name,
    heading: [[report.school], [ANALYSIS_WORDS.title], ...ncAnalysisHeading(model).map((line) => [line])],
    tables,
  };
}

/** The workbook of a new-curriculum class's analysis: one sheet. */
export function ncAnalysisWorkbook(model: AnalysisModel): Promise<Buffer> {
  return tablesWorkbook([ncAnalysisSheet(model, ANALYSIS_WORDS.title)]);
}
