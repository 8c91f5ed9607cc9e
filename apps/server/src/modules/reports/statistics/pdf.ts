import { type SchoolStatisticsModel, type StatisticsModel, statisticsCharts, STATISTICS_WORDS as W } from '@mustard/shared';
import type { DocumentDrawer } from '../../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES } from '../../../documents/pdf.js';
import { drawChartPages } from '../pdf/chart.js';
import { statisticsSubtitle, tableText } from './table.js';

/*
 * The statistics as a PDF (issue 28 point 2): A4 landscape, the school and what the tables are
 * of, then each table under its title and note, its head repeated on a new page; a table wider
 * than the page (O level's aggregates 8..72) continues in column blocks, each with the row
 * labels; then the tables' charts, each with its table beside it. Real text in the embedded
 * fonts. Pure: the model in, the bytes out.
 */

const PAGE = PAGE_SIZES.landscape;
const MARGIN = 28;
const SIZE = 7;
const ROW = SIZE * 1.17 + 4;
const GRID = '#777777';
const HEADER_FILL = '#e6e6e6';
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;
const LABEL_WIDTH = 130;
const MIN_COLUMN = 20;
const MAX_COLUMN = 64;

function cellRow(doc: Doc, y: number, texts: readonly string[], widths: readonly number[], bold: boolean) {
  let x = MARGIN;
  doc.font(bold ? BOLD : REGULAR).fontSize(SIZE);
  texts.forEach((text, index) => {
    const width = widths[index] ?? MIN_COLUMN;
    if (bold) doc.rect(x, y, width, ROW).fill(HEADER_FILL);
    doc.rect(x, y, width, ROW).lineWidth(0.4).strokeColor(GRID).stroke();
    doc.fillColor('#111111').text(text, x + 2, y + 2, {
      width: width - 4,
      height: ROW,
      align: index === 0 ? 'left' : 'center',
      lineBreak: false,
      ellipsis: true,
    });
    x += width;
  });
}

/** The statistics' PDF. */
export function drawStatisticsPdf(model: StatisticsModel): Promise<Buffer> {
  const { report } = model;
  const { doc, bytes } = openPdf({
    orientation: 'landscape',
    margin: MARGIN,
    title: [W.title, report.form, report.stream ?? W.allStreams, `${W.term} ${report.term}`, String(report.year)].join(' '),
    school: report.school,
  });
  drawStatisticsPages(doc, model);
  doc.end();
  return bytes;
}

/** A whole school's statistics (issue 28 point 7): the classes left out and why, then each class from a new page, progress a class at a time. */
export const drawSchoolStatistics: DocumentDrawer<SchoolStatisticsModel> = async (model, progress) => {
  const { report, classes, leftOut } = model;
  const { doc, bytes } = openPdf({
    orientation: 'landscape',
    margin: MARGIN,
    title: [W.title, W.allClasses, `${W.term} ${report.term}`, String(report.year)].join(' '),
    school: report.school,
  });
  doc.addPage();
  let y = MARGIN;
  doc.font(BOLD).fontSize(14).fillColor('#111111').text(report.school, MARGIN, y, { lineBreak: false });
  y += 18;
  doc.fontSize(11).text(`${W.title} · ${W.allClasses}`, MARGIN, y, { lineBreak: false });
  y += 14;
  doc
    .font(REGULAR)
    .fontSize(9)
    .text(`${W.term} ${report.term} · ${report.year} · ${classes.map((each) => each.report.form).join(', ')}`, MARGIN, y, {
      lineBreak: false,
    });
  y += 16;
  if (leftOut.length > 0) {
    doc.font(BOLD).fontSize(10).text(W.leftOut, MARGIN, y, { lineBreak: false });
    y += 14;
    for (const each of leftOut.slice(0, 30)) {
      cellRow(doc, y, [each.form, each.reason], [LABEL_WIDTH, 480], false);
      y += ROW;
    }
  }
  classes.forEach((each, index) => {
    drawStatisticsPages(doc, each);
    progress?.(index + 1, classes.length);
  });
  doc.end();
  return bytes;
};

/** A class's statistics from a new page on: alone, or one class of a whole school's. */
function drawStatisticsPages(doc: Doc, model: StatisticsModel): void {
  const { report } = model;
  doc.addPage();
  const bottom = PAGE.height - MARGIN;
  const room = PAGE.width - 2 * MARGIN - LABEL_WIDTH;
  let y = MARGIN;
  doc.font(BOLD).fontSize(14).fillColor('#111111').text(report.school, MARGIN, y, { lineBreak: false });
  y += 18;
  doc.fontSize(11).text(W.title, MARGIN, y, { lineBreak: false });
  y += 14;
  doc.font(REGULAR).fontSize(9).text(statisticsSubtitle(report), MARGIN, y, { lineBreak: false });
  y += 16;
  const newPage = () => {
    doc.addPage();
    y = MARGIN;
  };
  const line = (text: string, font: string, size: number) => {
    if (y + size + 4 > bottom) newPage();
    doc.font(font).fontSize(size).fillColor('#111111').text(text, MARGIN, y, { lineBreak: false });
    y += size + 5;
  };
  for (const { title, note, table } of model.tables) {
    if (y + 3 * ROW + 14 > bottom) newPage();
    y += 6;
    line(title, BOLD, 10);
    for (const said of [note, table.empty]) if (said) line(said, REGULAR, 8);
    if (table.rows.length === 0) continue;
    const { head, rows } = tableText(table, report.precision);
    const columns = head.length - 1;
    // As many columns a block as fit at the narrowest width; the label column on each block.
    const perBlock = Math.max(1, Math.min(columns, Math.floor(room / MIN_COLUMN)));
    for (let start = 0; start < columns; start += perBlock) {
      const end = Math.min(columns, start + perBlock);
      const width = Math.max(MIN_COLUMN, Math.min(MAX_COLUMN, Math.floor(room / Math.max(1, end - start))));
      const widths = [LABEL_WIDTH, ...Array.from({ length: end - start }, () => width)];
      const pick = (texts: readonly string[]) => [texts[0] ?? '', ...texts.slice(start + 1, end + 1)];
      if (y + 2 * ROW > bottom) newPage();
      cellRow(doc, y, pick(head), widths, true);
      y += ROW;
      for (const row of rows) {
        if (y + ROW > bottom) {
          newPage();
          cellRow(doc, y, pick(head), widths, true);
          y += ROW;
        }
        cellRow(doc, y, pick(row), widths, false);
        y += ROW;
      }
      y += 6;
    }
  }
  // The charts beside the tables, each with its table (issue 28 point 6).
  drawChartPages(doc, statisticsCharts(model), PAGE, MARGIN, y + 16);
}

/** The statistics' drawer in the document pool (document-drawers.ts). */
export const drawStatistics: DocumentDrawer<StatisticsModel> = (model) => drawStatisticsPdf(model);
