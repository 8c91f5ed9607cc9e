import { type SchoolStatisticsModel, type StatisticsModel, STATISTICS_WORDS as W } from '@mustard/shared';
import { decimalsFormat, tablesWorkbook, type WorkbookSheet } from '../tables-workbook.js';
import { statisticsSubtitle, wholeColumns } from './table.js';

/*
 * The statistics as a workbook (issue 28 point 2), by the reports' one tables writer: the school
 * and what the tables are of, then each table under its title (and what must be said of it).
 * Numbers stay numbers (a head teacher sorts and sums them), whole-number columns whole, the
 * others with the query's decimals as their format (display only).
 */
export function statisticsWorkbook(model: StatisticsModel): Promise<Buffer> {
  return tablesWorkbook([statisticsSheet(model, 'Statistics')]);
}

/** A whole school's workbook (issue 28 point 7): a sheet per class named by it, then the classes left out and why. */
export function schoolStatisticsWorkbook(model: SchoolStatisticsModel): Promise<Buffer> {
  const sheets = model.classes.map((each) => statisticsSheet(each, each.report.form));
  if (model.leftOut.length > 0)
    sheets.push({
      name: W.leftOut,
      heading: [[model.report.school], [`${W.title} · ${W.allClasses}`]],
      tables: [{ head: [W.row, ''], rows: model.leftOut.map((each) => [each.form, each.reason]) }],
    });
  return tablesWorkbook(sheets);
}

/** A class's sheet: the school and what the tables are of, then each table under its title. */
function statisticsSheet(model: StatisticsModel, name: string): WorkbookSheet {
  const { report } = model;
  return {
    name,
    heading: [[report.school], [W.title], [statisticsSubtitle(report)]],
    tables: model.tables.map(({ title, note, table }) => {
      const whole = wholeColumns(table);
      return {
        title: [title, note, table.empty].filter(Boolean).join(' — '),
        head: table.rows.length === 0 ? [] : [W.row, ...table.columns.map((column) => column.label)],
        rows: table.rows.map((row) => [row.label, ...table.columns.map((column) => row.cells[column.key]?.value ?? null)]),
        formats: [undefined, ...table.columns.map((column) => (whole.get(column.key) ? '0' : decimalsFormat(report.precision)))],
      };
    }),
  };
}
