import { ANALYSIS_WORDS, type AnalysisModel, analysisNumber, type SchoolAnalysisModel } from '../../endpoints/analysis.js';
import { classSummary } from '../analysis.js';
import { trendLine } from './builders.js';
import type { BarChartModel, Chart, LineChartModel } from './model.js';
import { chartFigureHtml } from './svg.js';

/*
 * The result analysis's charts (issue 28 point 6), drawn from its model's own tables: the grade
 * distribution per subject, mean grade point per subject weakest first (lower is better), boys
 * against girls, the division bars with % Division I, and the class's trend across the year's
 * terms (its mean mark and % Division I). The preview and the PDF draw these.
 */

export const ANALYSIS_CHART_WORDS = {
  grades: 'Grade distribution per subject',
  gradesNote: 'Learners per grade, best grade darkest; ABS and missing marks left out',
  meanGradePoint: 'Mean grade point per subject, weakest first',
  meanGradePointNote: 'Lower is better: the weakest subject at the top',
  sexes: 'Boys and girls: mean mark per subject',
  sexesNote: 'Higher is better; learners who sat only',
  divisions: 'Division summary',
  divisionsByClass: 'Divisions per class',
  divisionsByClassNote: 'Learners per division, Division I darkest; each with its % in Division I',
  classColumn: 'Class',
  divisionOneShort: 'Div. I',
  divisionOne: (share: string, learners: number) => `Division I: ${share}% of ${learners} learners with a result`,
  trend: 'The class across this year’s terms',
  trendNote: 'Higher is better: the mean of the subjects’ mean marks, and the % in Division I',
  classMean: 'Class mean mark',
  divisionOneSeries: '% Division I',
} as const;

/** The class's mean mark and % in Division I across the year's terms so far (two terms at least), from the model's trend. */
export function classTrendChart(model: AnalysisModel): LineChartModel | null {
  const trend = model.trend ?? [];
  if (trend.length < 2) return null;
  return trendLine({
    title: ANALYSIS_CHART_WORDS.trend,
    note: ANALYSIS_CHART_WORDS.trendNote,
    terms: trend.map((point) => `${point.term} ${point.year}`),
    series: [
      { name: ANALYSIS_CHART_WORDS.classMean, values: trend.map((point) => point.meanMark) },
      ...(model.divisions ? [{ name: ANALYSIS_CHART_WORDS.divisionOneSeries, values: trend.map((point) => point.divisionOne) }] : []),
    ],
    decimals: model.report.precision,
    max: 100,
  });
}

/** Learners per grade, a stacked bar per subject (grades best to worst, dark to light). */
export function gradeDistributionChart(model: AnalysisModel): BarChartModel {
  return {
    kind: 'bar',
    title: ANALYSIS_CHART_WORDS.grades,
    note: ANALYSIS_CHART_WORDS.gradesNote,
    categoryLabel: ANALYSIS_WORDS.subject,
    categories: model.subjects.map((row) => row.subject),
    series: model.grades.map((grade) => ({ name: grade, values: model.subjects.map((row) => row.grades[grade] ?? 0) })),
    stacked: true,
    orientation: 'horizontal',
    ordered: true,
    integer: true,
  };
}

/** Mean grade point per subject, the weakest (highest) first; subjects nobody sat last, without a bar. */
export function meanGradePointChart(model: AnalysisModel): BarChartModel {
  const rows = [...model.subjects].sort((a, b) => {
    if (a.meanGradePoint === null || b.meanGradePoint === null) return a.meanGradePoint === null ? (b.meanGradePoint === null ? 0 : 1) : -1;
    return b.meanGradePoint - a.meanGradePoint;
  });
  return {
    kind: 'bar',
    title: ANALYSIS_CHART_WORDS.meanGradePoint,
    note: ANALYSIS_CHART_WORDS.meanGradePointNote,
    categoryLabel: ANALYSIS_WORDS.subject,
    categories: rows.map((row) => row.subject),
    series: [{ name: ANALYSIS_WORDS.meanGradePoint, values: rows.map((row) => row.meanGradePoint) }],
    orientation: 'horizontal',
    decimals: model.report.precision,
  };
}

/** Boys against girls: each subject's mean mark of each, side by side. */
export function sexesChart(model: AnalysisModel): BarChartModel {
  return {
    kind: 'bar',
    title: ANALYSIS_CHART_WORDS.sexes,
    note: ANALYSIS_CHART_WORDS.sexesNote,
    categoryLabel: ANALYSIS_WORDS.subject,
    categories: model.subjects.map((row) => row.subject),
    series: [
      { name: ANALYSIS_WORDS.boys, values: model.subjects.map((row) => row.boys.meanMark) },
      { name: ANALYSIS_WORDS.girls, values: model.subjects.map((row) => row.girls.meanMark) },
    ],
    orientation: 'horizontal',
    decimals: model.report.precision,
  };
}

/**
 * Learners per division (the rules' order, Division I first), noted with the share in Division I
 * of the learners with a result, as the class's summary computes it (classSummary: the "no mark"
 * division, X, is not counted against Division I).
 */
export function divisionChart(model: AnalysisModel): BarChartModel | null {
  const { divisions } = model;
  if (!divisions) return null;
  const { divisionOne: share, withResult } = classSummary(model);
  return {
    kind: 'bar',
    title: ANALYSIS_CHART_WORDS.divisions,
    note: ANALYSIS_CHART_WORDS.divisionOne(analysisNumber(share, model.report.precision), withResult),
    categoryLabel: ANALYSIS_WORDS.division,
    categories: divisions.map((each) => each.division),
    series: [{ name: ANALYSIS_WORDS.learners, values: divisions.map((each) => each.count) }],
    integer: true,
  };
}

/** A class's or stream's divisions and share in Division I (the whole school's summary rows). */
export interface DivisionRow {
  /** "P7", "P7 East". */
  label: string;
  divisions: ReadonlyArray<{ division: string; count: number }> | null;
  /** % in Division I as the summary computed it; null without. */
  divisionOne: number | null;
}

/**
 * Division bars per class or stream: a stacked bar each (Division I darkest), its name with its
 * % in Division I ("P7 · 25.0% Div. I"), so streams compare at a glance.
 */
export function divisionsByClassChart(rows: readonly DivisionRow[], precision: number): BarChartModel {
  const names = [...new Set(rows.flatMap((row) => (row.divisions ?? []).map((each) => each.division)))];
  return {
    kind: 'bar',
    title: ANALYSIS_CHART_WORDS.divisionsByClass,
    note: ANALYSIS_CHART_WORDS.divisionsByClassNote,
    categoryLabel: ANALYSIS_CHART_WORDS.classColumn,
    categories: rows.map((row) =>
      row.divisionOne === null
        ? row.label
        : `${row.label} · ${analysisNumber(row.divisionOne, precision)}% ${ANALYSIS_CHART_WORDS.divisionOneShort}`,
    ),
    series: names.map((name) => ({
      name,
      values: rows.map((row) => (row.divisions ? (row.divisions.find((each) => each.division === name)?.count ?? 0) : null)),
    })),
    stacked: true,
    ordered: true,
    orientation: 'horizontal',
    integer: true,
  };
}

/** The analysis's charts, in the order a head teacher reads them. */
export function analysisCharts(model: AnalysisModel): Chart[] {
  const divisions = divisionChart(model);
  const trend = classTrendChart(model);
  return [
    gradeDistributionChart(model),
    meanGradePointChart(model),
    sexesChart(model),
    ...(divisions ? [divisions] : []),
    ...(trend ? [trend] : []),
  ];
}

/** The analysis's charts for its preview, each with its table beside it (ids by class and stream: several classes share a page). */
export function analysisChartsHtml(model: AnalysisModel): string {
  const id = `analysis-${model.report.form}-${model.report.stream ?? 'all'}`;
  return analysisCharts(model)
    .map((chart, index) => chartFigureHtml(chart, { id: `${id}-${index + 1}` }))
    .join('');
}

/** A whole school's charts (issue 28 point 7's summary): division bars per class with % Division I; none without divisions. */
export function schoolAnalysisCharts(model: SchoolAnalysisModel): Chart[] {
  const rows = model.summary.filter((row) => row.divisions !== null);
  if (rows.length === 0) return [];
  return [
    divisionsByClassChart(
      rows.map((row) => ({ label: row.form, divisions: row.divisions, divisionOne: row.divisionOne })),
      model.report.precision,
    ),
  ];
}

/** The whole school's charts for its preview, each with its table beside it. */
export function schoolAnalysisChartsHtml(model: SchoolAnalysisModel): string {
  return schoolAnalysisCharts(model)
    .map((chart, index) => chartFigureHtml(chart, { id: `analysis-school-${index + 1}` }))
    .join('');
}
