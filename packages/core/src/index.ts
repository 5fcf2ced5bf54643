/**
 * @agentm/core — the public API, named export by export.
 *
 * Start with the workspace: `Workspace.open({ host, projectRoot })` gives a context's store, layout,
 * vocabulary, providers, memory index, recall, consolidation and harness; front ends ask it instead of
 * wiring the pieces. Beside it: the storage seam, the formats a person or another agentm reads and
 * writes (notes, plans, progress logs, the repo registry), providers, and the errors by family.
 *
 * Optional parts have subpaths: `@agentm/core/backends` (the concrete stores), `@agentm/core/protocol`
 * (the vault write protocol, for backend authors), `@agentm/core/testing` (the conformance suites and the
 * in-memory backend). Importing any of them registers nothing and starts nothing.
 */

// ------------------------------------------------------------------------------ the workspace
export { Workspace, openWorkspace } from './workspace/workspace.js';
export { configProviders, type ProviderSource, type WorkspaceOptions } from './workspace/options.js';
export type { WorkspaceContext } from './workspace/context.js';
export type {
  CommandConsent,
  HarnessServices,
  PlanRun,
  RunPlanOptions,
  RunStepEvent,
} from './workspace/harness-services.js';
export type { RetriedStep, RetryResult } from './harness/reconciler/retry-steps.js';
export type { ListedPlan, PlanListing } from './workspace/plan-listing.js';
export type { PlanSwitch, StepUpdateOutcome, WorkspaceStepUpdate } from './workspace/plan-services.js';
export { NoPlanHomeError, type HomePlanFiles } from './workspace/plan-home.js';
export { openPlan } from './workspace/open-plan.js';
export type { PlanDetail, PlanHandle, SteerOptions } from './workspace/plan-handle.js';
export type { PlanSummary, ProgressEntry, StepSummary } from './harness/reconciler/plan-view.js';
export type { FiledNote, FileNoteInput, NoteFiling, NoteScope } from './workspace/note-services.js';
export {
  doctorLine,
  worstCheck,
  type DoctorCheck,
  type DoctorOptions,
  type DoctorStatus,
} from './workspace/doctor/check.js';
export type { StepAction } from './harness/reconciler/step-update.js';
export type { ApprovalAsker, ApprovalPrompt } from './harness/commands/command-gate.js';

// ---------------------------------------------------------------------------- the storage seam
export { StorageBackend, type BackendClass, type BackendOptions, type WriteOptions } from './seam/backend.js';
export type { ChangeBatch, ChangeFeed, ChangeSignal, StoreChange } from './seam/change-feed.js';
export type { LeaseEdit, LeaseRecord, StepLease, StepLeases } from './seam/step-leases.js';
export { Locator } from './seam/locator.js';
export type { Info } from './seam/info.js';
export { capabilities, type Capabilities } from './seam/capabilities.js';
export { BackendRegistry } from './seam/registry.js';
export { withBackendLock } from './seam/backend-lock.js';
export { printable } from './seam/printable.js';
export { reportSkippedEntry, setSkippedEntrySink, type SkippedEntrySink } from './backends/skipped-entries.js';
export { builtinBackends, DEVICE_LOCAL_PROTOCOL, VAULT_PROTOCOL } from './backends/builtins.js';

// ------------------------------------------------------------------- configuration and roots
export { processHost, type HostEnv } from './config/host.js';
export { configFilePath, readConfigStrict, readConfigTolerant, type ConfigData } from './config/config-file.js';
export { KEY_MEMORY_ROOT, KEY_SPACES, KEY_STORAGE_BACKEND, KEY_VAULT_PATH } from './config/keys.js';
export {
  DEFAULT_SPACES,
  legacyOnlyVault,
  memoryRoot,
  resolveVault,
  spacePath,
  validateRelativePrefix,
  type VaultResolution,
} from './config/roots.js';
export { getConfigValue, setConfigValue, setConfigValues, unsetConfigValue } from './config/config-writer.js';

// ------------------------------------------------------------------- selection and the doctor
export { selectBackend, type SelectedBackend, type SelectOptions } from './selection/select-backend.js';
export { storagePreview, type CheckStatus, type StoragePreview } from './selection/storage-preview.js';
export { ORIGIN_CONFIGURED, ORIGIN_DEFAULT, ORIGIN_ENV, ORIGIN_LEGACY } from './selection/choose-protocol.js';

// --------------------------------------------------------------- projects and harness state
export { isSafeSegment } from './routing/slug.js';
export { bindProject, type ProjectBinding } from './routing/project-binding.js';
export { probeProjectLocator, resolveProject, type ProjectResolution } from './routing/resolve-project.js';
export { listRepos, registerRepo, unregisterRepo, type RepoEntry } from './routing/repo-registry.js';
export { localHarnessDir, stateLocation, type StateLocation } from './state/state-location.js';
export { readStateFile, readStateFileWithHash, writeStateFile } from './state/state-files.js';
export { listPlans, selectPlanFiles } from './state/list-plans.js';
export { normalizePlanName, planPair } from './state/plan-names.js';
export { resolveActivePlan } from './state/active-plan.js';

// ------------------------------------------------------------------------ formats: notes
export { buildNote, saveNote, type BuiltNote, type SaveNoteInput } from './memory/notes/save.js';
export { evolveNote, type EvolvedNote, type EvolveNoteInput } from './memory/notes/evolve.js';
export { parseNote, type ParsedNote } from './memory/notes/parse.js';
export { serializeNote } from './memory/notes/format.js';
export { noteFingerprint } from './memory/notes/fingerprint.js';
export { DEFAULT_VOCABULARY, resolveKind, vocabularyFromConfig, type Vocabulary } from './memory/notes/vocabulary.js';
export { resolveVocabulary, type ResolvedVocabulary } from './memory/notes/resolve-vocabulary.js';
export { assertGroup, assertKindName, assertSlug, assertTags } from './memory/notes/validate.js';

// ------------------------------------------------------------- formats: plans and progress
export { findStep, parsePlan, serializePlan, type PlanDocument, type PlanStep } from './harness/plan/plan-document.js';
export { planTitle } from './harness/plan/plan-title.js';
export { effectiveStatus } from './harness/plan/plan-edit.js';
export { isTerminalPlanStatus, type StepStatus } from './harness/plan/step-status.js';
export { makeObservation, type Observation } from './harness/observations/observation.js';
export { appendObservations, parseProgress } from './harness/observations/progress-format.js';
export type { PlanFiles } from './harness/reconciler/plan-files.js';
export { mutatePlan } from './harness/reconciler/plan-mutation.js';

// ----------------------------------------------------------------------------------- memory
export { MemoryIndex } from './memory/indexing/memory-index.js';
export type { MemoryIndexOptions, RefreshReport } from './memory/indexing/index-types.js';
export { classifySource, DEFAULT_LAYOUT, type MemoryLayout } from './memory/documents/layout.js';
export { memoryLayoutFromConfig } from './memory/documents/layout-config.js';
export type { IndexDocument, ToDocument } from './memory/documents/document.js';
export { noteDefaults } from './memory/documents/source-documents.js';
export { noteToDocument } from './memory/note-documents.js';
export { recall, type RecallItem, type RecallQuery, type RecallResult } from './memory/recall/recall.js';
export { phaseRecall, type PhaseRecallRequest, type PhaseRecallResult } from './memory/recall/phase-recall-shell.js';
export { PHASES, type Phase } from './memory/recall/budget.js';
export { RECALL_DEFAULTS } from './memory/recall/score.js';
export type { ConsolidationReport } from './memory/consolidation/consolidate.js';

// -------------------------------------------------------------------------------- providers
export type {
  ChatMessage,
  ChatProvider,
  ChatRequest,
  ChatResponse,
  ChatToolCall,
  ToolDefinition,
} from './providers/chat.js';
export { chatJson } from './providers/chat-json.js';
export type { EmbeddingProvider } from './providers/embeddings.js';
export type { OpenAIEndpointSettings } from './providers/http-json.js';
export { OpenAICompatibleChat, type OpenAIChatSettings } from './providers/openai-chat.js';
export { OpenAIEmbeddings } from './providers/openai-embeddings.js';
export {
  PROVIDER_CONFIG_KEYS,
  PROVIDER_ENV,
  providersFrom,
  resolveProviderSettings,
  type Providers,
  type ProviderSettings,
} from './providers/settings.js';

// ------------------------------------------------------------------------- errors, by family
export { AgentMError, InvalidLocatorError, NotFoundError } from './seam/errors.js';
export { ConcurrentModificationError, LockCompromisedError, LockTimeout } from './protocol/errors.js';
export { BackendConfigError, PathEscapeError } from './backends/errors.js';
export { ConfigError, ConfigValueError, CorruptConfigError } from './config/errors.js';
export { CapabilityMismatchError, StorageSelectionError } from './selection/errors.js';
export {
  ProjectBindingError,
  ProjectSlugError,
  RegistryArgumentError,
  RegistryFormatError,
  RoutingError,
} from './routing/errors.js';
export { ActivePlanError, InvalidStateFileNameError, StateError, UnsafePlanNameError } from './state/errors.js';
export {
  EmbeddingDimensionError,
  ProviderError,
  ProviderHttpError,
  ProviderMalformedError,
  ProviderTimeoutError,
  ProviderUnreachableError,
} from './providers/errors.js';
export { ProviderConfigError } from './providers/settings.js';
export {
  NoteError,
  NoteEvolveError,
  NoteExistsError,
  NoteValidationError,
  StorageRulesError,
  UnknownKindError,
} from './memory/notes/errors.js';
export { IndexLocationError, IndexUnusableError, MemoryArgumentError, MemoryEngineError } from './memory/errors.js';
export {
  HarnessError,
  InvalidTransitionError,
  PlanExistsError,
  PlanNotFoundError,
  PlanStatusChangeError,
  PlanValidationError,
  RetryRefusedError,
  StalePlanError,
  UnknownStepError,
} from './harness/errors.js';
export { RolesConfigError } from './harness/tools/roles-config.js';
export { PreflightError, type PreflightProblem } from './harness/executors/preflight.js';
export { CommandsNotApprovedError } from './harness/commands/plan-commands.js';
export { StepUpdateArgumentError } from './harness/reconciler/step-update.js';
export { explainFailure, type PlanFailure, type StepFailure } from './harness/trace/failures.js';
export { StatePathArgumentError } from './process-seam/process.js';

// ----------------------------------------------------------------------- the process seam
export {
  offerSaveHere,
  recallHere,
  statePath,
  type OfferedCandidate,
  type ProcessContext,
} from './process-seam/process.js';
