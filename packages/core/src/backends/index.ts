export * from './errors.js';
export * from './fs-backend.js';
export * from './device-local.js';
export * from './vault.js';
export * from './memory-backend.js';
export * from './personal-write.js';
export { reportSkippedEntry, setSkippedEntrySink, type SkippedEntrySink } from './skipped-entries.js';
export * from './store-scan.js';
export * from './conformance.js';
/** The built-in backends are registered into the default registry when core loads. */
export * from './builtins.js';
