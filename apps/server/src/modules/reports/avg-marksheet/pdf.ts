import { type AvgMarksheetModel, AVG_MARKSHEET_WORDS as W } from '@mustard/shared';
import type { DocumentDrawer } from '../../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES } from '../../../documents/pdf.js';
import { sheetRows } from './table.js';

/*
 * The average mark sheet as a PDF (issue 28 point 5): A4 landscape, the school and what the
 * sheet is of, then the table of the preview and the workbook, the header repeated on each
 * page. Real text in the embedded fonts. Pure: the model in, the bytes out.
 */

const PAGE = PAGE_SIZES.landscape;
const MARGIN = 28;
const SIZE = 7;
const ROW = SIZE * 1.17 + 4;
const GRID = '#777777';
const HEADER_FILL = '#e6e6e6';
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;

function cellRow(doc: Doc, y: number, texts: readonly string[], widths: readonly number[], bold: boolean) {
  let x = MARGIN;
  doc.font(bold ? BOLD : REGULAR).fontSize(SIZE);
  texts.forEach((text, index) => {
    const width = widths[index] ?? 30;
    if (bold) doc.rect(x, y, width, ROW).fill(HEADER_FILL);
    doc.rect(x, y, width, ROW).lineWidth(0.4).strokeColor(GRID).stroke();
    doc.fillColor('#111111').text(text, x + 2, y + 2, { width: width - 4, height: ROW, align: 'left', lineBreak: false, ellipsis: true });
    x += width;
  });
}

/** The average mark sheet's PDF. */
export function drawAvgMarksheetPdf(model: AvgMarksheetModel): Promise<Buffer> {
  const { report } = model;
  const { head, rows } = sheetRows(model);
  const { doc, bytes } = openPdf({
    orientation: 'landscape',
    margin: MARGIN,
    title: [W.title, report.form, report.stream ?? W.allStreams, String(report.year)].join(' '),
    school: report.school,
  });
  doc.addPage();
  const bottom = PAGE.height - MARGIN;
  let y = MARGIN;
  doc.font(BOLD).fontSize(14).fillColor('#111111').text(report.school, MARGIN, y, { lineBreak: false });
  y += 18;
  doc.fontSize(11).text(W.title, MARGIN, y, { lineBreak: false });
  y += 14;
  doc
    .font(REGULAR)
    .fontSize(9)
    .text(
      `${W.class} ${report.form} · ${W.stream} ${report.stream ?? W.allStreams} · ${W.year} ${report.year} · ${W.terms} ${report.terms.join(', ')} · ${W.gradeSet} ${report.gradeSetTerm}`,
      MARGIN,
      y,
      { lineBreak: false },
    );
  y += 16;
  // The name column takes what the others leave of the page's width.
  const fixed = [20, 48, 0, 34];
  const rest = head.length - fixed.length;
  const other = Math.max(18, Math.min(40, Math.floor((PAGE.width - 2 * MARGIN - 220) / Math.max(1, rest))));
  const nameWidth = Math.max(80, PAGE.width - 2 * MARGIN - 102 - other * rest);
  const widths = [20, 48, nameWidth, 34, ...Array.from({ length: rest }, () => other)];
  const text = (value: string | number | null) => (value === null ? '' : String(value));
  cellRow(doc, y, head, widths, true);
  y += ROW;
  for (const row of rows) {
    if (y + ROW > bottom) {
      doc.addPage();
      y = MARGIN;
      cellRow(doc, y, head, widths, true);
      y += ROW;
    }
    cellRow(doc, y, row.map(text), widths, false);
    y += ROW;
  }
  doc.end();
  return bytes;
}

/** The average mark sheet's drawer in the document pool (document-drawers.ts). */
export const drawAvgMarksheet: DocumentDrawer<AvgMarksheetModel> = (model) => drawAvgMarksheetPdf(model);
