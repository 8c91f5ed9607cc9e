/*
 * The grading engine (guide grading.md): pure rules from marks to grades, descriptors and, as
 * it grows, aggregates, divisions and A-level points. One file per step of grading.md:
 *
 * - bands.ts       subject mark -> grade: default bands, the band lookup
 * - grade-sets.ts  the checks of a grade set (overlaps, gaps, reversed bounds)
 * - descriptors.ts the new curriculum's competency descriptors
 * - classes.ts     which classes are graded per paper (A level)
 *
 * Next (a later issue): aggregates.ts and divisions.ts (PLE, UCE), uace.ts (paper grades to a
 * subject letter and points). Rules are data with a default; functions here take the data.
 */
export * from './bands.js';
export * from './classes.js';
export * from './descriptors.js';
export * from './grade-sets.js';
