export * from './process.js';
