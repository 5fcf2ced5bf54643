import type { WriteOptions } from '../seam/backend.js';
import { capabilities } from '../seam/capabilities.js';
import type { Locator } from '../seam/locator.js';
import { BackendConfigError } from './errors.js';
import { LockedFsBackend, type LockedFsBackendOptions } from './locked-fs-backend.js';
import { writePersonalFile, type PersonalWriteAuthorization } from './personal-write.js';

export const VAULT_PROTOCOL = 'vault';

export interface VaultBackendOptions extends LockedFsBackendOptions {
  /** The memory root (the store root the lock is keyed on). Required. */
  readonly root?: string;
  /**
   * The operator's personal space above the store root (the Obsidian vault root when the memory root
   * is `<vault>/Agent`). Only `writePersonal` reaches it. Selection sets it to the vault path.
   */
  readonly personalRoot?: string;
}

/**
 * A synced vault folder: every write takes the machine-wide vault lock (shared with Python agentm),
 * compares the target's content hash against what was read, and lands by atomic rename.
 */
export class VaultBackend extends LockedFsBackend {
  /** What every instance advertises, readable before construction. */
  static readonly declaredCapabilities = capabilities({ concurrentWriters: true, conflictFiles: true, sync: true });
  readonly capabilities = VaultBackend.declaredCapabilities;
  /** The personal space `writePersonal` targets, if one was configured. */
  readonly personalRoot: string | undefined;

  constructor(options: VaultBackendOptions = {}) {
    if (typeof options.root !== 'string' || options.root.trim() === '') {
      throw new BackendConfigError(
        "the 'vault' backend needs a root (the memory root); set plugins.obsidian-vault.vault_path in .agentm-config.json or MEMORY_VAULT_PATH",
      );
    }
    super(options.root, options);
    this.personalRoot =
      typeof options.personalRoot === 'string' && options.personalRoot.trim() !== '' ? options.personalRoot : undefined;
  }

  override get conflictStrategy(): string {
    return 'whole-file';
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
      { personalRoot: this.personalRoot, critical: (commit) => this.critical(commit) },
      locator,
      content,
      authorization,
      options,
    );
  }
}
