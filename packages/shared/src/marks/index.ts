export * from './cells.js';
export * from './learner-values.js';
export * from './paste.js';
export * from './plan.js';
