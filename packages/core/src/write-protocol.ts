/**
 * @agentm/core/protocol — the vault write protocol (DESIGN §5), for authors of backends that write into a
 * vault agents share (Obsidian's in-vault backend): the agentm lock, the content-hash compare-and-swap,
 * the atomic temp-and-rename write, and conflict-copy names.
 */
export { atomicWrite, isTempName, type AtomicWriteOptions } from './protocol/atomic-write.js';
export { casWriteFile, checkExpectation, currentHash, type CasWriteOptions } from './protocol/cas-write.js';
export {
  appendChanges,
  changeLogEnd,
  changeLogPathFor,
  readChanges,
  type ChangeCursor,
  type ChangeRead,
} from './protocol/change-log.js';
export { contentHash, shortHash } from './protocol/content-hash.js';
export {
  agentmConflictName,
  isConflictName,
  recognizeConflictName,
  type ConflictFamily,
  type ConflictMatch,
} from './protocol/conflict-names.js';
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
} from './protocol/vault-lock.js';
export { ConcurrentModificationError, LockCompromisedError, LockTimeout } from './protocol/errors.js';
