/*
 * Descriptors of the new lower secondary curriculum (guide grading.md, "New lower secondary
 * curriculum"): competencies are scored 1..3 and described in words, never graded or aggregated.
 */

export const GENERIC_DESCRIPTORS = ['Outstanding', 'Moderate', 'Basic'] as const;
export type GenericDescriptor = (typeof GENERIC_DESCRIPTORS)[number];

/**
 * The spec's generic bands on a competency score of 1 to 3 (spec §9, grading.md): 2.5 to 3
 * Outstanding, 1.5 to 2.49 Moderate, otherwise Basic. Used for each topic's score and for a
 * subject's average of them.
 */
export function genericDescriptor(score: number): GenericDescriptor {
  if (score >= 2.5) return 'Outstanding';
  if (score >= 1.5) return 'Moderate';
  return 'Basic';
}
