import { type AnalysisModel, ANALYSIS_WORDS as W } from '@mustard/shared';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES } from '../../../documents/pdf.js';
import { ncAnalysisHeading, ncAnalysisTables, ncCellText } from './tables.js';

/*
 * The new-curriculum result analysis as a PDF: A4 landscape like the divisions' analysis, the
 * school and class, then the tables of tables.ts (subjects, boys against girls, the overall
 * grades and identifiers), a table's head drawn again on a new page. Real text in the embedded
 * fonts. Pure: the model in, the bytes out.
 */

const PAGE = PAGE_SIZES.landscape;
const MARGIN = 32;
const SIZE = 7.5;
const ROW = SIZE * 1.17 + 4;
const GRID = '#777777';
const HEADER_FILL = '#e6e6e6';
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;
const FIRST = 150;
const WIDTH = PAGE.width - 2 * MARGIN;

/**
 * The columns' widths: each as its widest text needs (the head in bold), the first (subject) at
 * least FIRST; shrunk together to the page's width if they would pass it.
 */
function widthsOf(doc: Doc, texts: ReadonlyArray<ReadonlyArray<string>>): number[] {
  const head = texts[0] ?? [];
  const widths = head.map((_, column) => {
    let widest = 0;
    texts.forEach((row, index) => {
      doc.font(index === 0 ? BOLD : REGULAR).fontSize(SIZE);
      widest = Math.max(widest, doc.widthOfString(row[column] ?? ''));
    });
    return Math.max(column === 0 ? FIRST : 18, Math.ceil(widest) + 6);
  });
  const total = widths.reduce((sum, width) => sum + width, 0);
  return total <= WIDTH ? widths : widths.map((width) => (width * WIDTH) / total);
}

function cellRow(doc: Doc, y: number, texts: readonly string[], widths: readonly number[], bold: boolean) {
  let x = MARGIN;
  doc.font(bold ? BOLD : REGULAR).fontSize(SIZE);
  texts.forEach((text, index) => {
    const width = widths[index] ?? 36;
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

/** A new-curriculum class's analysis from a new page on: alone, or one class of a whole school's. */
export function drawNcAnalysisPages(doc: Doc, model: AnalysisModel): void {
  const { report } = model;
  doc.addPage();
  const bottom = PAGE.height - MARGIN;
  let y = MARGIN;
  doc.font(BOLD).fontSize(14).fillColor('#111111').text(report.school, MARGIN, y, { lineBreak: false });
  y += 18;
  doc.fontSize(11).text(W.title, MARGIN, y, { lineBreak: false });
  y += 14;
  for (const line of ncAnalysisHeading(model)) {
    doc.font(REGULAR).fontSize(9).text(line, MARGIN, y, { lineBreak: false });
    y += 12;
  }
  y += 4;
  for (const table of model.newCurriculum ? ncAnalysisTables(model.newCurriculum) : []) {
    const texts = table.rows.map((row) => row.map((cell, index) => ncCellText(cell, table.decimal[index] ?? false, report.precision)));
    const widths = widthsOf(doc, [table.head, ...texts]);
    // The title, the head and a first row together, or on a new page.
    if (y + (table.title ? 14 : 0) + ROW * 2 > bottom) {
      doc.addPage();
      y = MARGIN;
    }
    if (table.title) {
      doc.font(BOLD).fontSize(10).fillColor('#111111').text(table.title, MARGIN, y, { lineBreak: false });
      y += 14;
    }
    cellRow(doc, y, table.head, widths, true);
    y += ROW;
    for (const row of texts) {
      if (y + ROW > bottom) {
        doc.addPage();
        y = MARGIN;
        cellRow(doc, y, table.head, widths, true);
        y += ROW;
      }
      cellRow(doc, y, row, widths, false);
      y += ROW;
    }
    y += 10;
  }
}

/** The PDF of a new-curriculum class's analysis. */
export function drawNcAnalysisPdf(model: AnalysisModel): Promise<Buffer> {
  const { report } = model;
  const { doc, bytes } = openPdf({
    orientation: 'landscape',
    margin: MARGIN,
    title: [W.title, report.form, report.stream ?? W.allStreams, `${W.term} ${report.term}`, String(report.year)].join(' '),
    school: report.school,
  });
  drawNcAnalysisPages(doc, model);
  doc.end();
  return bytes;
}
