export * from './cells.js';
export * from './plan.js';
