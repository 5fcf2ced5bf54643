import type { App } from 'obsidian';
import { builtinBackends, VAULT_PROTOCOL } from '@agentm/core/backends';
import { type BackendRegistry } from '@agentm/core';
import { ConflictResolver } from './conflicts/resolver.js';
import type { PluginHost } from './host.js';
import type { MemoryRootChoice } from './memory-root.js';
import type { AgentMSettings } from './settings.js';
import { bindVaultBackend, ObsidianVaultBackend } from './vault-backend.js';
import type { AgentWriter } from './write/agent-writer.js';
import type { LockWaitListener } from './write/lock-gate.js';

/** Everything that depends on the memory root setting, rebuilt together when it changes. */
export interface VaultContext {
  /** The memory root, vault-relative. */
  readonly folder: string;
  /** The memory root and where it came from (the settings, MEMORY_VAULT_PATH, agentm's config, the default). */
  readonly memoryRoot: MemoryRootChoice;
  readonly backend: ObsidianVaultBackend;
  /** The lock + CAS writer of that memory root (also used for files elsewhere in the vault). */
  readonly writer: AgentWriter;
  readonly resolver: ConflictResolver;
  /**
   * The plugin's own backend registry: the built-ins with `vault` bound to the in-vault backend of this
   * vault. Handed to what looks protocols up (the storage doctor); no process-wide registry is touched.
   */
  readonly registry: BackendRegistry;
}

/** Builds the context for a resolved memory root. Throws `DesktopOnlyError`. */
export function buildVaultContext(
  app: App,
  memoryRoot: MemoryRootChoice,
  settings: AgentMSettings,
  host: PluginHost,
  onLockWait: LockWaitListener,
): VaultContext {
  const folder = memoryRoot.folder;
  const backend = new ObsidianVaultBackend({
    app,
    folder,
    host,
    lockTimeoutMs: settings.lockWaitSeconds * 1000,
    onLockWait,
  });
  const registry = builtinBackends();
  registry.register(
    VAULT_PROTOCOL,
    bindVaultBackend(app, {
      folder,
      host,
      lockRoot: host.lockRoot,
      lockTimeoutMs: settings.lockWaitSeconds * 1000,
      onLockWait,
    }),
    { clobber: true },
  );
  return {
    folder,
    memoryRoot,
    backend,
    writer: backend.writer,
    resolver: new ConflictResolver(app, backend.writer, host),
    registry,
  };
}
