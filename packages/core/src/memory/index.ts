export * from './budget.js';
export * from './notes/index.js';
export * from './basic-recall.js';
export * from './note-documents.js';
export * from './layout-config.js';
export * from './memory-config.js';
