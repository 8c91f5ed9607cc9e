import { type Explanation, explanation } from '../grading/engine/explain.js';
import type { LearnerPositions } from '../grading/engine/positions.js';
import { ALEVEL_LETTERS } from '../grading/engine/rules.js';
import { toNumber } from '../grading/exact.js';
import { ABSENT } from '../marks/cells.js';
import type { GradingLearner, LearnerResult } from './graded-results.js';

/*
 * Mark statistics (issue 28 point 2, guide statistics.md): the spec's statistics categories as
 * pure functions of a class's graded results, the same results the report cards print (never a
 * second computation). Each answers a table of named columns and rows, a number's explanation
 * beside it where the engine's explanation codes fit.
 *
 * Rules kept everywhere (statistics.md "Directions and absences"):
 * - lower is better for grade values (D1 1 .. F9 9) and aggregates, higher for marks and points;
 * - an absent (ABS) or missing mark is left out of every mean and counted as X, never as F9 or 0;
 * - ties share a rank (1, 2, 2, 4);
 * - numbers are handed out unrounded: the precision setting rounds for display only.
 */

/** A learner as the statistics read them: a card's numbers, no decorations. */
export interface StatSubject {
  subject_id: string;
  subject: string;
  /** The subject total (out of 100), null when there is none. */
  total: number | null;
  /** Whether the learner was absent (ABS) in the subject: left out, counted as X. */
  absent: boolean;
  grade: string | null;
  /** The grade value (D1 1 .. F9 9), null without a grade. */
  value: number | null;
  /** The subject's category (department): languages, sciences, ...; null when unknown. */
  category?: string | null;
  /** A level: the subject's points (a principal's letter points, a subsidiary's 0 or 1). */
  points?: number | null;
  /** A level: each paper's mark out of 100 and grade value (null when absent or missing). */
  papers?: Array<{ paper: string; mark: number | null; value: number | null }>;
}

export interface StatLearner {
  id: string;
  name: string;
  stream: string;
  gender: 'F' | 'M' | null;
  subjects: StatSubject[];
  total: number | null;
  average: number | null;
  aggregate: number | null;
  division: string | null;
  /** The learner's position in the class, null when unranked. */
  position?: number | null;
  /** A level: the total of the subjects' points, null without a result. */
  points?: number | null;
}

/** The learners of a graded class, as the statistics read them. */
export function statLearnersOf<Learner extends GradingLearner & { fullname?: string; gender?: 'F' | 'M' | null }>(
  results: ReadonlyArray<LearnerResult<Learner>>,
  positions?: ReadonlyMap<string, LearnerPositions>,
): StatLearner[] {
  return results.map((result) => ({
    id: result.learner.id,
    name: result.learner.fullname ?? result.learner.id,
    stream: result.learner.stream ?? '',
    gender: result.learner.gender ?? null,
    subjects: result.subjects.map((subject) => ({
      subject_id: subject.row.subject_id,
      subject: subject.row.subject,
      total: subject.row.total,
      absent: subject.graded.value === ABSENT,
      grade: subject.row.grade,
      value: typeof subject.graded.value === 'number' ? subject.graded.value : null,
      category: subject.graded.category,
      points: subject.row.points,
      papers: subject.papers.map((paper) => ({
        paper: paper.paper,
        mark: subject.row.papers?.find((row) => row.paper === paper.paper)?.mark ?? null,
        value: typeof paper.value === 'number' ? paper.value : null,
      })),
    })),
    total: toNumber(result.total.value),
    average: toNumber(result.average.value),
    aggregate: result.aggregate?.value ?? null,
    division: result.division?.value ?? null,
    points: result.points?.value ?? null,
    position: positions?.get(result.learner.id)?.class.value?.rank ?? null,
  }));
}

/** A cell: a number (unrounded), a label, or nothing; with the reason for a number where one fits. */
export interface StatCell {
  value: number | string | null;
  explain?: Explanation;
}

export interface StatRow {
  key: string;
  label: string;
  cells: Record<string, StatCell>;
}

export interface StatTable {
  category: string;
  columns: Array<{ key: string; label: string }>;
  rows: StatRow[];
  /** Why the table is empty, when it is. */
  empty?: string;
}

/** A subject of the class, in the school's order. */
export interface StatSubjectName {
  subject_id: string;
  subject: string;
}

const cell = (value: number | string | null, explain?: Explanation): StatCell => (explain ? { value, explain } : { value });

/** The mean of the numbers given, explained; null (mean.none) when there are none. */
export function explainedMean(values: ReadonlyArray<number>): StatCell {
  if (values.length === 0) return cell(null, explanation('mean.none'));
  const sum = values.reduce((a, b) => a + b, 0);
  const mean = sum / values.length;
  return cell(mean, explanation('mean.value', { mean, sum, count: values.length }));
}

/**
 * Competition ranks ("1, 2, 2, 4") of scores by key; `lower` ranks the lowest first (grade
 * values, aggregates), `higher` the highest (marks, points). A null score has no rank.
 */
export function competitionRanks(
  scores: ReadonlyArray<{ key: string; score: number | null }>,
  order: 'lower' | 'higher',
  by: string,
): Map<string, StatCell> {
  const ranked = scores.filter((each): each is { key: string; score: number } => each.score !== null);
  const ranks = new Map<string, StatCell>();
  for (const each of scores) {
    if (each.score === null) {
      ranks.set(each.key, cell(null, explanation('position.unranked')));
      continue;
    }
    const score = each.score;
    const better = ranked.filter((other) => (order === 'lower' ? other.score < score : other.score > score)).length;
    const tied = ranked.filter((other) => other.score === score).length;
    const rank = better + 1;
    ranks.set(
      each.key,
      cell(rank, explanation('position.rank', { rank, outOf: ranked.length, by, lowerFirst: order === 'lower', score, total: null, tied })),
    );
  }
  return ranks;
}

/** The streams of the learners, sorted by name ('' for none). */
export function streamsOf(learners: ReadonlyArray<StatLearner>): string[] {
  return [...new Set(learners.map((learner) => learner.stream))].sort((a, b) => a.localeCompare(b));
}

/** The subjects the learners have rows in, in the order first met, unless the school's order is given. */
function subjectsOf(learners: ReadonlyArray<StatLearner>, subjects?: ReadonlyArray<StatSubjectName>): StatSubjectName[] {
  if (subjects) return [...subjects];
  const seen = new Map<string, StatSubjectName>();
  for (const learner of learners) {
    for (const subject of learner.subjects) {
      if (!seen.has(subject.subject_id)) seen.set(subject.subject_id, { subject_id: subject.subject_id, subject: subject.subject });
    }
  }
  return [...seen.values()];
}

const subjectOf = (learner: StatLearner, subjectId: string) => learner.subjects.find((each) => each.subject_id === subjectId);

const percent = (count: number, of: number): number | null => (of === 0 ? null : (count / of) * 100);

/** The default divisions in order (primary and O level), then any the school names besides. */
export const DIVISION_ORDER = ['I', 'II', 'III', 'IV', 'U', 'X'] as const;

// ---------------------------------------------------------------------------------------------
// division: learners per division per stream, % Division I and I+II.

/**
 * Learners per division per stream and the class: a learner without a division (no mark at
 * all) counts as X. N is every learner of the row; % Division I and I + II of N.
 */
export function divisionTable(learners: ReadonlyArray<StatLearner>, options: { bySex?: boolean } = {}): StatTable {
  const named = [...new Set(learners.map((learner) => learner.division ?? 'X'))];
  const divisions = [...DIVISION_ORDER, ...named.filter((each) => !(DIVISION_ORDER as readonly string[]).includes(each)).sort()];
  const row = (key: string, label: string, group: ReadonlyArray<StatLearner>): StatRow => {
    const cells: Record<string, StatCell> = {};
    for (const division of divisions) cells[division] = cell(group.filter((learner) => (learner.division ?? 'X') === division).length);
    const first = group.filter((learner) => learner.division === 'I').length;
    const second = group.filter((learner) => learner.division === 'II').length;
    cells.N = cell(group.length);
    cells.pctI = cell(percent(first, group.length));
    cells.pctI_II = cell(percent(first + second, group.length));
    return { key, label, cells };
  };
  /** The group's row, then (split by sex) its girls' and boys' rows; a learner of unknown sex only in the group's. */
  const rowsOf = (key: string, label: string, group: ReadonlyArray<StatLearner>): StatRow[] => [
    row(key, label, group),
    ...(options.bySex
      ? (['F', 'M'] as const).map((sex) =>
          row(
            `${key}:${sex}`,
            `${label} ${sex}`,
            group.filter((learner) => learner.gender === sex),
          ),
        )
      : []),
  ];
  const rows = streamsOf(learners).flatMap((stream) =>
    rowsOf(
      `stream:${stream}`,
      stream,
      learners.filter((learner) => learner.stream === stream),
    ),
  );
  rows.push(...rowsOf('class', 'Total', learners));
  return {
    category: 'division',
    columns: [
      ...divisions.map((division) => ({ key: division, label: `Div ${division}` })),
      { key: 'N', label: 'N' },
      { key: 'pctI', label: '% Div I' },
      { key: 'pctI_II', label: '% Div I+II' },
    ],
    rows,
    ...(learners.length === 0 ? { empty: 'No learners.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// aggpoint: learners per aggregate value, with a cumulative row.

/** The aggregate range of a level: primary 4..36, O level 8..72; A level counts points 0..20. */
export const AGGREGATE_RANGE = { primary: [4, 36], olevel: [8, 72], alevel: [0, 20] } as const;

/**
 * Learners per aggregate value (columns from..to), a row per stream, the total, and the
 * cumulative total (learners with that aggregate or better, lower being better). Learners
 * without an aggregate are counted in X, never at an aggregate.
 */
export function aggpointTable(
  learners: ReadonlyArray<StatLearner>,
  range: readonly [number, number],
  by: 'aggregate' | 'points' = 'aggregate',
): StatTable {
  const [from, to] = range;
  const of = (learner: StatLearner) => learner[by] ?? null;
  const values: number[] = [];
  for (let value = from; value <= to; value += 1) values.push(value);
  const row = (key: string, label: string, group: ReadonlyArray<StatLearner>): StatRow => {
    const cells: Record<string, StatCell> = {};
    for (const value of values) cells[String(value)] = cell(group.filter((learner) => of(learner) === value).length);
    cells.X = cell(group.filter((learner) => of(learner) === null).length);
    cells.N = cell(group.length);
    return { key, label, cells };
  };
  const rows = streamsOf(learners).map((stream) =>
    row(
      `stream:${stream}`,
      stream,
      learners.filter((learner) => learner.stream === stream),
    ),
  );
  const total = row('total', 'Total', learners);
  rows.push(total);
  const cumulative: Record<string, StatCell> = {};
  let running = 0;
  for (const value of values) {
    running += total.cells[String(value)]?.value as number;
    cumulative[String(value)] = cell(running);
  }
  rows.push({ key: 'cumulative', label: 'Cumulative', cells: cumulative });
  return {
    category: 'aggpoint',
    columns: [...values.map((value) => ({ key: String(value), label: String(value) })), { key: 'X', label: 'X' }, { key: 'N', label: 'N' }],
    rows,
    ...(learners.length === 0 ? { empty: 'No learners.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// mgp: mean grade point per subject, per stream and overall, ranked (lower is better).

/**
 * The mean grade value per subject (sum of grade values / N, N the learners graded in it) per
 * stream and overall, and the subject's rank among subjects (the lowest mean first). ABS and
 * missing are left out; a subject nobody sat has no mean and no rank.
 */
export function mgpTable(
  learners: ReadonlyArray<StatLearner>,
  subjects?: ReadonlyArray<StatSubjectName>,
  teachers?: ReadonlyMap<string, string>,
): StatTable {
  const streams = streamsOf(learners);
  const list = subjectsOf(learners, subjects);
  const valuesOf = (group: ReadonlyArray<StatLearner>, subjectId: string) =>
    group.flatMap((learner) => {
      const value = subjectOf(learner, subjectId)?.value;
      return typeof value === 'number' ? [value] : [];
    });
  const rows: StatRow[] = list.map((subject) => {
    const cells: Record<string, StatCell> = {};
    for (const stream of streams) {
      cells[`stream:${stream}`] = explainedMean(
        valuesOf(
          learners.filter((learner) => learner.stream === stream),
          subject.subject_id,
        ),
      );
    }
    const overall = valuesOf(learners, subject.subject_id);
    cells.N = cell(overall.length);
    cells.mgp = explainedMean(overall);
    cells.teacher = cell(teachers?.get(subject.subject_id) ?? null);
    return { key: subject.subject_id, label: subject.subject, cells };
  });
  const ranks = competitionRanks(
    rows.map((row) => ({ key: row.key, score: row.cells.mgp?.value as number | null })),
    'lower',
    'mean grade point',
  );
  for (const row of rows) row.cells.rank = ranks.get(row.key) ?? cell(null);
  return {
    category: 'mgp',
    columns: [
      ...streams.map((stream) => ({ key: `stream:${stream}`, label: stream })),
      { key: 'N', label: 'N' },
      { key: 'mgp', label: 'Mean grade point' },
      { key: 'rank', label: 'Rank' },
      { key: 'teacher', label: 'Teacher' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No subjects.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// average: each learner's marks, total, average and position (higher is better).

/**
 * A row per learner: each subject's total (ABS shown as 'ABS', missing as null), the total,
 * the average and the position by average (the highest first, ties sharing). A learner without
 * an average is unranked, never last by a 0.
 */
export function averageTable(learners: ReadonlyArray<StatLearner>, subjects?: ReadonlyArray<StatSubjectName>): StatTable {
  const list = subjectsOf(learners, subjects);
  const ranks = competitionRanks(
    learners.map((learner) => ({ key: learner.id, score: learner.average })),
    'higher',
    'average',
  );
  const rows: StatRow[] = learners.map((learner) => {
    const cells: Record<string, StatCell> = {};
    for (const subject of list) {
      const found = subjectOf(learner, subject.subject_id);
      cells[subject.subject_id] = cell(found?.absent ? 'ABS' : (found?.total ?? null));
    }
    cells.total = cell(learner.total);
    cells.average = cell(learner.average);
    cells.position = ranks.get(learner.id) ?? cell(null);
    return { key: learner.id, label: learner.name, cells };
  });
  rows.sort((a, b) => {
    const left = a.cells.position?.value as number | null;
    const right = b.cells.position?.value as number | null;
    if (left === null || right === null) return left === null ? (right === null ? 0 : 1) : -1;
    return left - right;
  });
  return {
    category: 'average',
    columns: [
      ...list.map((subject) => ({ key: subject.subject_id, label: subject.subject })),
      { key: 'total', label: 'Total' },
      { key: 'average', label: 'Average' },
      { key: 'position', label: 'Position' },
    ],
    rows,
    ...(learners.length === 0 ? { empty: 'No learners.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// subjectmean: mean mark per subject, highest, lowest, standard deviation, rank (higher is better).

/**
 * Per subject: N with a mark, N absent, the mean mark, the highest and lowest, the (population)
 * standard deviation, and the rank of the mean among subjects (highest first). ABS and missing
 * are left out; a subject nobody sat has nulls and no rank.
 */
export function subjectMeanTable(learners: ReadonlyArray<StatLearner>, subjects?: ReadonlyArray<StatSubjectName>): StatTable {
  const list = subjectsOf(learners, subjects);
  const rows: StatRow[] = list.map((subject) => {
    const marks: number[] = [];
    let absent = 0;
    for (const learner of learners) {
      const found = subjectOf(learner, subject.subject_id);
      if (found?.absent) absent += 1;
      else if (found?.total != null) marks.push(found.total);
    }
    const mean = explainedMean(marks);
    const m = mean.value as number | null;
    const sd = m === null ? null : Math.sqrt(marks.reduce((sum, mark) => sum + (mark - m) ** 2, 0) / marks.length);
    return {
      key: subject.subject_id,
      label: subject.subject,
      cells: {
        N: cell(marks.length),
        absent: cell(absent),
        mean,
        highest: cell(marks.length === 0 ? null : Math.max(...marks)),
        lowest: cell(marks.length === 0 ? null : Math.min(...marks)),
        sd: cell(sd),
      },
    };
  });
  const ranks = competitionRanks(
    rows.map((row) => ({ key: row.key, score: row.cells.mean?.value as number | null })),
    'higher',
    'mean mark',
  );
  for (const row of rows) row.cells.rank = ranks.get(row.key) ?? cell(null);
  return {
    category: 'subjectmean',
    columns: [
      { key: 'N', label: 'N' },
      { key: 'absent', label: 'Absent' },
      { key: 'mean', label: 'Mean' },
      { key: 'highest', label: 'Highest' },
      { key: 'lowest', label: 'Lowest' },
      { key: 'sd', label: 'Std dev' },
      { key: 'rank', label: 'Rank' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No subjects.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// dcpf and tdcpf: distinction / credit / pass / fail per subject.

/** The D/C/P/F groups of grade values (statistics.md "dcpf"): D 1-2, C 3-6, P 7-8, F 9. */
export const DCPF_GROUPS = [
  { key: 'D', from: 1, to: 2 },
  { key: 'C', from: 3, to: 6 },
  { key: 'P', from: 7, to: 8 },
  { key: 'F', from: 9, to: 9 },
] as const;

function dcpfCounts(learners: ReadonlyArray<StatLearner>, subjectId: string) {
  const values: number[] = [];
  let absent = 0;
  for (const learner of learners) {
    const found = subjectOf(learner, subjectId);
    if (found?.absent) absent += 1;
    else if (typeof found?.value === 'number') values.push(found.value);
  }
  const counts = DCPF_GROUPS.map((group) => values.filter((value) => value >= group.from && value <= group.to).length);
  return { values, absent, counts };
}

/**
 * Per subject (and per stream when asked): counts and % of D, C, P and F among the learners
 * graded in it (N); ABS counted apart (X), never as F.
 */
export function dcpfTable(
  learners: ReadonlyArray<StatLearner>,
  subjects?: ReadonlyArray<StatSubjectName>,
  options: { byStream?: boolean } = {},
): StatTable {
  const list = subjectsOf(learners, subjects);
  const groups: Array<{ key: string; label: string; learners: ReadonlyArray<StatLearner> }> = options.byStream
    ? streamsOf(learners).map((stream) => ({
        key: `:${stream}`,
        label: ` (${stream})`,
        learners: learners.filter((learner) => learner.stream === stream),
      }))
    : [{ key: '', label: '', learners }];
  const rows: StatRow[] = [];
  for (const subject of list) {
    for (const group of groups) {
      const { values, absent, counts } = dcpfCounts(group.learners, subject.subject_id);
      const cells: Record<string, StatCell> = {};
      DCPF_GROUPS.forEach((each, index) => {
        const count = counts[index] ?? 0;
        cells[each.key] = cell(count);
        cells[`pct${each.key}`] = cell(percent(count, values.length));
      });
      cells.X = cell(absent);
      cells.N = cell(values.length);
      rows.push({ key: `${subject.subject_id}${group.key}`, label: `${subject.subject}${group.label}`, cells });
    }
  }
  return {
    category: 'dcpf',
    columns: [
      ...DCPF_GROUPS.flatMap((each) => [
        { key: each.key, label: each.key },
        { key: `pct${each.key}`, label: `% ${each.key}` },
      ]),
      { key: 'X', label: 'X' },
      { key: 'N', label: 'N' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No subjects.' } : {}),
  };
}

/** Per subject the cumulative %: D2 or better, C6 or better, P8 or better (UNEB's style), of N graded. */
export function tdcpfTable(learners: ReadonlyArray<StatLearner>, subjects?: ReadonlyArray<StatSubjectName>): StatTable {
  const list = subjectsOf(learners, subjects);
  const rows: StatRow[] = list.map((subject) => {
    const { values, absent } = dcpfCounts(learners, subject.subject_id);
    const atMost = (cap: number) => percent(values.filter((value) => value <= cap).length, values.length);
    return {
      key: subject.subject_id,
      label: subject.subject,
      cells: { D2: cell(atMost(2)), C6: cell(atMost(6)), P8: cell(atMost(8)), X: cell(absent), N: cell(values.length) },
    };
  });
  return {
    category: 'tdcpf',
    columns: [
      { key: 'D2', label: '% D2 or better' },
      { key: 'C6', label: '% C6 or better' },
      { key: 'P8', label: '% P8 or better' },
      { key: 'X', label: 'X' },
      { key: 'N', label: 'N' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No subjects.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// progress: change between two terms (or mark types), per learner.

export type Trend = 'Improved' | 'Same' | 'Dropped';

/** The trend of a change: for marks higher is better, for aggregates lower is better. */
export function trendOf(previous: number | null, current: number | null, order: 'lower' | 'higher'): Trend | null {
  if (previous === null || current === null) return null;
  if (previous === current) return 'Same';
  const better = order === 'higher' ? current > previous : current < previous;
  return better ? 'Improved' : 'Dropped';
}

/**
 * A row per learner of the current term: the previous and current value of the basis (the
 * average, higher better; or the aggregate, lower better), the change (current - previous),
 * and Improved / Same / Dropped; a learner missing from either term, or without the value in
 * it, has no change and no trend. A footer row counts each trend.
 */
export function progressTable(
  previous: ReadonlyArray<StatLearner>,
  current: ReadonlyArray<StatLearner>,
  basis: 'average' | 'aggregate' | 'position' = 'average',
): StatTable {
  const order = basis === 'average' ? 'higher' : 'lower';
  const before = new Map(previous.map((learner) => [learner.id, learner]));
  const counts: Record<Trend, number> = { Improved: 0, Same: 0, Dropped: 0 };
  const rows: StatRow[] = current.map((learner) => {
    const then = before.get(learner.id)?.[basis] ?? null;
    const now = learner[basis] ?? null;
    const trend = trendOf(then, now, order);
    if (trend) counts[trend] += 1;
    return {
      key: learner.id,
      label: learner.name,
      cells: {
        previous: cell(then),
        current: cell(now),
        change: cell(then === null || now === null ? null : now - then),
        trend: cell(trend),
      },
    };
  });
  rows.push({
    key: 'counts',
    label: 'Learners',
    cells: { Improved: cell(counts.Improved), Same: cell(counts.Same), Dropped: cell(counts.Dropped) },
  });
  return {
    category: 'progress',
    columns: [
      { key: 'previous', label: 'Previous' },
      { key: 'current', label: 'Current' },
      { key: 'change', label: 'Change' },
      { key: 'trend', label: 'Trend' },
    ],
    rows,
    ...(current.length === 0 ? { empty: 'No learners.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// weightedagg, classweightedagg, departmentweightedagg, scategory, caverage.

/**
 * A weight set of the performance indices (the Mark Statistics screen's "weight" field): the
 * weight of each grade value 1..9. `grade` is the default w = 9 - g (D1 8 .. F9 0); `dcpf`
 * weighs D/C/P/F 3/2/1/0.
 */
export const WEIGHT_SETS = {
  grade: [8, 7, 6, 5, 4, 3, 2, 1, 0],
  dcpf: [3, 3, 2, 2, 2, 2, 1, 1, 0],
} as const satisfies Record<string, readonly number[]>;
export type WeightSetName = keyof typeof WEIGHT_SETS;

/** The weight of a grade value under a set (0 outside 1..9). */
const weightOf = (weights: readonly number[], value: number) => weights[value - 1] ?? 0;

/** The index's sum(n_g * w_g) and N * w_max over grade values. */
function indexParts(values: ReadonlyArray<number>, weights: readonly number[]): { sum: number; max: number } {
  const most = Math.max(...weights);
  return { sum: values.reduce((total, value) => total + weightOf(weights, value), 0), max: values.length * most };
}

const indexCell = (parts: { sum: number; max: number }): StatCell => cell(parts.max === 0 ? null : (parts.sum / parts.max) * 100);

/** The grade values of a subject among learners, ABS and missing left out. */
function gradeValues(learners: ReadonlyArray<StatLearner>, subjectId: string): number[] {
  return learners.flatMap((learner) => {
    const value = subjectOf(learner, subjectId)?.value;
    return typeof value === 'number' ? [value] : [];
  });
}

/**
 * The performance index per subject: sum(n_g * w_g) / (N * w_max) * 100 over the learners
 * graded in it (N), with the count of each grade value 1..9, absences apart (X), and the rank
 * among subjects (the highest index first). A subject nobody sat has no index and no rank.
 */
export function weightedAggTable(
  learners: ReadonlyArray<StatLearner>,
  subjects?: ReadonlyArray<StatSubjectName>,
  weightSet: WeightSetName = 'grade',
): StatTable {
  const weights = WEIGHT_SETS[weightSet];
  const list = subjectsOf(learners, subjects);
  const rows: StatRow[] = list.map((subject) => {
    const values = gradeValues(learners, subject.subject_id);
    const cells: Record<string, StatCell> = {};
    for (let value = 1; value <= 9; value += 1) cells[`g${value}`] = cell(values.filter((each) => each === value).length);
    cells.X = cell(learners.filter((learner) => subjectOf(learner, subject.subject_id)?.absent).length);
    cells.N = cell(values.length);
    cells.index = indexCell(indexParts(values, weights));
    return { key: subject.subject_id, label: subject.subject, cells };
  });
  const ranks = competitionRanks(
    rows.map((row) => ({ key: row.key, score: row.cells.index?.value as number | null })),
    'higher',
    'performance index',
  );
  for (const row of rows) row.cells.rank = ranks.get(row.key) ?? cell(null);
  return {
    category: 'weightedagg',
    columns: [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((value) => ({ key: `g${value}`, label: String(value) })),
      { key: 'X', label: 'X' },
      { key: 'N', label: 'N' },
      { key: 'index', label: 'Index %' },
      { key: 'rank', label: 'Rank' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No subjects.' } : {}),
  };
}

/** The division weights of the class index: I 20, II 15, III 10, IV 5, any other 0. */
export const DIVISION_WEIGHTS: Readonly<Record<string, number>> = { I: 20, II: 15, III: 10, IV: 5 };

/**
 * The performance index per stream and the class from divisions: (20 I + 15 II + 10 III + 5 IV)
 * / (20 N) * 100, N the learners with a result (a division other than X); a stream with none has
 * no index. Streams ranked, the highest index first.
 */
export function classWeightedAggTable(learners: ReadonlyArray<StatLearner>): StatTable {
  const row = (key: string, label: string, group: ReadonlyArray<StatLearner>): StatRow => {
    const withResult = group.filter((learner) => learner.division !== null && learner.division !== 'X');
    const sum = withResult.reduce((total, learner) => total + (DIVISION_WEIGHTS[learner.division as string] ?? 0), 0);
    const cells: Record<string, StatCell> = {};
    for (const division of ['I', 'II', 'III', 'IV', 'U']) cells[division] = cell(group.filter((each) => each.division === division).length);
    cells.X = cell(group.length - withResult.length);
    cells.N = cell(withResult.length);
    cells.index = cell(withResult.length === 0 ? null : (sum / (20 * withResult.length)) * 100);
    return { key, label, cells };
  };
  const rows = streamsOf(learners).map((stream) =>
    row(
      `stream:${stream}`,
      stream,
      learners.filter((learner) => learner.stream === stream),
    ),
  );
  const ranks = competitionRanks(
    rows.map((each) => ({ key: each.key, score: each.cells.index?.value as number | null })),
    'higher',
    'performance index',
  );
  for (const each of rows) each.cells.rank = ranks.get(each.key) ?? cell(null);
  rows.push(row('class', 'Total', learners));
  return {
    category: 'classweightedagg',
    columns: [
      ...['I', 'II', 'III', 'IV', 'U', 'X'].map((division) => ({ key: division, label: `Div ${division}` })),
      { key: 'N', label: 'N' },
      { key: 'index', label: 'Index %' },
      { key: 'rank', label: 'Rank' },
    ],
    rows,
    ...(learners.length === 0 ? { empty: 'No learners.' } : {}),
  };
}

/** The departments (subject categories) of the subjects, in the order first met; '' for none. */
function departmentsOf(learners: ReadonlyArray<StatLearner>, subjectIds: ReadonlyArray<string>): Map<string, string[]> {
  const departments = new Map<string, string[]>();
  for (const id of subjectIds) {
    const category = learners.map((learner) => subjectOf(learner, id)?.category).find((each) => each != null) ?? '';
    departments.set(category, [...(departments.get(category) ?? []), id]);
  }
  return departments;
}

/**
 * The performance index per department (subject category), per stream and overall: the
 * department's grades pooled, sum(n_g * w_g) / (N * w_max) * 100 over every graded result in its
 * subjects; departments ranked, the highest index first.
 */
export function departmentWeightedAggTable(
  learners: ReadonlyArray<StatLearner>,
  subjects?: ReadonlyArray<StatSubjectName>,
  weightSet: WeightSetName = 'grade',
): StatTable {
  const weights = WEIGHT_SETS[weightSet];
  const streams = streamsOf(learners);
  const departments = departmentsOf(
    learners,
    subjectsOf(learners, subjects).map((subject) => subject.subject_id),
  );
  const pooled = (group: ReadonlyArray<StatLearner>, ids: ReadonlyArray<string>) =>
    indexCell(
      indexParts(
        ids.flatMap((id) => gradeValues(group, id)),
        weights,
      ),
    );
  const rows: StatRow[] = [...departments].map(([department, ids]) => {
    const cells: Record<string, StatCell> = {};
    for (const stream of streams) {
      cells[`stream:${stream}`] = pooled(
        learners.filter((learner) => learner.stream === stream),
        ids,
      );
    }
    cells.N = cell(ids.flatMap((id) => gradeValues(learners, id)).length);
    cells.index = pooled(learners, ids);
    return { key: department, label: department, cells };
  });
  const ranks = competitionRanks(
    rows.map((row) => ({ key: row.key, score: row.cells.index?.value as number | null })),
    'higher',
    'performance index',
  );
  for (const row of rows) row.cells.rank = ranks.get(row.key) ?? cell(null);
  return {
    category: 'departmentweightedagg',
    columns: [
      ...streams.map((stream) => ({ key: `stream:${stream}`, label: stream })),
      { key: 'N', label: 'N' },
      { key: 'index', label: 'Index %' },
      { key: 'rank', label: 'Rank' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No subjects.' } : {}),
  };
}

/**
 * By subject category: the mean grade value of every graded result in the category's subjects,
 * per stream and overall (lower is better), categories ranked the lowest mean first.
 */
export function scategoryTable(learners: ReadonlyArray<StatLearner>, subjects?: ReadonlyArray<StatSubjectName>): StatTable {
  const streams = streamsOf(learners);
  const departments = departmentsOf(
    learners,
    subjectsOf(learners, subjects).map((subject) => subject.subject_id),
  );
  const rows: StatRow[] = [...departments].map(([department, ids]) => {
    const cells: Record<string, StatCell> = {};
    for (const stream of streams) {
      const group = learners.filter((learner) => learner.stream === stream);
      cells[`stream:${stream}`] = explainedMean(ids.flatMap((id) => gradeValues(group, id)));
    }
    const all = ids.flatMap((id) => gradeValues(learners, id));
    cells.N = cell(all.length);
    cells.mgp = explainedMean(all);
    return { key: department, label: department, cells };
  });
  const ranks = competitionRanks(
    rows.map((row) => ({ key: row.key, score: row.cells.mgp?.value as number | null })),
    'lower',
    'mean grade point',
  );
  for (const row of rows) row.cells.rank = ranks.get(row.key) ?? cell(null);
  return {
    category: 'scategory',
    columns: [
      ...streams.map((stream) => ({ key: `stream:${stream}`, label: stream })),
      { key: 'N', label: 'N' },
      { key: 'mgp', label: 'Mean grade point' },
      { key: 'rank', label: 'Rank' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No subjects.' } : {}),
  };
}

/**
 * Class averages: a row per subject with its mean mark per stream and overall, the highest and
 * lowest mark; then an overall row, the mean of the learners' averages per stream and overall,
 * the highest and lowest average. ABS, missing and learners without an average are left out.
 */
export function caverageTable(learners: ReadonlyArray<StatLearner>, subjects?: ReadonlyArray<StatSubjectName>): StatTable {
  const streams = streamsOf(learners);
  const marks = (group: ReadonlyArray<StatLearner>, id: string) =>
    group.flatMap((learner) => {
      const found = subjectOf(learner, id);
      return found && !found.absent && found.total !== null ? [found.total] : [];
    });
  const row = (key: string, label: string, numbers: (group: ReadonlyArray<StatLearner>) => number[]): StatRow => {
    const cells: Record<string, StatCell> = {};
    for (const stream of streams)
      cells[`stream:${stream}`] = explainedMean(numbers(learners.filter((learner) => learner.stream === stream)));
    const all = numbers(learners);
    cells.mean = explainedMean(all);
    cells.highest = cell(all.length === 0 ? null : Math.max(...all));
    cells.lowest = cell(all.length === 0 ? null : Math.min(...all));
    return { key, label, cells };
  };
  const rows = subjectsOf(learners, subjects).map((subject) =>
    row(subject.subject_id, subject.subject, (group) => marks(group, subject.subject_id)),
  );
  rows.push(row('overall', 'Overall', (group) => group.flatMap((learner) => (learner.average === null ? [] : [learner.average]))));
  return {
    category: 'caverage',
    columns: [
      ...streams.map((stream) => ({ key: `stream:${stream}`, label: stream })),
      { key: 'mean', label: 'Mean' },
      { key: 'highest', label: 'Highest' },
      { key: 'lowest', label: 'Lowest' },
    ],
    rows,
    ...(learners.length === 0 ? { empty: 'No learners.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// alevel, asummary, paper (A level).

const PRINCIPAL_PASSES = ['A', 'B', 'C', 'D', 'E'];
const isSubsidiary = (subject: StatSubject | undefined) => subject?.category === 'subsidiary';

/**
 * Per principal subject (subsidiaries have no letter): learners per letter A..F and O, those
 * absent or without a letter (X), N with a letter, % principal passes (A..E of N) and the mean
 * points of those with a letter (higher is better), ranked highest first; by stream when asked.
 */
export function alevelTable(
  learners: ReadonlyArray<StatLearner>,
  subjects?: ReadonlyArray<StatSubjectName>,
  options: { byStream?: boolean } = {},
): StatTable {
  const list = subjectsOf(learners, subjects).filter(
    (subject) => !learners.some((learner) => isSubsidiary(subjectOf(learner, subject.subject_id))),
  );
  const groups: Array<{ key: string; label: string; learners: ReadonlyArray<StatLearner> }> = options.byStream
    ? streamsOf(learners).map((stream) => ({
        key: `:${stream}`,
        label: ` (${stream})`,
        learners: learners.filter((learner) => learner.stream === stream),
      }))
    : [{ key: '', label: '', learners }];
  const rows: StatRow[] = [];
  for (const subject of list) {
    for (const group of groups) {
      const graded = group.learners.flatMap((learner) => {
        const found = subjectOf(learner, subject.subject_id);
        return found?.grade != null && (ALEVEL_LETTERS as readonly string[]).includes(found.grade) ? [found] : [];
      });
      const sat = group.learners.filter((learner) => subjectOf(learner, subject.subject_id) !== undefined).length;
      const cells: Record<string, StatCell> = {};
      for (const letter of ALEVEL_LETTERS) cells[letter] = cell(graded.filter((each) => each.grade === letter).length);
      cells.X = cell(sat - graded.length);
      cells.N = cell(graded.length);
      cells.pctPrincipal = cell(percent(graded.filter((each) => PRINCIPAL_PASSES.includes(each.grade as string)).length, graded.length));
      cells.meanPoints = explainedMean(graded.flatMap((each) => (each.points == null ? [] : [each.points])));
      rows.push({ key: `${subject.subject_id}${group.key}`, label: `${subject.subject}${group.label}`, cells });
    }
  }
  const ranks = competitionRanks(
    rows.map((row) => ({ key: row.key, score: row.cells.meanPoints?.value as number | null })),
    'higher',
    'mean points',
  );
  if (!options.byStream) for (const row of rows) row.cells.rank = ranks.get(row.key) ?? cell(null);
  return {
    category: 'alevel',
    columns: [
      ...ALEVEL_LETTERS.map((letter) => ({ key: letter, label: letter })),
      { key: 'X', label: 'X' },
      { key: 'N', label: 'N' },
      { key: 'pctPrincipal', label: '% principal passes' },
      { key: 'meanPoints', label: 'Mean points' },
      ...(options.byStream ? [] : [{ key: 'rank', label: 'Rank' }]),
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No principal subjects.' } : {}),
  };
}

/** A learner's principal passes: principal subjects with a letter A..E. */
export function principalPasses(learner: StatLearner): number {
  return learner.subjects.filter((subject) => !isSubsidiary(subject) && PRINCIPAL_PASSES.includes(subject.grade ?? '')).length;
}

/**
 * Learners per stream and the class by principal passes: 3P (three or more), 2P, 1P,
 * subsidiary only (no principal pass, some points), fail (no points), X (no result: no points
 * computed); and the mean points of those with points (higher is better).
 */
export function asummaryTable(learners: ReadonlyArray<StatLearner>): StatTable {
  const bucket = (learner: StatLearner): string => {
    if (learner.points == null) return 'X';
    const passes = principalPasses(learner);
    if (passes >= 3) return 'P3';
    if (passes > 0) return `P${passes}`;
    return learner.points > 0 ? 'subsidiary' : 'fail';
  };
  const keys = ['P3', 'P2', 'P1', 'subsidiary', 'fail', 'X'];
  const row = (key: string, label: string, group: ReadonlyArray<StatLearner>): StatRow => {
    const cells: Record<string, StatCell> = {};
    for (const each of keys) cells[each] = cell(group.filter((learner) => bucket(learner) === each).length);
    cells.N = cell(group.length);
    cells.meanPoints = explainedMean(group.flatMap((learner) => (learner.points == null ? [] : [learner.points])));
    return { key, label, cells };
  };
  const rows = streamsOf(learners).map((stream) =>
    row(
      `stream:${stream}`,
      stream,
      learners.filter((learner) => learner.stream === stream),
    ),
  );
  rows.push(row('class', 'Total', learners));
  return {
    category: 'asummary',
    columns: [
      { key: 'P3', label: '3P' },
      { key: 'P2', label: '2P' },
      { key: 'P1', label: '1P' },
      { key: 'subsidiary', label: 'Subsidiary only' },
      { key: 'fail', label: 'Fail' },
      { key: 'X', label: 'X' },
      { key: 'N', label: 'N' },
      { key: 'meanPoints', label: 'Mean points' },
    ],
    rows,
    ...(learners.length === 0 ? { empty: 'No learners.' } : {}),
  };
}

/**
 * Per subject and paper (A level): learners per grade value 1..9 (D1..F9), those absent or
 * without a mark (X, never F9), N graded, and the mean mark of those with one.
 */
export function paperTable(learners: ReadonlyArray<StatLearner>, subjects?: ReadonlyArray<StatSubjectName>): StatTable {
  const rows: StatRow[] = [];
  for (const subject of subjectsOf(learners, subjects)) {
    const papers = [
      ...new Set(learners.flatMap((learner) => (subjectOf(learner, subject.subject_id)?.papers ?? []).map((each) => each.paper))),
    ];
    for (const paper of papers) {
      const found = learners.flatMap((learner) => {
        const each = subjectOf(learner, subject.subject_id)?.papers?.find((candidate) => candidate.paper === paper);
        return each ? [each] : [];
      });
      const values = found.flatMap((each) => (each.value === null ? [] : [each.value]));
      const cells: Record<string, StatCell> = {};
      for (let value = 1; value <= 9; value += 1) cells[`g${value}`] = cell(values.filter((each) => each === value).length);
      cells.X = cell(found.length - values.length);
      cells.N = cell(values.length);
      cells.mean = explainedMean(found.flatMap((each) => (each.mark === null ? [] : [each.mark])));
      rows.push({ key: `${subject.subject_id}|${paper}`, label: `${subject.subject} ${paper}`, cells });
    }
  }
  return {
    category: 'paper',
    columns: [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((value) => ({ key: `g${value}`, label: String(value) })),
      { key: 'X', label: 'X' },
      { key: 'N', label: 'N' },
      { key: 'mean', label: 'Mean mark' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No papers.' } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// ple: the PLE analysis sheet, four blocks.

/** The PLE analysis sheet: the subject grid, the aggregate counts, the division counts, the mark list. */
export interface PleSheet {
  category: 'ple';
  blocks: { subjects: StatTable; aggregates: StatTable; divisions: StatTable; marks: StatTable };
}

/**
 * The PLE analysis sheet (primary): (1) per subject the learners per grade D1..F9, those absent
 * (X), the total graded, % distinction (D1-D2) and the teacher; (2) the learners per aggregate
 * 4..36 (aggpoint; an O-level class's sheet counts its 8..72 by `range`); (3) the learners per
 * division with % Division I (division); (4) the mark list: each learner's subject marks and
 * grades, aggregate, division and position by the aggregate (lowest first, ties sharing, no
 * aggregate unranked).
 */
export function pleSheet(
  learners: ReadonlyArray<StatLearner>,
  subjects?: ReadonlyArray<StatSubjectName>,
  teachers?: ReadonlyMap<string, string>,
  range: readonly [number, number] = AGGREGATE_RANGE.primary,
): PleSheet {
  const list = subjectsOf(learners, subjects);
  const grid: StatTable = {
    category: 'ple',
    columns: [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((value) => ({
        key: `g${value}`,
        label: value <= 2 ? `D${value}` : value <= 6 ? `C${value}` : value <= 8 ? `P${value}` : 'F9',
      })),
      { key: 'X', label: 'X' },
      { key: 'N', label: 'Total' },
      { key: 'pctD', label: '% distinction' },
      { key: 'teacher', label: 'Teacher' },
    ],
    rows: list.map((subject) => {
      const values = gradeValues(learners, subject.subject_id);
      const cells: Record<string, StatCell> = {};
      for (let value = 1; value <= 9; value += 1) cells[`g${value}`] = cell(values.filter((each) => each === value).length);
      cells.X = cell(learners.filter((learner) => subjectOf(learner, subject.subject_id)?.absent).length);
      cells.N = cell(values.length);
      cells.pctD = cell(percent(values.filter((each) => each <= 2).length, values.length));
      cells.teacher = cell(teachers?.get(subject.subject_id) ?? null);
      return { key: subject.subject_id, label: subject.subject, cells };
    }),
    ...(list.length === 0 ? { empty: 'No subjects.' } : {}),
  };
  const ranks = competitionRanks(
    learners.map((learner) => ({ key: learner.id, score: learner.aggregate })),
    'lower',
    'aggregate',
  );
  const markRows: StatRow[] = learners.map((learner) => {
    const cells: Record<string, StatCell> = {};
    for (const subject of list) {
      const found = subjectOf(learner, subject.subject_id);
      cells[subject.subject_id] = cell(found?.absent ? 'ABS' : (found?.total ?? null));
      cells[`${subject.subject_id}:grade`] = cell(found?.absent ? 'X' : (found?.grade ?? null));
    }
    cells.aggregate = cell(learner.aggregate);
    cells.division = cell(learner.division ?? 'X');
    cells.position = ranks.get(learner.id) ?? cell(null);
    return { key: learner.id, label: learner.name, cells };
  });
  markRows.sort((a, b) => {
    const left = a.cells.position?.value as number | null;
    const right = b.cells.position?.value as number | null;
    if (left === null || right === null) return left === null ? (right === null ? 0 : 1) : -1;
    return left - right;
  });
  const marks: StatTable = {
    category: 'ple',
    columns: [
      ...list.flatMap((subject) => [
        { key: subject.subject_id, label: subject.subject },
        { key: `${subject.subject_id}:grade`, label: 'Grade' },
      ]),
      { key: 'aggregate', label: 'Aggregate' },
      { key: 'division', label: 'Division' },
      { key: 'position', label: 'Position' },
    ],
    rows: markRows,
    ...(learners.length === 0 ? { empty: 'No learners.' } : {}),
  };
  return {
    category: 'ple',
    blocks: { subjects: grid, aggregates: aggpointTable(learners, range), divisions: divisionTable(learners), marks },
  };
}

/**
 * Per subject: the mean mark of the previous term and of the current (of those with a mark, ABS
 * left out), the change and Improved / Same / Dropped (higher is better); a subject without a
 * mean in either term has no change.
 */
export function progressSubjectsTable(
  previous: ReadonlyArray<StatLearner>,
  current: ReadonlyArray<StatLearner>,
  subjects?: ReadonlyArray<StatSubjectName>,
): StatTable {
  const meanOf = (group: ReadonlyArray<StatLearner>, id: string) =>
    explainedMean(
      group.flatMap((learner) => {
        const found = subjectOf(learner, id);
        return found && !found.absent && found.total !== null ? [found.total] : [];
      }),
    );
  const rows: StatRow[] = subjectsOf(current, subjects).map((subject) => {
    const then = meanOf(previous, subject.subject_id);
    const now = meanOf(current, subject.subject_id);
    const a = then.value as number | null;
    const b = now.value as number | null;
    return {
      key: subject.subject_id,
      label: subject.subject,
      cells: { previous: then, current: now, change: cell(a === null || b === null ? null : b - a), trend: cell(trendOf(a, b, 'higher')) },
    };
  });
  return {
    category: 'progress',
    columns: [
      { key: 'previous', label: 'Previous' },
      { key: 'current', label: 'Current' },
      { key: 'change', label: 'Change' },
      { key: 'trend', label: 'Trend' },
    ],
    rows,
    ...(rows.length === 0 ? { empty: 'No subjects.' } : {}),
  };
}

/** The decimals a statistics table may show (the screen's precision field). */
export const MAX_STATISTICS_PRECISION = 4;

/**
 * A number as a table shows it: rounded half away from zero to `precision` decimals (0..4), for
 * display only; ranks and comparisons use the unrounded number. A label or nothing is as it is.
 */
export function statisticsDisplay(value: number | string | null, precision: number): string {
  if (!Number.isInteger(precision) || precision < 0 || precision > MAX_STATISTICS_PRECISION) {
    throw new RangeError(`precision must be an integer from 0 to ${MAX_STATISTICS_PRECISION}`);
  }
  if (value === null) return '';
  if (typeof value === 'string') return value;
  const factor = 10 ** precision;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor + Number.EPSILON * factor)) / factor;
  return rounded.toFixed(precision);
}

/** The statistics categories built here (the others of spec §9 are not yet). */
export const STATISTICS_CATEGORIES_BUILT = [
  'division',
  'aggpoint',
  'mgp',
  'average',
  'subjectmean',
  'dcpf',
  'tdcpf',
  'progress',
  'weightedagg',
  'classweightedagg',
  'departmentweightedagg',
  'scategory',
  'caverage',
  'alevel',
  'asummary',
  'paper',
  'ple',
] as const;
export type BuiltStatisticsCategory = (typeof STATISTICS_CATEGORIES_BUILT)[number];
