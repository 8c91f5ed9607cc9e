import type { StatisticsModel } from '../endpoints/statistics.js';
import { divisionsByClassChart } from './charts/analysis-charts.js';
import { aggregateHistogram } from './charts/builders.js';
import type { BarChartModel, Chart } from './charts/model.js';
import { chartFigureHtml } from './charts/svg.js';
import { DIVISION_ORDER } from './statistics.js';

/*
 * The charts beside the Mark Statistics tables (issue 28 point 6), drawn from the tables' own
 * numbers (never a second computation): division bars per stream with % Division I, the
 * aggregate histogram, mean grade point per subject weakest first, and the performance indices
 * and mean marks per subject or stream, best first. The preview draws them as SVG and the PDF
 * as vector graphics, each with its table beside it.
 */

type Titled = StatisticsModel['tables'][number];
type Row = Titled['table']['rows'][number];

const numberOf = (row: Row, key: string): number | null => {
  const value = row.cells[key]?.value;
  return typeof value === 'number' ? value : null;
};

/** Rows by a number, the best first (`lower`: the lowest best), rows without one last. */
function ranked(rows: readonly Row[], key: string, lower: boolean): Row[] {
  return [...rows].sort((a, b) => {
    const left = numberOf(a, key);
    const right = numberOf(b, key);
    if (left === null || right === null) return left === null ? (right === null ? 0 : 1) : -1;
    return lower ? left - right : right - left;
  });
}

function barsOf(
  table: Titled,
  key: string,
  name: string,
  options: { lower: boolean; weakestFirst?: boolean; max?: number; decimals: number },
): BarChartModel {
  const rows = table.table.rows;
  const order = ranked(rows, key, options.weakestFirst ? !options.lower : options.lower);
  return {
    kind: 'bar',
    title: table.title,
    note: options.lower ? 'Lower is better' : 'Higher is better',
    categoryLabel: '',
    categories: order.map((row) => row.label),
    series: [{ name, values: order.map((row) => numberOf(row, key)) }],
    orientation: 'horizontal',
    decimals: options.decimals,
    ...(options.max !== undefined ? { max: options.max } : {}),
  };
}

/** The charts of one titled table, none where a chart would add nothing (lists of learners, counts per paper). */
export function statisticsTableCharts(table: Titled, precision: number): Chart[] {
  if (table.table.rows.length === 0) return [];
  switch (table.key) {
    case 'division':
    case 'pleDivisions':
      return [
        divisionsByClassChart(
          table.table.rows.map((row) => ({
            label: row.label,
            divisions: DIVISION_ORDER.map((division) => ({ division, count: numberOf(row, division) ?? 0 })),
            divisionOne: numberOf(row, 'pctI'),
          })),
          precision,
        ),
      ];
    case 'aggpoint':
    case 'pleAggregates': {
      const total = table.table.rows.find((row) => row.key === 'total');
      if (!total) return [];
      const values = table.table.columns.flatMap((column) => {
        const at = Number(column.key);
        return Number.isInteger(at) ? Array.from({ length: numberOf(total, column.key) ?? 0 }, () => at) : [];
      });
      return [aggregateHistogram(values)];
    }
    case 'mgp':
    case 'scategory':
      return [barsOf(table, 'mgp', 'Mean grade point', { lower: true, weakestFirst: true, decimals: precision })];
    case 'weightedagg':
    case 'departmentweightedagg':
      return [barsOf(table, 'index', 'Index %', { lower: false, max: 100, decimals: precision })];
    case 'classweightedagg':
      return [
        barsOf({ ...table, table: { ...table.table, rows: table.table.rows.filter((row) => row.key !== 'class') } }, 'index', 'Index %', {
          lower: false,
          max: 100,
          decimals: precision,
        }),
      ];
    case 'subjectmean':
      return [barsOf(table, 'mean', 'Mean mark', { lower: false, max: 100, decimals: precision })];
    default:
      return [];
  }
}

/** Every chart of the model, in the tables' order. */
export function statisticsCharts(model: StatisticsModel): Chart[] {
  return model.tables.flatMap((table) => statisticsTableCharts(table, model.report.precision));
}

/** A table's charts for the preview, each with its table beside it. */
export function statisticsChartsHtml(table: Titled, precision: number): string {
  return statisticsTableCharts(table, precision)
    .map((chart, index) => chartFigureHtml(chart, { id: `stats-${table.key}-${index + 1}` }))
    .join('');
}
