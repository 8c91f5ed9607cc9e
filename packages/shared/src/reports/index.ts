export * from './graded-results.js';
export * from './layout.js';
export * from './model.js';
export * from './render-html.js';
export * from './words.js';
