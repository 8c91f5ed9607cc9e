export * from './analysis.js';
export * from './graded-class.js';
export * from './graded-results.js';
export * from './layout.js';
export * from './model.js';
export * from './render-html.js';
export * from './scope.js';
export * from './words.js';
