import { type AnalysisModel, analysisCharts, analysisNumber, ANALYSIS_WORDS as W } from '@mustard/shared';
import type { DocumentDrawer } from '../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES } from '../../documents/pdf.js';
import { drawNcAnalysisPdf } from './nc-analysis/pdf.js';
import { drawChartPages } from './pdf/chart.js';

/*
 * The result analysis as a PDF (issue 28 point 1): A4 landscape, the school and class, the
 * subject table (the preview's columns), boys against girls, and the division summary; numbers
 * with the query's decimals. Real text in the embedded fonts. Pure: the model in, the bytes out.
 */

const PAGE = PAGE_SIZES.landscape;
export const MARGIN = 32;
const SIZE = 7.5;
export const ROW = SIZE * 1.17 + 4;
const GRID = '#777777';
const HEADER_FILL = '#e6e6e6';
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;

/** A row of the analysis's tables from `MARGIN`: bold on grey for a head. */
export function cellRow(doc: Doc, y: number, texts: readonly string[], widths: readonly number[], bold: boolean) {
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

/** The analysis's PDF. */
export function drawAnalysisPdf(model: AnalysisModel): Promise<Buffer> {
  const { report } = model;
  const { doc, bytes } = openPdf({
    orientation: 'landscape',
    margin: MARGIN,
    title: [W.title, report.form, report.stream ?? W.allStreams, `${W.term} ${report.term}`, String(report.year)].join(' '),
    school: report.school,
  });
  drawAnalysisPages(doc, model);
  doc.end();
  return bytes;
}

/** A class's analysis from a new page on: alone, or one class of a whole school's. */
export function drawAnalysisPages(doc: Doc, model: AnalysisModel): void {
  const { report, subjects, grades, divisions } = model;
  const p = report.precision;
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
    .text(`${report.form} · ${report.stream ?? W.allStreams} · ${W.term} ${report.term} · ${report.year}`, MARGIN, y, { lineBreak: false });
  y += 16;
  const room = (needed: number) => {
    if (y + needed <= bottom) return;
    doc.addPage();
    y = MARGIN;
  };
  const gradeWidth = Math.max(16, Math.min(26, Math.floor(220 / Math.max(1, grades.length))));
  const widths = [110, 26, 26, ...grades.map(() => gradeWidth), 40, 44, 40, 36, 44, 40, 40, 28, 50];
  const heads = [
    W.subject,
    W.sat,
    W.absent,
    ...grades,
    W.distinction,
    W.credit,
    W.pass,
    W.fail,
    W.meanMark,
    W.meanGradePoint,
    W.performanceIndex,
    W.position,
    W.teacher,
  ];
  cellRow(doc, y, heads, widths, true);
  y += ROW;
  for (const row of subjects) {
    room(ROW);
    cellRow(
      doc,
      y,
      [
        row.subject,
        String(row.sat),
        String(row.absent),
        ...grades.map((grade) => String(row.grades[grade] ?? 0)),
        analysisNumber(row.distinction, p),
        analysisNumber(row.credit, p),
        analysisNumber(row.pass, p),
        analysisNumber(row.fail, p),
        analysisNumber(row.meanMark, p),
        analysisNumber(row.meanGradePoint, p),
        analysisNumber(row.performanceIndex, p),
        row.position === null ? '-' : String(row.position),
        row.teacher ?? '',
      ],
      widths,
      false,
    );
    y += ROW;
  }
  y += 10;
  room(ROW * 2 + 14);
  doc.font(BOLD).fontSize(10).fillColor('#111111').text(W.sexes, MARGIN, y, { lineBreak: false });
  y += 14;
  const sexWidths = [110, 50, 60, 60, 50, 60, 60];
  cellRow(
    doc,
    y,
    [
      W.subject,
      `${W.boys} ${W.sat}`,
      `${W.boys} ${W.meanMark}`,
      `${W.boys} ${W.meanGradePoint}`,
      `${W.girls} ${W.sat}`,
      `${W.girls} ${W.meanMark}`,
      `${W.girls} ${W.meanGradePoint}`,
    ],
    sexWidths,
    true,
  );
  y += ROW;
  for (const row of subjects) {
    room(ROW);
    cellRow(
      doc,
      y,
      [
        row.subject,
        String(row.boys.sat),
        analysisNumber(row.boys.meanMark, p),
        analysisNumber(row.boys.meanGradePoint, p),
        String(row.girls.sat),
        analysisNumber(row.girls.meanMark, p),
        analysisNumber(row.girls.meanGradePoint, p),
      ],
      sexWidths,
      false,
    );
    y += ROW;
  }
  if (divisions) {
    y += 10;
    room(ROW * 2 + 14);
    doc.font(BOLD).fontSize(10).fillColor('#111111').text(W.divisions, MARGIN, y, { lineBreak: false });
    y += 14;
    const divisionWidths = [110, ...divisions.map(() => 36)];
    cellRow(doc, y, [W.division, ...divisions.map((each) => each.division)], divisionWidths, true);
    y += ROW;
    cellRow(doc, y, [W.learners, ...divisions.map((each) => String(each.count))], divisionWidths, false);
  }
  // The charts a head teacher reads first, each with its table beside it (issue 28 point 6).
  drawChartPages(doc, analysisCharts(model), PAGE, MARGIN, y + ROW + 16);
}

/** The result analysis's drawer in the document pool (document-drawers.ts). */
export const drawAnalysis: DocumentDrawer<AnalysisModel> = (model) =>
  model.newCurriculum ? drawNcAnalysisPdf(model) : drawAnalysisPdf(model);
