import { type StatisticsModel, STATISTICS_WORDS as W } from '@mustard/shared';
import { decimalsFormat, tablesWorkbook } from '../tables-workbook.js';
import { statisticsSubtitle, wholeColumns } from './table.js';

/*
 * The statistics as a workbook (issue 28 point 2), by the reports' one tables writer: the school
 * and what the tables are of, then each table under its title (and what must be said of it).
 * Numbers stay numbers (a head teacher sorts and sums them), whole-number columns whole, the
 * others with the query's decimals as their format (display only).
 */
export function statisticsWorkbook(model: StatisticsModel): Promise<Buffer> {
  const { report } = model;
  return tablesWorkbook([
    {
      name: 'Statistics',
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
    },
  ]);
}
