/*
 * The grading engine (guide grading.md): pure rules from marks to grades, descriptors and, as
 * it grows, aggregates, divisions and A-level points. One file per step of grading.md:
 *
 * - bands.ts       subject mark -> grade: default bands, the band lookup
 * - exact.ts       exact arithmetic for combined marks (fractions, never a float against a band)
 * - grade-sets.ts  the checks of a grade set (overlaps, gaps, reversed bounds)
 * - descriptors.ts the new curriculum's competency descriptors
 * - competencies.ts a competency's score (mean of its AOIs) and a subject's, with identifiers
 * - classes.ts     which classes are graded per paper (A level)
 * - engine/        a school's grading rules (data with the guide's defaults, their schema) and
 *                  the computations with an explanation for each number: subject totals, PLE
 *                  and UCE aggregates and divisions, UACE letters and points, positions, means
 *
 * Rules are data with a default; functions here take the data.
 */
export * from './bands.js';
export * from './classes.js';
export * from './competencies.js';
export * from './descriptors.js';
export * from './engine/index.js';
export * from './exact.js';
export * from './grade-sets.js';
