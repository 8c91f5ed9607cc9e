import { type ProgressReportModel, PROGRESS_REPORT_WORDS as W } from '@mustard/shared';
import type { DocumentDrawer } from '../../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES } from '../../../documents/pdf.js';
import { chartFigureHeight, drawChartFigure } from '../pdf/chart.js';
import { progressRows, trendChart } from './table.js';

/*
 * The progressive report as a PDF (issue 28 point 4): A4 landscape, titled PROGRESSIVE REPORT so
 * no one takes it for the termly card; the learner, the preview's table (the header repeated on
 * a new page), then the trend line of the average mark (the charts module's, drawn as vector
 * graphics with its table beside it). Real text in the embedded fonts. Pure: the model in, the
 * bytes out.
 */

const PAGE = PAGE_SIZES.landscape;
const MARGIN = 28;
const SIZE = 7.5;
const ROW = SIZE * 1.17 + 5;
const GRID = '#777777';
const HEADER_FILL = '#e6e6e6';
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;

function cellRow(doc: Doc, y: number, texts: readonly string[], widths: readonly number[], bold: boolean) {
  let x = MARGIN;
  texts.forEach((text, index) => {
    const width = widths[index] ?? 60;
    if (bold) doc.rect(x, y, width, ROW).fill(HEADER_FILL);
    doc.rect(x, y, width, ROW).lineWidth(0.4).strokeColor(GRID).stroke();
    doc
      .font(bold || index === 0 ? BOLD : REGULAR)
      .fontSize(SIZE)
      .fillColor('#111111')
      .text(text, x + 2, y + 2.5, { width: width - 4, height: ROW, align: 'left', lineBreak: false, ellipsis: true });
    x += width;
  });
}

/** The progressive report's PDF. */
export function drawProgressReportPdf(model: ProgressReportModel): Promise<Buffer> {
  const { report, learner } = model;
  const { doc, bytes } = openPdf({
    orientation: 'landscape',
    margin: MARGIN,
    title: [report.title, learner.name, learner.studentid].join(' '),
    school: report.school,
  });
  doc.addPage();
  const bottom = PAGE.height - MARGIN;
  let y = MARGIN;
  doc.font(BOLD).fontSize(14).fillColor('#111111').text(report.school, MARGIN, y, { lineBreak: false });
  y += 18;
  doc.fontSize(12).text(report.title, MARGIN, y, { lineBreak: false });
  y += 15;
  doc.font(REGULAR).fontSize(8).text(W.subtitle, MARGIN, y, { lineBreak: false });
  y += 12;
  doc
    .fontSize(9)
    .text(
      `${W.name} ${learner.name} · ${W.studentId} ${learner.studentid} · ${W.class} ${learner.form} · ${W.stream} ${learner.stream ?? ''}`,
      MARGIN,
      y,
      { lineBreak: false },
    );
  y += 16;
  if (model.empty) {
    doc
      .font(REGULAR)
      .fontSize(10)
      .text(model.empty, MARGIN, y, { width: PAGE.width - 2 * MARGIN });
    y += 30;
  } else {
    const { head, rows } = progressRows(model);
    const first = 120;
    const other = Math.max(70, Math.min(160, Math.floor((PAGE.width - 2 * MARGIN - first) / Math.max(1, head.length - 1))));
    const widths = [first, ...head.slice(1).map(() => other)];
    cellRow(doc, y, head, widths, true);
    y += ROW;
    for (const row of rows) {
      if (y + ROW > bottom) {
        doc.addPage();
        y = MARGIN;
        cellRow(doc, y, head, widths, true);
        y += ROW;
      }
      cellRow(doc, y, row, widths, false);
      y += ROW;
    }
    y += 12;
    const trend = trendChart(model);
    const width = PAGE.width - 2 * MARGIN;
    if (y + chartFigureHeight(trend, width) > bottom) {
      doc.addPage();
      y = MARGIN;
    }
    y += drawChartFigure(doc, trend, MARGIN, y, width) + 12;
  }
  if (model.leftOut.length > 0) {
    if (y + 20 > bottom) {
      doc.addPage();
      y = MARGIN;
    }
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor('#111111')
      .text(
        `${W.leftOut}: ${model.leftOut.map((each) => `${each.form} ${each.term} ${each.year} (${each.reason})`).join('; ')}`,
        MARGIN,
        y,
        {
          width: PAGE.width - 2 * MARGIN,
        },
      );
  }
  doc.end();
  return bytes;
}

/** The progressive report's drawer in the document pool (document-drawers.ts). */
export const drawProgressReport: DocumentDrawer<ProgressReportModel> = (model) => drawProgressReportPdf(model);
