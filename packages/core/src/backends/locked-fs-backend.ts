import type { BackendOptions, WriteOptions } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import { casWriteFile } from '../write-protocol/cas-write.js';
import {
  defaultLockRoot,
  lockDirFor,
  withLockDir,
  type LockHold,
  type VaultLockOptions,
} from '../write-protocol/vault-lock.js';
import { FsBackend, removeChecked, type RemoveOptions } from './fs-backend.js';

/** Construction options of a store that takes the machine-wide lock. */
export interface LockedFsBackendOptions extends BackendOptions {
  readonly lockRoot?: string;
  readonly lockTimeoutMs?: number;
  readonly lockStaleMs?: number;
  /** Create the root at construction (default true); read-only callers pass false. */
  readonly createRoot?: boolean;
}

/**
 * A store in a local directory whose every write takes the store's lock (agentm's lock directory,
 * keyed on the store root) and lands by compare-and-swap and atomic rename. On one machine the CLI,
 * `agentm mcp`, the hooks and the editors are concurrent writers of the same store, so the vault and
 * the device-local store both take it (issue 20: without it two `repos register` that interleaved
 * their hash check and rename both exited 0 and one registration was gone).
 */
export abstract class LockedFsBackend extends FsBackend {
  readonly lockOptions: VaultLockOptions;
  /** This store's lock directory (agentm's formula), computed once: the root does not move. */
  readonly lockDir: string;

  protected constructor(root: string, options: LockedFsBackendOptions) {
    super(root, { createRoot: options.createRoot !== false });
    this.lockOptions = {
      ...(options.lockRoot !== undefined ? { lockRoot: options.lockRoot } : {}),
      ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}),
      ...(options.lockStaleMs !== undefined ? { staleMs: options.lockStaleMs } : {}),
    };
    this.lockDir = lockDirFor(this.root, options.lockRoot ?? defaultLockRoot());
  }

  /** Runs `fn` under this store's lock (re-entrant), for multi-file operations that must be atomic together. */
  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.critical(() => fn());
  }

  /** Runs `fn` holding this store's lock, with the hold that proves ownership before a rename. */
  protected critical<T>(fn: (hold: LockHold) => Promise<T>): Promise<T> {
    return withLockDir(this.lockDir, fn, this.lockOptions);
  }

  protected writeFile(path: string, content: string, locator: Locator, options: WriteOptions): Promise<void> {
    return casWriteFile(path, content, {
      expectHash: options.expectHash,
      label: locator.key,
      critical: (commit) => this.critical(commit),
    });
  }

  protected override removeFile(path: string, locator: Locator, options: RemoveOptions): Promise<void> {
    return this.critical(async (hold) => {
      hold.assertHeld();
      removeChecked(path, locator, options, () => hold.assertHeld());
    });
  }
}
