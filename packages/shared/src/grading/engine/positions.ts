import { compareExact, type Exact, exact, exactMean, exactSum, toNumber } from '../exact.js';
import { type Explained, explanation } from './explain.js';
import type { PositionRules } from './rules.js';

/*
 * Positions and means (guide grading.md, "Positions, means and statistics"): learners ranked in
 * the class and in each stream, ties sharing a rank ("1, 2, 2, 4"), shown as "x out of n" where
 * n counts the learners ranked.
 *
 * What is ranked is the school's rule (rules.ts `positions`), by default the number that decides
 * the result: the aggregate (lower first) then the total of the counted subjects at primary and
 * O level, the points then the total at A level. A learner whose result is incomplete (a counted
 * subject without a mark: Division X, a principal without a letter) never ranks above a complete
 * one: they follow, by total, or stay unranked, as the school chooses. Ranking by an average of
 * the subjects a learner sat would put a learner absent from one exam (90, 90, 90, ABS) above
 * one with four distinctions. Everything is compared exactly (exact.ts): two totals of 72.1
 * reached by different weightings are one score.
 */

/** Which end ranks first: 'higher' for totals, averages and points, 'lower' for aggregates. */
export type RankOrder = 'higher' | 'lower';

/** What a learner is ranked by, named for the explanation. */
export type RankBasisName = 'aggregate' | 'points' | 'average' | 'total';

export interface Ranked {
  id: string;
  stream: string;
  /** Whether the learner's result is complete (see the file's comment). */
  complete: boolean;
  /** The number ranked by (the aggregate, points, average or total), null when there is none. */
  score: number | Exact | null;
  /** The total that breaks ties, and orders the incomplete results that follow. */
  total: number | Exact | null;
}

export interface RankBasis {
  /** What `score` is. */
  by: RankBasisName;
  order: RankOrder;
  /** Whether ties are broken by the total (not when the score is the total). */
  tieByTotal: boolean;
  incomplete: PositionRules['incomplete'];
}

export interface Position {
  rank: number;
  outOf: number;
}

export interface LearnerPositions {
  class: Explained<Position | null>;
  stream: Explained<Position | null>;
}

const compareNullable = (a: number | Exact | null, b: number | Exact | null) => {
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
  return compareExact(a, b);
};

const shown = (value: number | Exact | null) => (value === null ? null : typeof value === 'number' ? value : toNumber(value));

/** Competition ranking ("1, 2, 2, 4") of a group under a basis, by id. */
export function rankGroup(group: ReadonlyArray<Ranked>, basis: RankBasis): Map<string, Explained<Position | null>> {
  const complete = group.filter((learner) => learner.complete && learner.score !== null);
  const following =
    basis.incomplete === 'after' ? group.filter((learner) => !(learner.complete && learner.score !== null) && learner.total !== null) : [];
  const isComplete = new Set(complete.map((learner) => learner.id));
  const sign = basis.order === 'higher' ? -1 : 1;
  /** Orders complete results by the score (then the total), and the incomplete after them by the total. */
  const compare = (a: Ranked, b: Ranked): number => {
    const aComplete = isComplete.has(a.id);
    const bComplete = isComplete.has(b.id);
    if (aComplete !== bComplete) return aComplete ? -1 : 1;
    if (aComplete) {
      const byScore = sign * compareNullable(a.score, b.score);
      if (byScore !== 0 || !basis.tieByTotal) return byScore;
    }
    return -compareNullable(a.total, b.total);
  };
  const sorted = [...complete, ...following].sort(compare);
  const outOf = sorted.length;
  const positions = new Map<string, Explained<Position | null>>();
  // Runs of learners equal under the comparison share the rank of the run's first ("1, 2, 2, 4").
  let start = 0;
  while (start < sorted.length) {
    let end = start + 1;
    while (end < sorted.length && compare(sorted[start] as Ranked, sorted[end] as Ranked) === 0) end += 1;
    const rank = start + 1;
    const tied = end - start;
    for (const learner of sorted.slice(start, end)) {
      positions.set(learner.id, {
        value: { rank, outOf },
        explain: isComplete.has(learner.id)
          ? explanation('position.rank', {
              rank,
              outOf,
              by: basis.by,
              score: shown(learner.score),
              lowerFirst: basis.order === 'lower',
              total: basis.tieByTotal ? shown(learner.total) : null,
              tied,
            })
          : explanation('position.incompleteAfter', { rank, outOf, total: shown(learner.total), tied }),
      });
    }
    start = end;
  }
  for (const learner of group) {
    if (positions.has(learner.id)) continue;
    const reason = learner.total === null ? 'position.unranked' : 'position.unrankedIncomplete';
    positions.set(learner.id, { value: null, explain: explanation(reason) });
  }
  return positions;
}

/** Each learner's position in the class (all given) and in their stream. */
export function classPositions(learners: ReadonlyArray<Ranked>, basis: RankBasis): Map<string, LearnerPositions> {
  const inClass = rankGroup(learners, basis);
  const inStream = new Map<string, Explained<Position | null>>();
  for (const stream of new Set(learners.map((learner) => learner.stream))) {
    for (const [id, position] of rankGroup(
      learners.filter((learner) => learner.stream === stream),
      basis,
    )) {
      inStream.set(id, position);
    }
  }
  const result = new Map<string, LearnerPositions>();
  for (const learner of learners) {
    const unranked = { value: null, explain: explanation('position.unranked') };
    result.set(learner.id, { class: inClass.get(learner.id) ?? unranked, stream: inStream.get(learner.id) ?? unranked });
  }
  return result;
}

/** The mean of the scores that exist (null when none), computed exactly. */
export function meanScore(scores: ReadonlyArray<number | Exact | null>): Explained<number | null> {
  const present = scores.filter((score) => score !== null).map((score) => exact(score));
  const mean = exactMean(present);
  if (mean === null) return { value: null, explain: explanation('mean.none') };
  return {
    value: toNumber(mean),
    explain: explanation('mean.value', { mean: toNumber(mean), sum: toNumber(exactSum(present)), count: present.length }),
  };
}

/** The class mean and each stream's mean of the learners' scores. */
export function classMeans(learners: ReadonlyArray<{ stream: string; score: number | Exact | null }>): {
  class: Explained<number | null>;
  streams: Map<string, Explained<number | null>>;
} {
  const streams = new Map<string, Explained<number | null>>();
  for (const stream of new Set(learners.map((learner) => learner.stream))) {
    streams.set(stream, meanScore(learners.filter((learner) => learner.stream === stream).map((learner) => learner.score)));
  }
  return { class: meanScore(learners.map((learner) => learner.score)), streams };
}
