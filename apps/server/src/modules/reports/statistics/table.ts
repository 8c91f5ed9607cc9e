import { type StatisticsModel, statisticsDisplay, STATISTICS_WORDS as W } from '@mustard/shared';

/*
 * The statistics tables as the preview, the workbook and the PDF show them (one module, so the
 * three agree): a column of whole numbers only (counts, ranks) shows them whole, any other
 * number column with the query's decimals (display only: the model keeps them unrounded).
 */

type Table = StatisticsModel['tables'][number]['table'];
type Cell = Table['rows'][number]['cells'][string];

/** Whether each column holds whole numbers only (or no number at all), by key. */
export function wholeColumns(table: Table): Map<string, boolean> {
  return new Map(
    table.columns.map((column) => [
      column.key,
      table.rows.every((row) => {
        const value = row.cells[column.key]?.value;
        return typeof value !== 'number' || Number.isInteger(value);
      }),
    ]),
  );
}

/** A cell as shown: a whole-number column's numbers whole, others with `precision` decimals, a label as it is. */
export function shownCell(cell: Cell | undefined, whole: boolean, precision: number): string {
  const value = cell?.value ?? null;
  return statisticsDisplay(value, typeof value === 'number' && whole ? 0 : precision);
}

/** What the report is of: the class, stream, term and year, the mark types and the weight set. */
export function statisticsSubtitle(report: StatisticsModel['report']): string {
  const parts = [`${report.form} · ${report.stream ?? W.allStreams} · ${W.term} ${report.term} · ${report.year}`];
  if (report.markTypes.length > 0) parts.push(`${W.markTypes}: ${report.markTypes.join(', ')}`);
  if (report.category === 'weightedagg' || report.category === 'departmentweightedagg') parts.push(`${W.weight}: ${report.weight}`);
  return parts.join(' · ');
}

/** The tables' head and rows as text: the row label first, then each column. */
export function tableText(table: Table, precision: number): { head: string[]; rows: string[][] } {
  const whole = wholeColumns(table);
  return {
    head: [W.row, ...table.columns.map((column) => column.label)],
    rows: table.rows.map((row) => [
      row.label,
      ...table.columns.map((column) => shownCell(row.cells[column.key], whole.get(column.key) ?? false, precision)),
    ]),
  };
}
