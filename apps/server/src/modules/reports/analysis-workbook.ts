import { type AnalysisModel, type SchoolAnalysisModel, ANALYSIS_WORDS as W } from '@mustard/shared';
import { ncAnalysisSheet, ncAnalysisWorkbook } from './nc-analysis/workbook.js';
import { decimalsFormat, tablesWorkbook, type WorkbookSheet, type WorkbookTable } from './tables-workbook.js';

/*
 * The result analysis as a spreadsheet (`excel=1`, issue 28): the preview's tables (subjects,
 * boys against girls, the division summary) with numbers as numbers, the query's precision as
 * their format, so a head teacher sorts and charts them in Excel as they are.
 */

/** The subject table: a row per subject, the preview's columns. */
function subjectTable(model: AnalysisModel, decimals: string): WorkbookTable {
  const { grades, subjects } = model;
  const head = [
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
  const counted = 3 + grades.length;
  return {
    head,
    rows: subjects.map((row) => [
      row.subject,
      row.sat,
      row.absent,
      ...grades.map((grade) => row.grades[grade] ?? 0),
      row.distinction,
      row.credit,
      row.pass,
      row.fail,
      row.meanMark,
      row.meanGradePoint,
      row.performanceIndex,
      row.position,
      row.teacher,
    ]),
    formats: head.map((_, index) => (index >= counted && index < counted + 7 ? decimals : undefined)),
  };
}

/** Boys against girls per subject: N sat, mean mark and mean grade point of each. */
function sexTable(model: AnalysisModel, decimals: string): WorkbookTable {
  return {
    title: W.sexes,
    head: [
      W.subject,
      `${W.boys} ${W.sat}`,
      `${W.boys} ${W.meanMark}`,
      `${W.boys} ${W.meanGradePoint}`,
      `${W.girls} ${W.sat}`,
      `${W.girls} ${W.meanMark}`,
      `${W.girls} ${W.meanGradePoint}`,
    ],
    rows: model.subjects.map((row) => [
      row.subject,
      row.boys.sat,
      row.boys.meanMark,
      row.boys.meanGradePoint,
      row.girls.sat,
      row.girls.meanMark,
      row.girls.meanGradePoint,
    ]),
    formats: [undefined, undefined, decimals, decimals, undefined, decimals, decimals],
  };
}

/** A class's sheet: the heading then the tables, named `name`. */
function analysisSheet(model: AnalysisModel, name: string): WorkbookSheet {
  const { report, divisions } = model;
  const decimals = decimalsFormat(report.precision);
  const tables = [subjectTable(model, decimals), sexTable(model, decimals)];
  if (divisions)
    tables.push({
      title: W.divisions,
      head: [W.division, ...divisions.map((each) => each.division)],
      rows: [[W.learners, ...divisions.map((each) => each.count)]],
    });
  return {
    name,
    heading: [
      [report.school],
      [W.title],
      [report.form, report.stream ?? W.allStreams, `${W.term} ${report.term}`, report.year],
      [report.markTypes.join(', ')],
    ],
    tables,
  };
}

/** The analysis's workbook: one sheet, the heading then the tables. */
export function analysisWorkbook(model: AnalysisModel): Promise<Buffer> {
  if (model.newCurriculum) return ncAnalysisWorkbook(model);
  return tablesWorkbook([analysisSheet(model, W.title)]);
}

/** A whole school's workbook: the summary of classes first, then a sheet per class named by it. */
export function schoolAnalysisWorkbook(model: SchoolAnalysisModel): Promise<Buffer> {
  const { report, summary, leftOut } = model;
  const decimals = decimalsFormat(report.precision);
  const divisionNames = [...new Set(summary.flatMap((row) => (row.divisions ?? []).map((each) => each.division)))];
  const tables: WorkbookTable[] = [
    {
      head: [W.class, W.learners, ...divisionNames, W.divisionOne, W.meanGradePoint],
      rows: summary.map((row) => [
        row.form,
        row.learners,
        ...divisionNames.map((name) => row.divisions?.find((each) => each.division === name)?.count ?? null),
        row.divisionOne,
        row.meanGradePoint,
      ]),
      formats: [undefined, undefined, ...divisionNames.map(() => undefined), decimals, decimals],
    },
  ];
  if (leftOut.length > 0) tables.push({ title: W.leftOut, head: [W.class, ''], rows: leftOut.map((each) => [each.form, each.reason]) });
  const summarySheet: WorkbookSheet = {
    name: W.allClasses,
    heading: [[report.school], [`${W.title} · ${W.allClasses}`], [`${W.term} ${report.term}`, report.year]],
    tables,
  };
  return tablesWorkbook([
    summarySheet,
    ...model.classes.map((each) => (each.newCurriculum ? ncAnalysisSheet(each, each.report.form) : analysisSheet(each, each.report.form))),
  ]);
}
