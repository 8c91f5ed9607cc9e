export * from './auto.js';
export * from './text.js';
