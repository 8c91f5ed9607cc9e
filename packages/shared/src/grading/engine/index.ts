/*
 * The grading engine's computations (guide grading.md): pure functions from marks and a school's
 * rules (rules.ts, data with the guide's defaults) to totals, grades, aggregates, divisions,
 * A-level letters and points, and positions, each value with its explanation (explain.ts).
 */
export * from './alevel.js';
export * from './explain.js';
export * from './graded-subject.js';
export * from './nc-rules.js';
export * from './new-curriculum.js';
export * from './olevel.js';
export * from './positions.js';
export * from './primary.js';
export * from './rules.js';
export * from './subject-total.js';
