export * from './errors.js';
export * from './plan-names.js';
export * from './state-location.js';
export * from './state-files.js';
export * from './state-lock.js';
export * from './active-plan.js';
export * from './list-plans.js';
