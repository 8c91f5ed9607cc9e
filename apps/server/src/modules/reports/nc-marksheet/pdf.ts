import { type NcMarksheetModel, ncMarksheetText, NC_MARKSHEET_WORDS as W } from '@mustard/shared';
import type { DocumentDrawer } from '../../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES } from '../../../documents/pdf.js';
import { NC_SUBJECT_COLUMNS } from './workbook.js';

/*
 * The new-curriculum mark sheet as a PDF (issue 27 point 4): A4 portrait, the school's header,
 * then a block per subject: its learners with score, identifier, /20, /80, /100 and grade, and
 * under it the subject's learners per identifier and per grade; a block's header row is drawn
 * again on a new page, and "Page x of y" at the foot. Real text in the embedded fonts. Pure:
 * the model in, the bytes out.
 */

const PAGE = PAGE_SIZES.portrait;
const MARGIN = 32;
const SIZE = 7.5;
const ROW = SIZE * 1.17 + 4;
const GRID = '#777777';
const HEADER_FILL = '#e6e6e6';
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;
/** The columns' widths: No., Student ID, Name, then the subject's six. */
const WIDTHS = [26, 70, 175, 38, 70, 38, 38, 38, 38];
const HEADS = [W.number, W.studentId, W.name, ...NC_SUBJECT_COLUMNS];

function cellRow(doc: Doc, y: number, texts: readonly string[], bold: boolean, fill: string | null) {
  let x = MARGIN;
  doc.font(bold ? BOLD : REGULAR).fontSize(SIZE);
  texts.forEach((text, index) => {
    const width = WIDTHS[index] ?? 38;
    if (fill) doc.rect(x, y, width, ROW).fill(fill);
    doc.rect(x, y, width, ROW).lineWidth(0.4).strokeColor(GRID).stroke();
    doc.fillColor('#111111').text(text, x + 2, y + 2, {
      width: width - 4,
      height: ROW,
      align: index === 2 || index === 1 ? 'left' : 'center',
      lineBreak: false,
      ellipsis: true,
    });
    x += width;
  });
}

/** The sheet's PDF. */
export function drawNcMarksheetPdf(model: NcMarksheetModel): Promise<Buffer> {
  const { report } = model;
  const { doc, bytes } = openPdf({
    orientation: 'portrait',
    margin: MARGIN,
    bufferPages: true,
    title: [W.title, report.form, report.stream ?? W.allStreams, `${W.term} ${report.term}`, String(report.year)].join(' '),
    school: model.school.name,
  });
  doc.addPage();
  const bottom = PAGE.height - MARGIN - 14;
  let y = MARGIN;
  doc.font(BOLD).fontSize(14).fillColor('#111111').text(model.school.name, MARGIN, y, { lineBreak: false });
  y += 18;
  doc.fontSize(11).text(W.title, MARGIN, y, { lineBreak: false });
  y += 14;
  doc
    .font(REGULAR)
    .fontSize(9)
    .text(
      `${W.class} ${report.form} · ${report.stream ?? W.allStreams} · ${W.term} ${report.term} · ${report.year} · ${W.markType}: ${report.marktype?.label ?? W.none}`,
      MARGIN,
      y,
      { lineBreak: false },
    );
  y += 16;
  const room = (needed: number) => {
    if (y + needed <= bottom) return false;
    doc.addPage();
    y = MARGIN;
    return true;
  };
  model.subjects.forEach((subject, index) => {
    room(ROW * 3 + 14);
    doc.font(BOLD).fontSize(10).fillColor('#111111').text(`${subject.name} (${subject.code})`, MARGIN, y, { lineBreak: false });
    y += 14;
    cellRow(doc, y, HEADS, true, HEADER_FILL);
    y += ROW;
    model.learners.forEach((learner, number) => {
      if (room(ROW)) {
        cellRow(doc, y, HEADS, true, HEADER_FILL);
        y += ROW;
      }
      const cell = learner.subjects[index];
      const values = cell ? [cell.score, cell.identifier, cell.formative, cell.summative, cell.total, cell.grade] : [];
      cellRow(doc, y, [String(number + 1), learner.studentid, learner.fullname, ...values.map(ncMarksheetText)], false, null);
      y += ROW;
    });
    const counts = model.counts[index];
    if (counts) {
      room(28);
      y += 3;
      const identifiers = model.identifiers.map((label, at) => `${label} ${counts.identifiers[at] ?? 0}`).join(' · ');
      const grades = model.grades.map((grade, at) => `${grade} ${counts.grades[at] ?? 0}`).join(' · ');
      doc.font(REGULAR).fontSize(SIZE).text(`${W.identifierCounts}: ${identifiers}`, MARGIN, y, { lineBreak: false });
      y += ROW;
      doc.text(`${W.gradeCounts}: ${grades}`, MARGIN, y, { lineBreak: false });
      y += ROW + 8;
    }
  });
  const range = doc.bufferedPageRange();
  for (let page = range.start; page < range.start + range.count; page++) {
    doc.switchToPage(page);
    const text = `Page ${page - range.start + 1} of ${range.count}`;
    const { bottom: kept } = doc.page.margins;
    doc.page.margins.bottom = 0;
    doc.font(REGULAR).fontSize(7).fillColor('#111111');
    doc.text(text, PAGE.width - MARGIN - doc.widthOfString(text), PAGE.height - MARGIN + 6, { lineBreak: false });
    doc.page.margins.bottom = kept;
  }
  doc.end();
  return bytes;
}

/** The new-curriculum mark sheet's drawer in the document pool (document-drawers.ts). */
export const drawNcMarksheet: DocumentDrawer<NcMarksheetModel> = (model) => drawNcMarksheetPdf(model);
