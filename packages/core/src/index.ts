export * from './seam/index.js';
export * from './protocol/index.js';
export * from './backends/index.js';
export * from './memory/engine.js';
