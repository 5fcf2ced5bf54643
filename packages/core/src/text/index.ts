export * from './redact.js';
