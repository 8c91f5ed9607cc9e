export * from './auto.js';
export * from './remark-writers.js';
export * from './text.js';
