import type { BackendOptions, WriteOptions } from '../seam/backend.js';
import { capabilities } from '../seam/capabilities.js';
import type { Locator } from '../seam/locator.js';
import { casWriteFile } from '../protocol/cas-write.js';
import { defaultLockRoot, lockDirFor, withLockDir, type VaultLockOptions } from '../protocol/vault-lock.js';
import { BackendConfigError } from './errors.js';
import { FsBackend } from './fs-backend.js';

export const VAULT_PROTOCOL = 'vault';

export interface VaultBackendOptions extends BackendOptions {
  /** The memory root (the store root the lock is keyed on). Required. */
  readonly root?: string;
  readonly lockRoot?: string;
  readonly lockTimeoutMs?: number;
  readonly lockStaleMs?: number;
}

/**
 * A synced vault folder: every write takes the machine-wide vault lock (shared with Python agentm),
 * compares the target's content hash against what was read, and lands by atomic rename.
 */
export class VaultBackend extends FsBackend {
  readonly capabilities = capabilities({ concurrentWriters: true, conflictFiles: true, sync: true });
  readonly lockOptions: VaultLockOptions;
  /** This vault's lock directory (agentm's formula), computed once: the root does not move. */
  readonly lockDir: string;

  constructor(options: VaultBackendOptions = {}) {
    if (typeof options.root !== 'string' || options.root.trim() === '') {
      throw new BackendConfigError(
        "the 'vault' backend needs a root (the memory root); set plugins.obsidian-vault.vault_path in .agentm-config.json or MEMORY_VAULT_PATH",
      );
    }
    super(options.root);
    this.lockOptions = {
      ...(options.lockRoot !== undefined ? { lockRoot: options.lockRoot } : {}),
      ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}),
      ...(options.lockStaleMs !== undefined ? { staleMs: options.lockStaleMs } : {}),
    };
    this.lockDir = lockDirFor(this.root, options.lockRoot ?? defaultLockRoot());
  }

  override get conflictStrategy(): string {
    return 'whole-file';
  }

  /** Runs `fn` under this vault's lock (re-entrant), for multi-file operations that must be atomic together. */
  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return withLockDir(this.lockDir, () => fn(), this.lockOptions);
  }

  protected writeFile(path: string, content: string, locator: Locator, options: WriteOptions): Promise<void> {
    return casWriteFile(path, content, {
      expectHash: options.expectHash,
      label: locator.key,
      critical: (commit) => withLockDir(this.lockDir, commit, this.lockOptions),
    });
  }
}
