import { compareExact, type Exact, exact, toNumber } from '../grading/exact.js';

/*
 * The progressive report's pure parts (issue 28 point 4; statistics.md "Cumulative, progressive
 * and average mark sheet", "Directions and absences"): a change between two terms, read in the
 * measure's direction: higher is better for marks, averages and A-level points, lower for
 * grades, aggregates and positions. An absent or missing value is no value: no change is read
 * from it (never a 0).
 */

/** Which way a measure is better. */
export type Better = 'higher' | 'lower';
export type ProgressDirection = 'improved' | 'same' | 'dropped';

export interface ProgressChange {
  from: number;
  to: number;
  /** to - from, exact (a change of 0.1 is 0.1). */
  difference: number;
  direction: ProgressDirection;
}

/** The change from one term's value to the next's in the measure's direction; none when either is missing. */
export function progressChange(
  from: number | Exact | null | undefined,
  to: number | Exact | null | undefined,
  better: Better,
): ProgressChange | null {
  if (from === null || from === undefined || to === null || to === undefined) return null;
  const order = compareExact(to, from);
  const direction: ProgressDirection = order === 0 ? 'same' : order > 0 === (better === 'higher') ? 'improved' : 'dropped';
  return { from: toNumber(exact(from)), to: toNumber(exact(to)), difference: toNumber(exact(to).sub(exact(from))), direction };
}

/** The order of divisions, best first: a division's change is read by its place here (X and none: no change). */
const DIVISION_ORDER = ['I', 'II', 'III', 'IV', 'U'];

/** A division's change, best first (I better than II); none for X, a missing division, or one outside I..U. */
export function divisionChange(from: string | null | undefined, to: string | null | undefined): ProgressDirection | null {
  const a = DIVISION_ORDER.indexOf(from ?? '');
  const b = DIVISION_ORDER.indexOf(to ?? '');
  if (a < 0 || b < 0) return null;
  return a === b ? 'same' : b < a ? 'improved' : 'dropped';
}

/** The progressive report's words (a school document, in English as the cards are). */
export const PROGRESS_REPORT_WORDS = {
  title: 'PROGRESSIVE REPORT',
  subtitle: 'A learner across every term on record (not the termly report card)',
  name: 'Name',
  studentId: 'Student ID',
  class: 'Class',
  stream: 'Stream',
  subject: 'Subject',
  term: 'Term',
  total: 'Total',
  average: 'Average',
  aggregate: 'Aggregate',
  division: 'Division',
  points: 'Points',
  position: 'Position',
  change: 'Change',
  improved: 'Improved',
  same: 'Same',
  dropped: 'Dropped',
  absent: 'ABS',
  trend: 'Trend of the average mark',
  outOf: 'out of',
  leftOut: 'Not shown',
  noMarks: 'This learner has no marks on record yet: the report fills in once a term’s marks are entered.',
  onlyNewCurriculum:
    'This learner’s terms on record are all new-curriculum terms (competencies, no divisions): see New Curriculum → terminal report.',
  newCurriculumTerm: 'new curriculum that year (its card is the new curriculum’s)',
} as const;

const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/** The file name: `progressreport-<class>-<stream>-<student id>` (the stream `all` for none). */
export function progressReportFileName(report: { form: string; stream: string | null }, studentid: string): string {
  return `progressreport-${namePart(report.form)}-${namePart(report.stream ?? 'all')}-${namePart(studentid)}`;
}
