import { type AnalysisModel, ANALYSIS_WORDS as W } from '@mustard/shared';
import { ncAnalysisWorkbook } from './nc-analysis/workbook.js';
import { decimalsFormat, tablesWorkbook, type WorkbookTable } from './tables-workbook.js';

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

/** The analysis's workbook: one sheet, the heading then the tables. */
export function analysisWorkbook(model: AnalysisModel): Promise<Buffer> {
  if (model.newCurriculum) return ncAnalysisWorkbook(model);
  const { report, divisions } = model;
  const decimals = decimalsFormat(report.precision);
  const tables = [subjectTable(model, decimals), sexTable(model, decimals)];
  if (divisions)
    tables.push({
      title: W.divisions,
      head: [W.division, ...divisions.map((each) => each.division)],
      rows: [[W.learners, ...divisions.map((each) => each.count)]],
    });
  return tablesWorkbook([
    {
      name: W.title,
      heading: [
        [report.school],
        [W.title],
        [report.form, report.stream ?? W.allStreams, `${W.term} ${report.term}`, report.year],
        [report.markTypes.join(', ')],
      ],
      tables,
    },
  ]);
}
