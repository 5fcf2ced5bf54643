export * from './errors.js';
export * from './locator.js';
export * from './info.js';
export * from './capabilities.js';
export * from './backend.js';
export * from './tiers.js';
export * from './registry.js';
export * from './backend-lock.js';
