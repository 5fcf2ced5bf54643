/**
 * @agentm/core — the public API, named export by export.
 *
 * Start with the workspace: `Workspace.open({ host, projectRoot })` gives a context's store, layout,
 * vocabulary, providers, memory index, recall, consolidation, plans and doctor; front ends ask it instead
 * of wiring the pieces. Beside it: the storage seam, the formats a person or another agentm reads and
 * writes (notes, plans, progress logs, the repo registry, the config file), and the error family bases.
 *
 * Building blocks have subpaths: `@agentm/core/config` (the config file, roots, project binding and the
 * storage preview), `@agentm/core/memory` (the index, recall, layout, note vocabulary and validation),
 * `@agentm/core/harness` (plan views, step states, approvals, the progress log's entries, the harness
 * errors, harness state), `@agentm/core/providers` (chat and embeddings), `@agentm/core/backends` (the concrete stores),
 * `@agentm/core/write-protocol` (the vault write protocol, for backend authors), `@agentm/core/testing` (the
 * conformance suites and the in-memory backend). Importing any of them registers nothing and starts
 * nothing. test/core-public-api.test.ts pins how many names this entry exports.
 */

// ------------------------------------------------------------------------------ the workspace
export { Workspace } from './workspace/workspace.js';
export { configProviders, type ProviderSource, type WorkspaceOptions } from './workspace/options.js';
export type { ListedPlan } from './workspace/plan-listing.js';
export type { StepUpdateOutcome, WorkspaceStepUpdate } from './workspace/plan-services.js';
export { openPlan } from './workspace/open-plan.js';
export type { PlanDetail, PlanHandle } from './workspace/plan-handle.js';
export type { NoteFiling, NoteScope } from './workspace/note-services.js';
export { doctorLine, worstCheck, type DoctorCheck, type DoctorOptions } from './workspace/doctor/check.js';

// ---------------------------------------------------------------------------- the storage seam
export { StorageBackend, type BackendClass, type BackendOptions, type WriteOptions } from './seam/backend.js';
export { Locator } from './seam/locator.js';
export type { Info } from './seam/info.js';
export { capabilities, type Capabilities } from './seam/capabilities.js';
export { BackendRegistry } from './seam/registry.js';

// ------------------------------------------------------------------------------------ the host
export { processHost, type HostEnv } from './config/host.js';

// ---------------------------------------------------------------- formats a person reads too
export { buildNote } from './memory/notes/save.js';
export { parseNote } from './memory/notes/parse.js';
export { serializeNote } from './memory/notes/format.js';
export { parsePlan } from './harness/plan/plan-document.js';
export { parseProgress } from './harness/observations/progress-format.js';
export { listRepos, registerRepo } from './routing/repo-registry.js';

// ------------------------------------------------------------------ error family bases
export { AgentMError, InvalidLocatorError, NotFoundError } from './seam/errors.js';
export { ConfigError } from './config/errors.js';
export { StorageSelectionError } from './selection/errors.js';
export { RoutingError } from './routing/errors.js';
export { StateError } from './state/errors.js';
export { ProviderError } from './providers/errors.js';
export { NoteError } from './memory/notes/errors.js';
export { MemoryEngineError } from './memory/errors.js';
export { HarnessError } from './harness/errors.js';
