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

/** The height `drawChartFigure` takes at a width: the chart's (at most `maxHeight`) or its table's, the taller. */
export function chartFigureHeight(chart: Chart, width: number, maxHeight = Number.POSITIVE_INFINITY): number {
  return Math.max(Math.min(chartHeight(chart, chartWidthOf(width)), maxHeight), (chartTable(chart).rows.length + 1) * TABLE_ROW + 20);
}

/**
 * Charts one under another from `from` (a new page unless told), each with its table beside it,
 * a new page when the next does not fit.
 */
export function drawChartPages(
  doc: Doc,
  charts: readonly Chart[],
  page: { width: number; height: number },
  margin: number,
  from = page.height,
): void {
  const width = page.width - 2 * margin;
  const bottom = page.height - margin;
  const tallest = bottom - margin;
  let y = from;
  for (const chart of charts) {
    // On the page when it fits, or fits a little shorter (its bands narrow); else on the next.
    const room = bottom - y;
    const table = chartFigureHeight(chart, width, 0);
    if (room < table || room < 0.8 * chartFigureHeight(chart, width, tallest)) {
      doc.addPage();
      y = margin;
    }
    y += drawChartFigure(doc, chart, margin, y, width, Math.min(tallest, bottom - y)) + 18;
  }
}

/**
 * A chart and its table beside it, in `width` from (x, y); answers the height used. The chart is
 * drawn at most `maxHeight` tall (its bands narrow to fit a page).
 */
export function drawChartFigure(doc: Doc, chart: Chart, x: number, y: number, width: number, maxHeight = Number.POSITIVE_INFINITY): number {
  const chartWidth = chartWidthOf(width);
  const height = Math.min(chartHeight(chart, chartWidth), maxHeight);
  drawChart(doc, chart, x, y, chartWidth, height);
  const { head, rows } = chartTable(chart);
  const left = x + chartWidth + TABLE_GAP;
  const room = width - chartWidth - TABLE_GAP;
  // Each column as wide as its widest text (the names' at most 120, numbers' 60), narrowed together to the room.
  const measure = (text: string, bold: boolean) =>
    doc
      .font(bold ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular)
      .fontSize(TABLE_SIZE)
      .widthOfString(text);
  const natural = head.map((title, index) =>
    Math.min(
      index === 0 ? 120 : 60,
      Math.max(18, measure(title, true) + 6, ...rows.map((cells) => measure(cells[index] ?? '', false) + 6)),
    ),
  );
  const total = natural.reduce((sum, each) => sum + each, 0);
  const widths = total > room ? natural.map((each) => (each * room) / total) : natural;
  let top = y + 20;
  const row = (cells: readonly string[], bold: boolean) => {
    let at = left;
    doc.font(bold ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular).fontSize(TABLE_SIZE);
    cells.forEach((cell, index) => {
      const cellWidth = widths[index] ?? 18;
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
  return Math.max(height, top - y);
}
