export * from './errors.js';
export * from './content-hash.js';
export * from './atomic-write.js';
export * from './vault-lock.js';
export * from './cas-write.js';
export * from './conflict-names.js';
