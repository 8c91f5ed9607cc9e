import { analysisNumber, type SchoolAnalysisModel, schoolAnalysisCharts, ANALYSIS_WORDS as W } from '@mustard/shared';
import type { DocumentDrawer } from '../../documents/drawers.js';
import { DOCUMENT_FONTS, openPdf, PAGE_SIZES } from '../../documents/pdf.js';
import { cellRow, drawAnalysisPages, MARGIN, ROW } from './analysis-pdf.js';
import { drawNcAnalysisPages } from './nc-analysis/pdf.js';
import { drawChartPages } from './pdf/chart.js';

/*
 * A whole school's result analysis as one PDF (issue 28 point 7): the summary of classes first
 * (learners, divisions, % of Division I, mean grade point), the classes left out and why, then
 * each class's analysis from a new page, drawn as it is alone. Progress is a class at a time.
 */

const BOTTOM = PAGE_SIZES.landscape.height - MARGIN;

export const drawSchoolAnalysis: DocumentDrawer<SchoolAnalysisModel> = async (model, progress) => {
  const { report, summary, classes, leftOut } = model;
  const p = report.precision;
  const { doc, bytes } = openPdf({
    orientation: 'landscape',
    margin: MARGIN,
    title: [W.title, W.allClasses, `${W.term} ${report.term}`, String(report.year)].join(' '),
    school: report.school,
  });
  doc.addPage();
  let y = MARGIN;
  doc.font(DOCUMENT_FONTS.bold).fontSize(14).fillColor('#111111').text(report.school, MARGIN, y, { lineBreak: false });
  y += 18;
  doc.fontSize(11).text(`${W.title} · ${W.allClasses}`, MARGIN, y, { lineBreak: false });
  y += 14;
  doc.font(DOCUMENT_FONTS.regular).fontSize(9).text(`${W.term} ${report.term} · ${report.year}`, MARGIN, y, { lineBreak: false });
  y += 16;
  const room = (needed: number) => {
    if (y + needed <= BOTTOM) return;
    doc.addPage();
    y = MARGIN;
  };
  const divisionNames = [...new Set(summary.flatMap((row) => (row.divisions ?? []).map((each) => each.division)))];
  const widths = [70, 50, ...divisionNames.map(() => 36), 50, 50];
  cellRow(doc, y, [W.class, W.learners, ...divisionNames, W.divisionOne, W.meanGradePoint], widths, true);
  y += ROW;
  for (const row of summary) {
    room(ROW);
    const count = (name: string) => row.divisions?.find((each) => each.division === name)?.count;
    cellRow(
      doc,
      y,
      [
        row.form,
        String(row.learners),
        ...divisionNames.map((name) => String(count(name) ?? '-')),
        analysisNumber(row.divisionOne, p),
        analysisNumber(row.meanGradePoint, p),
      ],
      widths,
      false,
    );
    y += ROW;
  }
  if (leftOut.length > 0) {
    y += 10;
    room(ROW * 2 + 14);
    doc.font(DOCUMENT_FONTS.bold).fontSize(10).text(W.leftOut, MARGIN, y, { lineBreak: false });
    y += 14;
    for (const each of leftOut) {
      room(ROW);
      cellRow(doc, y, [each.form, each.reason], [70, 420], false);
      y += ROW;
    }
  }
  // Division bars per class, each with its % Division I, beside their table (issue 28 point 6).
  drawChartPages(doc, schoolAnalysisCharts(model), PAGE_SIZES.landscape, MARGIN, y + ROW + 16);
  classes.forEach((each, index) => {
    if (each.newCurriculum) drawNcAnalysisPages(doc, each);
    else drawAnalysisPages(doc, each);
    progress?.(index + 1, classes.length);
  });
  doc.end();
  return bytes;
};
