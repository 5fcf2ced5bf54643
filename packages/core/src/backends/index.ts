export * from './errors.js';
export * from './fs-backend.js';
export * from './device-local.js';
export * from './vault.js';
export * from './memory-backend.js';
export * from './personal-write.js';
export * from './conformance.js';
export * from './builtins.js';
