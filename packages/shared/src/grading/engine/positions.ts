import { type Explained, explanation } from './explain.js';

/*
 * Positions and means (guide grading.md, "Positions, means and statistics"): learners ranked by
 * total (or average) in the class and in each stream, ties sharing a rank ("1, 2, 2, 4"), shown
 * as "x out of n". A learner without a score is not ranked and not counted in n or in a mean:
 * a missing total is not 0. Scores equal to 6 decimals tie, so 72.1 reached by two different
 * weightings is one score despite floating-point noise.
 */

export interface Scored {
  id: string;
  stream: string;
  /** The total or average ranked by, or null when the learner has none. */
  score: number | null;
}

export interface Position {
  rank: number;
  outOf: number;
}

export interface LearnerPositions {
  class: Explained<Position | null>;
  stream: Explained<Position | null>;
}

/** Which end ranks first: 'higher' for totals and averages, 'lower' for aggregates. */
export type RankOrder = 'higher' | 'lower';

const same = (a: number, b: number) => Math.round(a * 1e6) === Math.round(b * 1e6);

/** Competition ranking ("1, 2, 2, 4") of a group, by id. */
export function rankScores(group: ReadonlyArray<Scored>, order: RankOrder = 'higher'): Map<string, Explained<Position | null>> {
  const ranked = group.filter((learner): learner is Scored & { score: number } => learner.score !== null);
  const sign = order === 'higher' ? -1 : 1;
  const sorted = [...ranked].sort((a, b) => sign * (a.score - b.score));
  const positions = new Map<string, Explained<Position | null>>();
  sorted.forEach((learner, index) => {
    // The rank is one more than the number of learners strictly better.
    const firstEqual = sorted.findIndex((other) => same(other.score, learner.score));
    const rank = (firstEqual === -1 ? index : firstEqual) + 1;
    const tied = sorted.filter((other) => same(other.score, learner.score)).length;
    positions.set(learner.id, {
      value: { rank, outOf: sorted.length },
      explain: explanation('position.rank', { rank, outOf: sorted.length, score: learner.score, tied }),
    });
  });
  for (const learner of group) {
    if (learner.score === null) positions.set(learner.id, { value: null, explain: explanation('position.unranked') });
  }
  return positions;
}

/** Each learner's position in the class (all given) and in their stream. */
export function classPositions(learners: ReadonlyArray<Scored>, order: RankOrder = 'higher'): Map<string, LearnerPositions> {
  const inClass = rankScores(learners, order);
  const inStream = new Map<string, Explained<Position | null>>();
  for (const stream of new Set(learners.map((learner) => learner.stream))) {
    for (const [id, position] of rankScores(
      learners.filter((learner) => learner.stream === stream),
      order,
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

/** The mean of the scores that exist (null when none). */
export function meanScore(scores: ReadonlyArray<number | null>): Explained<number | null> {
  const present = scores.filter((score): score is number => score !== null);
  if (present.length === 0) return { value: null, explain: explanation('mean.none') };
  const sum = present.reduce((total, score) => total + score, 0);
  const mean = sum / present.length;
  return { value: mean, explain: explanation('mean.value', { mean, sum, count: present.length }) };
}

/** The class mean and each stream's mean of the learners' scores. */
export function classMeans(learners: ReadonlyArray<Scored>): {
  class: Explained<number | null>;
  streams: Map<string, Explained<number | null>>;
} {
  const streams = new Map<string, Explained<number | null>>();
  for (const stream of new Set(learners.map((learner) => learner.stream))) {
    streams.set(stream, meanScore(learners.filter((learner) => learner.stream === stream).map((learner) => learner.score)));
  }
  return { class: meanScore(learners.map((learner) => learner.score)), streams };
}
