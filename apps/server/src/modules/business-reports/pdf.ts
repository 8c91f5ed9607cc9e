import { formatAmount } from '@mustard/shared';
import type { DocumentDrawer } from '../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf } from '../../documents/pdf.js';
import type { ReportCell, ReportDocument, ReportTable } from './document.js';

/*
 * A shop report as an A4 PDF (issue 32 point 8), drawn by the document workers from its tables
 * (document.ts): the business and what the report is of, then each table under its title, its
 * head repeated on a new page, amounts right-aligned with thousands commas (spec §9), totals in
 * bold, and the page number at the foot. Pure: the tables in, the bytes out.
 */

const MARGIN = 36;
const SIZE = 8;
const ROW = SIZE + 7;
const GRID = '#999999';
const HEAD_FILL = '#e6e6e6';
const INK = '#111111';

export const cellText = (cell: ReportCell): string =>
  cell === null ? '' : typeof cell === 'string' ? cell : typeof cell === 'number' ? String(cell) : formatAmount(cell.amount, cell.decimals);

/** Column widths: each column's longest text measured, the first (names) taking what is left, all within the page. */
function columnWidths(doc: Doc, table: ReportTable, width: number): number[] {
  const count = table.head.length;
  // Measured in bold, the wider of the two: a totals row is bold.
  doc.font(DOCUMENT_FONTS.bold).fontSize(SIZE);
  const measured = table.head.map((head, column) => {
    let widest = doc.widthOfString(head);
    for (const row of table.rows.slice(0, 500)) widest = Math.max(widest, doc.widthOfString(cellText(row[column] ?? null)));
    return Math.min(widest + 8, column === 0 ? width * 0.4 : width / Math.max(2, count - 1));
  });
  const total = measured.reduce((sum, each) => sum + each, 0);
  if (total >= width) return measured.map((each) => (each * width) / total);
  // What is left goes to the first column (a name or a label).
  return measured.map((each, index) => (index === 0 ? each + width - total : each));
}

function drawRow(doc: Doc, y: number, texts: string[], widths: number[], style: 'head' | 'bold' | 'plain') {
  let x = MARGIN;
  doc.font(style === 'plain' ? DOCUMENT_FONTS.regular : DOCUMENT_FONTS.bold).fontSize(SIZE);
  texts.forEach((text, index) => {
    const width = widths[index] ?? 40;
    if (style === 'head') doc.rect(x, y, width, ROW).fill(HEAD_FILL);
    doc.rect(x, y, width, ROW).lineWidth(0.4).strokeColor(GRID).stroke();
    doc.fillColor(INK).text(text, x + 3, y + 3.5, {
      width: width - 6,
      height: ROW,
      align: index === 0 ? 'left' : 'right',
      lineBreak: false,
      // Cut with an ellipsis only what is too wide: the cut measures every glyph, half a long table's time.
      ellipsis: doc.widthOfString(text) > width - 6,
    });
    x += width;
  });
}

/** The report's PDF. */
export const drawBusinessReport: DocumentDrawer<ReportDocument> = async (report) => {
  const { doc, page, bytes } = openPdf({
    orientation: report.orientation,
    margin: MARGIN,
    title: report.subtitle,
    school: report.business,
    bufferPages: true,
  });
  const width = page.width - 2 * MARGIN;
  const bottom = page.height - MARGIN - 14;
  doc.addPage();
  let y = MARGIN;
  doc.font(DOCUMENT_FONTS.bold).fontSize(14).fillColor(INK).text(report.business, MARGIN, y, { width, lineBreak: false });
  y += 20;
  doc.fontSize(11).text(report.subtitle, MARGIN, y, { width, lineBreak: false });
  y += 22;
  for (const table of report.tables) {
    const widths = columnWidths(doc, table, width);
    if (y + 3 * ROW > bottom) {
      doc.addPage();
      y = MARGIN;
    }
    doc.font(DOCUMENT_FONTS.bold).fontSize(10).fillColor(INK).text(table.title, MARGIN, y, { width, lineBreak: false });
    y += 15;
    drawRow(doc, y, table.head, widths, 'head');
    y += ROW;
    if (table.rows.length === 0) {
      doc
        .font(DOCUMENT_FONTS.regular)
        .fontSize(SIZE)
        .fillColor('#555555')
        .text('None', MARGIN + 3, y + 3.5, { lineBreak: false });
      y += ROW;
    }
    const bold = new Set(table.bold ?? []);
    for (const [index, row] of table.rows.entries()) {
      if (y + ROW > bottom) {
        doc.addPage();
        y = MARGIN;
        drawRow(doc, y, table.head, widths, 'head');
        y += ROW;
      }
      drawRow(
        doc,
        y,
        row.map((cell) => cellText(cell)),
        widths,
        bold.has(index) ? 'bold' : 'plain',
      );
      y += ROW;
    }
    y += 14;
  }
  const pages = doc.bufferedPageRange();
  for (let index = 0; index < pages.count; index++) {
    doc.switchToPage(pages.start + index);
    doc
      .font(DOCUMENT_FONTS.regular)
      .fontSize(7)
      .fillColor('#555555')
      .text(`${report.business} · ${report.subtitle} · Page ${index + 1} of ${pages.count}`, MARGIN, bottom + 2, {
        width,
        align: 'center',
        lineBreak: false,
      });
  }
  doc.end();
  return bytes;
};
