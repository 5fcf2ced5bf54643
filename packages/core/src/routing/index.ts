export * from './errors.js';
export * from './slug.js';
export * from './resolve-project.js';
export * from './repo-registry.js';
export * from './conformance.js';
