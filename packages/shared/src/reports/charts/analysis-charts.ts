import { ANALYSIS_WORDS, type AnalysisModel, analysisNumber } from '../../endpoints/analysis.js';
import type { BarChartModel, Chart } from './model.js';
import { chartFigureHtml } from './svg.js';

/*
 * The result analysis's charts (issue 28 point 6), drawn from its model's own tables: the grade
 * distribution per subject, mean grade point per subject weakest first (lower is better), boys
 * against girls, and the division bars with % Division I. The preview and the PDF draw these.
 */

export const ANALYSIS_CHART_WORDS = {
  grades: 'Grade distribution per subject',
  gradesNote: 'Learners per grade, best grade darkest; ABS and missing marks left out',
  meanGradePoint: 'Mean grade point per subject, weakest first',
  meanGradePointNote: 'Lower is better: the weakest subject at the top',
  sexes: 'Boys and girls: mean mark per subject',
  sexesNote: 'Higher is better; learners who sat only',
  divisions: 'Division summary',
  divisionOne: (share: string, learners: number) => `Division I: ${share}% of ${learners} learners`,
} as const;

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

/** Learners per division (the rules' order, Division I first), titled with the share in Division I. */
export function divisionChart(model: AnalysisModel): BarChartModel | null {
  const { divisions } = model;
  if (!divisions) return null;
  const first = divisions[0]?.count ?? 0;
  const share = model.learners > 0 ? (first / model.learners) * 100 : null;
  return {
    kind: 'bar',
    title: ANALYSIS_CHART_WORDS.divisions,
    note: ANALYSIS_CHART_WORDS.divisionOne(analysisNumber(share, model.report.precision), model.learners),
    categoryLabel: ANALYSIS_WORDS.division,
    categories: divisions.map((each) => each.division),
    series: [{ name: ANALYSIS_WORDS.learners, values: divisions.map((each) => each.count) }],
    integer: true,
  };
}

/** The analysis's charts, in the order a head teacher reads them. */
export function analysisCharts(model: AnalysisModel): Chart[] {
  const divisions = divisionChart(model);
  return [gradeDistributionChart(model), meanGradePointChart(model), sexesChart(model), ...(divisions ? [divisions] : [])];
}

/** The analysis's charts for its preview, each with its table beside it. */
export function analysisChartsHtml(model: AnalysisModel): string {
  return analysisCharts(model)
    .map((chart, index) => chartFigureHtml(chart, { id: `analysis-${index + 1}` }))
    .join('');
}
