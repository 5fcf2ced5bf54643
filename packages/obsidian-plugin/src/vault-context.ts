import type { App } from 'obsidian';
import { ConflictResolver } from './conflicts/resolver.js';
import type { PluginHost } from './host.js';
import { resolveMemoryRootFolder } from './memory-root.js';
import type { AgentMSettings } from './settings.js';
import { ObsidianVaultBackend } from './vault-backend.js';
import type { AgentWriter } from './write/agent-writer.js';
import type { LockWaitListener } from './write/lock-gate.js';

/** Everything that depends on the memory root setting, rebuilt together when it changes. */
export interface VaultContext {
  /** The memory root, vault-relative. */
  readonly folder: string;
  readonly backend: ObsidianVaultBackend;
  /** The lock + CAS writer of that memory root (also used for files elsewhere in the vault). */
  readonly writer: AgentWriter;
  readonly resolver: ConflictResolver;
}

/** Builds the context from the settings. Throws `MemoryRootSettingError` or `DesktopOnlyError`. */
export function buildVaultContext(app: App, settings: AgentMSettings, host: PluginHost, onLockWait: LockWaitListener): VaultContext {
  const folder = resolveMemoryRootFolder(settings.memoryRoot);
  const backend = new ObsidianVaultBackend({ app, folder, host, lockTimeoutMs: settings.lockWaitSeconds * 1000, onLockWait });
  return { folder, backend, writer: backend.writer, resolver: new ConflictResolver(app, backend.writer, host) };
}
