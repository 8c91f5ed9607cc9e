import { ABSENT, type MarkValue } from '../marks/cells.js';
import type { GenericDescriptor } from './descriptors.js';
import { type Exact, exact, exactMean, exactRound, toNumber } from './exact.js';

/*
 * A competency's score and a subject's (guide new-curriculum.md, "What is computed"): each mark
 * type a competency is scored under is one activity of integration (AOI); the competency's
 * score is the mean of the AOIs the learner sat, the subject's score the mean of its scored
 * competencies, and each is described by the identifier bands (spec §9). An absence is kept
 * apart: it is neither a score nor a 0, and a competency the learner missed entirely has no
 * score (it does not pull the subject down). Means are exact fractions; rounding is for display.
 */

/** One AOI score as stored: a number on the identifier scale, ABS, or nothing. */
export interface AoiScore {
  topic_id: string;
  marktype_id: string;
  value: MarkValue;
}

/** A competency's result: the AOIs sat and missed, and their mean with its identifier. */
export interface CompetencyScore {
  topic_id: string;
  /** The AOI scores in the order given (a missed one as ABS). */
  aois: MarkValue[];
  /** The mean of the AOIs sat, exact; null when every AOI was missed. */
  score: Exact | null;
  identifier: GenericDescriptor | null;
  /** Missed every AOI it was scored under. */
  absent: boolean;
}

/** The identifier of an exact score: 2.5 to 3 Outstanding, 1.5 to 2.49 Moderate, else Basic (compared exactly). */
export function identifierOf(score: Exact): GenericDescriptor {
  if (score.gte(exact(2.5))) return 'Outstanding';
  if (score.gte(exact(1.5))) return 'Moderate';
  return 'Basic';
}

/**
 * Each competency's score from its AOI scores, in the order competencies first appear. A
 * competency with no AOI at all (nothing stored) is not listed.
 */
export function competencyScores(aois: ReadonlyArray<AoiScore>): CompetencyScore[] {
  const byTopic = new Map<string, MarkValue[]>();
  for (const aoi of aois) {
    if (aoi.value === null) continue;
    const list = byTopic.get(aoi.topic_id) ?? [];
    list.push(aoi.value);
    byTopic.set(aoi.topic_id, list);
  }
  return [...byTopic].map(([topic_id, values]) => {
    const sat = values.flatMap((value) => (value === ABSENT || value === null ? [] : [exact(value)]));
    const score = exactMean(sat);
    return { topic_id, aois: values, score, identifier: score ? identifierOf(score) : null, absent: sat.length === 0 };
  });
}

/** A subject's score: the mean of its scored competencies (null when none was scored), with its identifier. */
export function subjectCompetencyScore(scores: ReadonlyArray<Pick<CompetencyScore, 'score'>>): {
  score: Exact | null;
  identifier: GenericDescriptor | null;
} {
  const score = exactMean(scores.flatMap((topic) => (topic.score ? [topic.score] : [])));
  return { score, identifier: score ? identifierOf(score) : null };
}

/** A score as shown: one decimal, half up (2.45 shows 2.5); the identifier is decided on the exact score. */
export function displayScore(score: Exact | null): number | null {
  return score === null ? null : toNumber(exactRound(score, 1));
}
