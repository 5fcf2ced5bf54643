/**
 * @agentm/core/write-protocol — the vault write protocol (DESIGN §5), for authors of backends that write into a
 * vault agents share (Obsidian's in-vault backend): the agentm lock, the content-hash compare-and-swap,
 * the atomic temp-and-rename write, and conflict-copy names. `@agentm/core/protocol` is its old name, kept
 * so a branch written before the rename still resolves.
 */
export { atomicWrite, isTempName, type AtomicWriteOptions } from './write-protocol/atomic-write.js';
export { casWriteFile, checkExpectation, currentHash, type CasWriteOptions } from './write-protocol/cas-write.js';
export { contentHash, shortHash } from './write-protocol/content-hash.js';
export {
  agentmConflictName,
  isConflictName,
  recognizeConflictName,
  type ConflictFamily,
  type ConflictMatch,
} from './write-protocol/conflict-names.js';
export {
  defaultLockRoot,
  inspectLock,
  LOCK_STALE_MS,
  LOCK_TIMEOUT_MS,
  lockDirFor,
  withLockDir,
  withVaultLock,
  type LockHold,
  type LockStatus,
  type VaultLockOptions,
} from './write-protocol/vault-lock.js';
export {
  ConcurrentModificationError,
  LockCompromisedError,
  LockReleaseError,
  LockTimeout,
  WriteLandedError,
  WriteNotDurableError,
} from './write-protocol/errors.js';
export { EXIT_WRITE_LANDED } from './seam/errors.js';
