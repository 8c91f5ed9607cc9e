import { type LineChartModel, type ProgressChange, type ProgressReportModel, trendLine, PROGRESS_REPORT_WORDS as W } from '@mustard/shared';

/*
 * The progressive report's table and trend, one for the preview and the PDF: a row per subject
 * and the term's totals, a column per term (oldest first); numbers to two decimals, for display
 * only (the model keeps them unrounded). The trend is a chart of the charts module (one
 * definition: SVG in the preview, vector graphics in the PDF, its table beside it).
 */

const shown = (value: number | null) => (value === null ? '' : String(Math.round(value * 100) / 100));
const signed = (value: number) => `${value > 0 ? '+' : ''}${Math.round(value * 100) / 100}`;
const WORD = { improved: W.improved, same: W.same, dropped: W.dropped } as const;
/** A change as printed: "+2.5 Improved"; nothing when there is none. */
const changeText = (change: ProgressChange | null) => (change ? ` (${signed(change.difference)} ${WORD[change.direction]})` : '');

/** A term's column heading: its class, term and year. */
export const termLabel = (term: { form: string; term: string; year: number }) => `${term.form} ${W.term} ${term.term} ${term.year}`;

/** The table's header and rows (texts), shared by the preview and the PDF. */
export function progressRows(model: ProgressReportModel): { head: string[]; rows: string[][] } {
  const head = [W.subject, ...model.terms.map(termLabel)];
  const subjectRows = model.subjects.map((subject) => [
    subject.subject,
    ...subject.terms.map((cell) => {
      if (!cell) return '';
      if (cell.absent) return W.absent;
      return `${shown(cell.mark)} ${cell.grade ?? ''}`.trim() + changeText(cell.change);
    }),
  ]);
  const divisions = model.terms.some((term) => term.level === 'primary' || term.level === 'olevel');
  const points = model.terms.some((term) => term.level === 'alevel');
  const row = (label: string, value: (term: ProgressReportModel['terms'][number]) => string) => [label, ...model.terms.map(value)];
  return {
    head,
    rows: [
      ...subjectRows,
      row(W.total, (term) => shown(term.total)),
      row(W.average, (term) => shown(term.average) + changeText(term.change.average)),
      ...(divisions
        ? [
            row(W.aggregate, (term) => shown(term.aggregate) + changeText(term.change.aggregate)),
            row(W.division, (term) => (term.division ?? '') + (term.change.division ? ` (${WORD[term.change.division]})` : '')),
          ]
        : []),
      ...(points ? [row(W.points, (term) => shown(term.points) + changeText(term.change.points))] : []),
      row(W.position, (term) =>
        term.position === null ? '' : `${term.position} ${W.outOf} ${term.outOf}${changeText(term.change.position)}`,
      ),
    ],
  };
}

/** The trend line (the charts module's one definition): the learner's average mark by term, higher is better. */
export function trendChart(model: ProgressReportModel): LineChartModel {
  return trendLine({
    title: W.trend,
    terms: model.trend.map((point) => point.label),
    series: [{ name: W.average, values: model.trend.map((point) => point.value) }],
    decimals: 2,
    max: 100,
  });
}
