import type { Explained } from '../grading/engine/explain.js';
import { classMeans, type LearnerPositions } from '../grading/engine/positions.js';
import {
  type GradingInputs,
  type GradingLearner,
  type GradingMark,
  gradeLearner,
  indexMarks,
  type LearnerResult,
  learnerPositions,
} from './graded-results.js';

/*
 * A class's graded results in one term (issue 25 point 2): every learner graded, ranked in the
 * class and in their stream, and the class's means, each number with its explanation. What the
 * report card, the mark sheet, the comments screens and the learner's page read, so a mark is
 * graded once, the same way, on all of them. No card decorations (which learners print,
 * remarks, footers, numbers as printed): those are the report kinds' build steps. Pure.
 */

export interface GradedClass<Learner extends GradingLearner = GradingLearner> {
  /** Every learner of the class, in the order given (by name), graded. */
  results: Array<LearnerResult<Learner>>;
  /** Each learner's position in the class and in their stream, by learner id. */
  positions: Map<string, LearnerPositions>;
  /** The class's mean and each stream's (by stream name, '' for none) of the learners' averages. */
  means: { class: Explained<number | null>; streams: Map<string, Explained<number | null>> };
  /** How many learners are ranked ("x out of n"): in the class, and in each stream. */
  ranked: { class: number; streams: Map<string, number> };
}

/**
 * Grades a class: every learner is graded even when only some are printed, since positions and
 * means are the whole class's.
 */
export function gradeClass<Learner extends GradingLearner>(
  learners: ReadonlyArray<Learner>,
  marks: ReadonlyArray<GradingMark>,
  inputs: GradingInputs,
): GradedClass<Learner> {
  const index = indexMarks(marks);
  const results = learners.map((learner) => gradeLearner(learner, index, inputs));
  const positions = learnerPositions(results, inputs);
  const means = classMeans(results.map((each) => ({ stream: each.learner.stream ?? '', score: each.average.value })));
  let inClass = 0;
  const streams = new Map<string, number>();
  for (const each of results) {
    const position = positions.get(each.learner.id);
    if (position?.class.value != null) inClass += 1;
    if (position?.stream.value == null) continue;
    const stream = each.learner.stream ?? '';
    streams.set(stream, (streams.get(stream) ?? 0) + 1);
  }
  return { results, positions, means, ranked: { class: inClass, streams } };
}
