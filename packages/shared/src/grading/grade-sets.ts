import type { GRADE_SET_MESSAGES } from '../messages.js';
import type { GradeBand } from './bands.js';

/*
 * The checks of a grade set before it is saved (guide grading.md: "Ranges must not overlap and
 * should cover 0..100; the grade-set form says where they don't").
 */

export type GradeSetProblemKind = keyof typeof GRADE_SET_MESSAGES;

export interface GradeSetProblem {
  kind: GradeSetProblemKind;
  /** The grade the problem is shown beside. */
  grade: string;
  /** Details for a fuller sentence: the other grade, the first and last uncovered mark. */
  params: Record<string, string | number>;
}

/**
 * What is wrong with a set of bands, in words a head teacher acts on: a band upside down, two
 * bands sharing marks, or marks from 0 to 100 that no band covers (whole-number bounds: 74
 * and 75 touch; guide grading.md). The web shows these before saving; the server refuses them.
 */
export function gradeSetProblems(bands: ReadonlyArray<GradeBand>): GradeSetProblem[] {
  const problems: GradeSetProblem[] = [];
  if (bands.length === 0) return [{ kind: 'empty', grade: '', params: {} }];
  // A bound left empty (or not a number) is said as such, not guessed at as 0.
  const missing = bands.filter((band) => !Number.isFinite(band.lower) || !Number.isFinite(band.upper));
  if (missing.length > 0) return missing.map((band) => ({ kind: 'missing', grade: band.grade, params: { grade: band.grade } }));
  for (const band of bands) {
    if (band.lower > band.upper) problems.push({ kind: 'reversed', grade: band.grade, params: { grade: band.grade } });
  }
  const sorted = [...bands].filter((band) => band.lower <= band.upper).sort((a, b) => a.lower - b.lower);
  // `reaching` is the band reaching highest so far: a band starting at or below its top overlaps it.
  let reaching: GradeBand | undefined;
  for (const band of sorted) {
    const covered = reaching?.upper ?? -1;
    if (reaching && band.lower <= covered) {
      problems.push({ kind: 'overlap', grade: band.grade, params: { grade: band.grade, other: reaching.grade } });
    } else if (band.lower > covered + 1) {
      problems.push({ kind: 'gap', grade: band.grade, params: { from: covered + 1, to: band.lower - 1 } });
    }
    if (!reaching || band.upper > reaching.upper) reaching = band;
  }
  const top = reaching?.upper ?? -1;
  if (top < 100) problems.push({ kind: 'gap', grade: reaching?.grade ?? '', params: { from: top + 1, to: 100 } });
  return problems;
}
