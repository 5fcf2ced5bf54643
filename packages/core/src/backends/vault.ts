import type { BackendOptions, WriteOptions } from '../seam/backend.js';
import { capabilities } from '../seam/capabilities.js';
import type { Locator } from '../seam/locator.js';
import { casWriteFile } from '../write-protocol/cas-write.js';
import { defaultLockRoot, lockDirFor, withLockDir, type VaultLockOptions } from '../write-protocol/vault-lock.js';
import { BackendConfigError } from './errors.js';
import { FsBackend, removeChecked, type RemoveOptions } from './fs-backend.js';
import { writePersonalFile, type PersonalWriteAuthorization } from './personal-write.js';

export const VAULT_PROTOCOL = 'vault';

export interface VaultBackendOptions extends BackendOptions {
  /** The memory root (the store root the lock is keyed on). Required. */
  readonly root?: string;
  readonly lockRoot?: string;
  readonly lockTimeoutMs?: number;
  readonly lockStaleMs?: number;
  /**
   * The operator's personal space above the store root (the Obsidian vault root when the memory root
   * is `<vault>/Agent`). Only `writePersonal` reaches it. Selection sets it to the vault path.
   */
  readonly personalRoot?: string;
  /** Create the root at construction (default true); read-only callers pass false. */
  readonly createRoot?: boolean;
}

/**
 * A synced vault folder: every write takes the machine-wide vault lock (shared with Python agentm),
 * compares the target's content hash against what was read, and lands by atomic rename.
 */
export class VaultBackend extends FsBackend {
  /** What every instance advertises, readable before construction. */
  static readonly declaredCapabilities = capabilities({ concurrentWriters: true, conflictFiles: true, sync: true });
  readonly capabilities = VaultBackend.declaredCapabilities;
  readonly lockOptions: VaultLockOptions;
  /** This vault's lock directory (agentm's formula), computed once: the root does not move. */
  readonly lockDir: string;
  /** The personal space `writePersonal` targets, if one was configured. */
  readonly personalRoot: string | undefined;

  constructor(options: VaultBackendOptions = {}) {
    if (typeof options.root !== 'string' || options.root.trim() === '') {
      throw new BackendConfigError(
        "the 'vault' backend needs a root (the memory root); set plugins.obsidian-vault.vault_path in .agentm-config.json or MEMORY_VAULT_PATH",
      );
    }
    super(options.root, { createRoot: options.createRoot !== false });
    this.lockOptions = {
      ...(options.lockRoot !== undefined ? { lockRoot: options.lockRoot } : {}),
      ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}),
      ...(options.lockStaleMs !== undefined ? { staleMs: options.lockStaleMs } : {}),
    };
    this.lockDir = lockDirFor(this.root, options.lockRoot ?? defaultLockRoot());
    this.personalRoot =
      typeof options.personalRoot === 'string' && options.personalRoot.trim() !== '' ? options.personalRoot : undefined;
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

  protected override removeFile(path: string, locator: Locator, options: RemoveOptions): Promise<void> {
    return withLockDir(
      this.lockDir,
      async (hold) => {
        hold.assertHeld();
        removeChecked(path, locator, options, () => hold.assertHeld());
      },
      this.lockOptions,
    );
  }

  /**
   * Writes into the operator's personal space (above the store root), the only verb that can. Refuses
   * without an authorization made by `authorizePersonalWrite(reason)`; the locator is relative to the
   * personal root and cannot escape it. Same lock, CAS and atomic write as `write`.
   */
  writePersonal(
    locator: Locator,
    content: string,
    authorization: PersonalWriteAuthorization,
    options: WriteOptions = {},
  ): Promise<Locator> {
    return writePersonalFile(
      { personalRoot: this.personalRoot, critical: (commit) => withLockDir(this.lockDir, commit, this.lockOptions) },
      locator,
      content,
      authorization,
      options,
    );
  }
}
