import {
  ANALYSIS_WORDS,
  type AnalysisModel,
  analysisNumber,
  type NcAnalysis,
  ncAtLeastWord,
  ncIdentifierWord,
  NC_ANALYSIS_WORDS as W,
} from '@mustard/shared';

/*
 * The new-curriculum result analysis's tables, once for its three renderers (the preview, the
 * PDF and the workbook): per subject the grades A..E and identifiers, the means, the shares and
 * the position; boys against girls; the class's overall grades and identifiers. Cells keep their
 * numbers (the workbook writes them as numbers); `decimal` marks the columns shown with the
 * query's precision, the rest are counts or text.
 */

export type NcCell = string | number | null;

export interface NcTable {
  /** The line above the table, if any. */
  title?: string;
  head: string[];
  /** A column's explanation key in the model's `explain` (the preview's header tooltip). */
  explain: Array<string | undefined>;
  /** The columns shown with the query's decimals. */
  decimal: boolean[];
  rows: NcCell[][];
}

/** The subject table: a row per subject. */
function subjectTable(nc: NcAnalysis): NcTable {
  const grades = nc.grades.map((each) => each.grade);
  const columns: Array<[string, string | undefined, boolean]> = [
    [ANALYSIS_WORDS.subject, undefined, false],
    [W.assessed, 'assessed', false],
    [W.absent, 'absent', false],
    [W.missing, 'missing', false],
    ...grades.map((grade): [string, string | undefined, boolean] => [grade, undefined, false]),
    [W.scored, 'scored', false],
    ...nc.identifiers.map((identifier): [string, string | undefined, boolean] => [ncIdentifierWord(identifier), 'identifiers', false]),
    [W.meanScore, 'meanScore', true],
    [W.meanTotal, 'meanTotal', true],
    [ncAtLeastWord(nc.satisfactoryGrade), 'satisfactory', true],
    [ncAtLeastWord(nc.passGrade), 'pass', true],
    [ANALYSIS_WORDS.position, 'position', false],
    [ANALYSIS_WORDS.teacher, undefined, false],
  ];
  return {
    head: columns.map((column) => column[0]),
    explain: columns.map((column) => column[1]),
    decimal: columns.map((column) => column[2]),
    rows: nc.subjects.map((row) => [
      row.subject,
      row.assessed,
      row.absent,
      row.missing,
      ...grades.map((grade) => row.grades[grade] ?? 0),
      row.scored,
      ...nc.identifiers.map((identifier) => row.identifiers[identifier.label] ?? 0),
      row.meanScore,
      row.meanTotal,
      row.satisfactory,
      row.pass,
      row.position,
      row.teacher,
    ]),
  };
}

/** Boys against girls per subject: graded, mean total and mean score of each. */
function sexTable(nc: NcAnalysis): NcTable {
  const { boys, girls } = ANALYSIS_WORDS;
  return {
    title: ANALYSIS_WORDS.sexes,
    head: [
      ANALYSIS_WORDS.subject,
      `${boys} ${W.assessed}`,
      `${boys} ${W.meanTotal}`,
      `${boys} ${W.meanScore}`,
      `${girls} ${W.assessed}`,
      `${girls} ${W.meanTotal}`,
      `${girls} ${W.meanScore}`,
    ],
    explain: [undefined, 'assessed', 'meanTotal', 'meanScore', 'assessed', 'meanTotal', 'meanScore'],
    decimal: [false, false, true, true, false, true, true],
    rows: nc.subjects.map((row) => [
      row.subject,
      row.boys.assessed,
      row.boys.meanTotal,
      row.boys.meanScore,
      row.girls.assessed,
      row.girls.meanTotal,
      row.girls.meanScore,
    ]),
  };
}

/** The class's overall grades (A..E, no grade) and identifiers (3..1, no score): all, boys, girls. */
function overallTables(nc: NcAnalysis): NcTable[] {
  const { overall } = nc;
  const sexes = [
    [W.all, 'count'],
    [ANALYSIS_WORDS.boys, 'boys'],
    [ANALYSIS_WORDS.girls, 'girls'],
  ] as const;
  const grades: NcTable = {
    title: `${W.overall}: ${W.overallGrades}`,
    head: ['', ...overall.grades.map((each) => each.grade), W.noGrade, W.meanTotal],
    explain: ['overall'],
    decimal: [false, ...overall.grades.map(() => false), false, true],
    rows: sexes.map(([label, key], index) => [
      label,
      ...overall.grades.map((each) => each[key]),
      overall.ungraded[key],
      index === 0 ? overall.meanTotal : null,
    ]),
  };
  const identifiers: NcTable = {
    title: W.overallIdentifiers,
    head: ['', ...overall.identifiers.map(ncIdentifierWord), W.noScore, W.meanScore],
    explain: ['overall'],
    decimal: [false, ...overall.identifiers.map(() => false), false, true],
    rows: sexes.map(([label, key], index) => [
      label,
      ...overall.identifiers.map((each) => each[key]),
      overall.unscored[key],
      index === 0 ? overall.meanScore : null,
    ]),
  };
  return [grades, identifiers];
}

/** Every table of a new-curriculum class's analysis, in the order printed. */
export function ncAnalysisTables(nc: NcAnalysis): NcTable[] {
  return [subjectTable(nc), sexTable(nc), ...overallTables(nc)];
}

/** A cell as the preview and the PDF print it: decimals as asked for a decimal column, '-' for none. */
export function ncCellText(value: NcCell, decimal: boolean, precision: number): string {
  if (value === null) return '-';
  if (typeof value === 'number') return decimal ? analysisNumber(value, precision) : String(value);
  return value;
}

/** The lines under the title: the class, stream, term and year; the summative exam; what the analysis is of. */
export function ncAnalysisHeading(model: AnalysisModel): string[] {
  const { report } = model;
  return [
    `${report.form} · ${report.stream ?? ANALYSIS_WORDS.allStreams} · ${ANALYSIS_WORDS.term} ${report.term} · ${report.year}`,
    `${W.exam}: ${report.markTypes.join(', ') || '-'} · ${W.curriculum}`,
  ];
}
