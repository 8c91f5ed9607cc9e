import { type Chart, type ChartPrimitive, chartHeight, chartTable, hatchMarks, layoutChart } from '@mustard/shared';
import { DOCUMENT_FONTS, type Doc } from '../../../documents/pdf.js';

/*
 * Charts in a PDF (issue 28 point 6): the primitives of shared's layoutChart, the same the
 * preview's SVG is written from, drawn as pdfkit's vector graphics (grey fills, hatching clipped
 * to each bar, real text in the document's fonts). `drawChartFigure` puts the chart's table
 * beside it. Usage is described in packages/shared/src/reports/charts/index.ts.
 */

const TABLE_SIZE = 7;
const TABLE_ROW = TABLE_SIZE * 1.17 + 4;
const TABLE_GAP = 14;
const GRID = '#777777';
const HEADER_FILL = '#e6e6e6';

/** A dash pattern of several lengths: pdfkit takes an array (@types/pdfkit knows one length only). */
const dashed = (doc: Doc, dash: readonly number[]) =>
  (doc.dash as unknown as (length: number[], options: object) => Doc).call(doc, [...dash], {});

function drawItem(doc: Doc, item: ChartPrimitive, x: number, y: number) {
  switch (item.type) {
    case 'rect': {
      const left = x + item.x;
      const top = y + item.y;
      doc.rect(left, top, item.width, item.height).fill(item.fill.grey);
      const { lines, dots } = hatchMarks(item.fill.hatch, left, top, item.width, item.height);
      if (lines.length || dots.length) {
        doc.save();
        doc.rect(left, top, item.width, item.height).clip();
        for (const [x1, y1, x2, y2] of lines) doc.moveTo(x1, y1).lineTo(x2, y2);
        if (lines.length) doc.lineWidth(0.7).strokeColor(item.fill.ink).stroke();
        for (const [cx, cy] of dots) doc.circle(cx, cy, 0.9);
        if (dots.length) doc.fill(item.fill.ink);
        doc.restore();
      }
      if (item.stroke) doc.rect(left, top, item.width, item.height).lineWidth(0.6).strokeColor(item.stroke).stroke();
      return;
    }
    case 'line':
    case 'polyline': {
      const points: ReadonlyArray<readonly [number, number]> =
        item.type === 'line'
          ? [
              [item.x1, item.y1],
              [item.x2, item.y2],
            ]
          : item.points;
      points.forEach(([px, py], index) => {
        if (index === 0) doc.moveTo(x + px, y + py);
        else doc.lineTo(x + px, y + py);
      });
      if (item.dash) dashed(doc, item.dash);
      doc.lineWidth(item.width).strokeColor(item.stroke).stroke();
      if (item.dash) doc.undash();
      return;
    }
    case 'marker': {
      const cx = x + item.x;
      const cy = y + item.y;
      const s = item.size;
      if (item.shape === 'square') doc.rect(cx - s, cy - s, 2 * s, 2 * s);
      else if (item.shape === 'triangle') doc.polygon([cx, cy - s * 1.2], [cx + s * 1.1, cy + s * 0.8], [cx - s * 1.1, cy + s * 0.8]);
      else if (item.shape === 'diamond') doc.polygon([cx, cy - s * 1.3], [cx + s * 1.3, cy], [cx, cy + s * 1.3], [cx - s * 1.3, cy]);
      else doc.circle(cx, cy, s);
      if (item.filled) doc.fill('#111111');
      else doc.lineWidth(1).fillAndStroke('#ffffff', '#111111');
      return;
    }
    case 'text': {
      if (!item.text) return;
      doc
        .font(item.bold ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular)
        .fontSize(item.size)
        .fillColor(item.colour);
      const width = doc.widthOfString(item.text);
      const left = item.anchor === 'start' ? item.x : item.anchor === 'middle' ? item.x - width / 2 : item.x - width;
      doc.text(item.text, x + left, y + item.y, { lineBreak: false, baseline: 'alphabetic' });
      return;
    }
  }
}

/** Draws a chart in the box at (x, y) of `width` by `height` (the chart's own height unless given). */
export function drawChart(doc: Doc, chart: Chart, x: number, y: number, width: number, height = chartHeight(chart, width)): void {
  const drawing = layoutChart(chart, width, height);
  doc.save();
  for (const item of drawing.items) drawItem(doc, item, x, y);
  doc.restore();
  doc.fillColor('#111111');
}

/** The chart's share of a figure `width` wide (the table has the rest). */
const chartWidthOf = (width: number) => Math.min(460, Math.round(width * 0.6));

/** The height `drawChartFigure` takes at a width: the chart's or its table's, the taller. */
export function chartFigureHeight(chart: Chart, width: number): number {
  return Math.max(chartHeight(chart, chartWidthOf(width)), (chartTable(chart).rows.length + 1) * TABLE_ROW + 20);
}

/** A chart and its table beside it, in `width` from (x, y); answers the height used. */
export function drawChartFigure(doc: Doc, chart: Chart, x: number, y: number, width: number): number {
  const chartWidth = chartWidthOf(width);
  drawChart(doc, chart, x, y, chartWidth);
  const { head, rows } = chartTable(chart);
  const left = x + chartWidth + TABLE_GAP;
  const room = width - chartWidth - TABLE_GAP;
  const rest = Math.max(1, head.length - 1);
  const rowWidth = Math.min(room, 90 + rest * 44);
  const first = Math.max(60, Math.min(110, rowWidth - rest * 24));
  const other = Math.max(16, Math.min(44, (rowWidth - first) / rest));
  let top = y + 20;
  const row = (cells: readonly string[], bold: boolean) => {
    let at = left;
    doc.font(bold ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular).fontSize(TABLE_SIZE);
    cells.forEach((cell, index) => {
      const cellWidth = index === 0 ? first : other;
      if (bold) doc.rect(at, top, cellWidth, TABLE_ROW).fill(HEADER_FILL);
      doc.rect(at, top, cellWidth, TABLE_ROW).lineWidth(0.4).strokeColor(GRID).stroke();
      doc.fillColor('#111111').text(cell, at + 2, top + 2, {
        width: cellWidth - 4,
        height: TABLE_ROW,
        align: index === 0 ? 'left' : 'center',
        lineBreak: false,
        ellipsis: true,
      });
      at += cellWidth;
    });
    top += TABLE_ROW;
  };
  row(head, true);
  for (const cells of rows) row(cells, false);
  return Math.max(chartHeight(chart, chartWidth), top - y);
}
