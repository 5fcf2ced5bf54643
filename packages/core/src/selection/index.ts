export * from './errors.js';
export * from './capability-names.js';
export * from './choose-protocol.js';
export * from './select-backend.js';
export * from './storage-preview.js';
