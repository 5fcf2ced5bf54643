export * from './recall/budget.js';
export * from './notes/index.js';
export * from './recall/basic-recall.js';
export * from './note-documents.js';
export * from './documents/layout-config.js';
