/**
 * @agentm/core/testing — what a test of a backend or a front end needs, and never a runtime path: the
 * storage conformance suite every backend passes (`runConformance`), the routing conformance suite, and
 * the in-memory backend.
 */
export {
  ConformanceFailure,
  ROUND_TRIP_SAMPLES,
  runConformance,
  UNIVERSAL_CHECKS,
  type BackendFactory,
  type ConformanceCheck,
  type ConformanceOptions,
  type ConformanceReport,
} from './backends/conformance.js';
export { MemoryBackend } from './backends/memory-backend.js';
export { RoutingConformanceFailure, runRoutingConformance } from './routing/conformance.js';
export {
  BOOKKEEPING_TEXT,
  MIXED_PROGRESS_LOG,
  MIXED_PROGRESS_MEMORIES,
  MIXED_PROGRESS_QUERIES,
} from './memory/documents/mixed-progress-sample.js';
