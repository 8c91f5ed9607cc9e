/*
 * Charts of the reports (issue 28 point 6; guide statistics.md "Charts"): one definition drawn
 * as SVG in a preview and as vector graphics in a PDF, readable in black and white, with its
 * table beside it.
 *
 * How to use it:
 * 1. Build a `Chart` from your report's own table (plain data: never compute a result here):
 *    `{ kind: 'bar', title, categoryLabel, categories, series: [{ name, values }], stacked?,
 *    orientation?: 'horizontal', ordered? }`, `{ kind: 'line', ..., lowerIsBetter? }`,
 *    `{ kind: 'histogram', bins, valueLabel }`; or use a builder: `aggregateHistogram(aggregates)`,
 *    `trendLine({ title, terms, series })`, the analysis's `analysisCharts(model)`.
 * 2. Preview (HTML): `chartFigureHtml(chart, { id })` gives the SVG and its table side by side
 *    (`chartSvg(chart)` the SVG alone); give each chart of a page its own `id`.
 * 3. PDF (server): `drawChart(doc, chart, x, y, width, height)` or `drawChartFigure(...)` (chart
 *    and table) from apps/server/src/modules/reports/pdf/chart.ts; `chartHeight(chart, width)`
 *    is the height the chart asks for.
 * Both go through `layoutChart(chart, width, height)`, the one layout (tested once): only the
 * last step differs.
 */
export * from './analysis-charts.js';
export * from './builders.js';
export * from './layout.js';
export * from './model.js';
export * from './svg.js';
