export * from './process.js';
export * from './engine-recall.js';
