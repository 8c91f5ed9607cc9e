export * from './cells.js';
export * from './learner-values.js';
export * from './plan.js';
