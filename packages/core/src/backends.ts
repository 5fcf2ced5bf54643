/**
 * @agentm/core/backends — the concrete stores, for code that constructs one itself (a benchmark, a tool,
 * a test). Everything else gets its store from a workspace (`Workspace.open`) or a registry; core's own
 * layers above the backends never import these classes.
 */
export { VaultBackend, type VaultBackendOptions } from './backends/vault.js';
export { DeviceLocalBackend, deviceLocalRoot } from './backends/device-local.js';
export { FsBackend, type FsBackendInit, type RemoveOptions } from './backends/fs-backend.js';
// What a backend may offer beyond the seven verbs: a change feed (cursor and notifications) and step leases.
export type { ChangeBatch, ChangeFeed, ChangeSignal, StoreChange } from './seam/change-feed.js';
export type { LeaseEdit, LeaseRecord, StepLease, StepLeases } from './seam/step-leases.js';
export { PostgresBackend, type PostgresBackendOptions } from './backends/postgres/postgres-backend.js';
export {
  PostgresAuthError,
  PostgresConfigError,
  PostgresDatabaseMissingError,
  PostgresQueryError,
  PostgresSchemaTooNewError,
  PostgresStoreError,
  PostgresTransactionConflictError,
  PostgresUnreachableError,
} from './backends/postgres/errors.js';
export {
  builtinBackends,
  DEVICE_LOCAL_PROTOCOL,
  POSTGRES_PROTOCOL,
  registerBuiltinBackends,
  scratchBackend,
  VAULT_PROTOCOL,
} from './backends/builtins.js';
export {
  authorizePersonalWrite,
  PersonalWriteRefusedError,
  type PersonalWriteAuthorization,
} from './backends/personal-write.js';
export { reportSkippedEntry, setSkippedEntrySink } from './backends/skipped-entries.js';
export { BackendConfigError, PathEscapeError } from './backends/errors.js';
