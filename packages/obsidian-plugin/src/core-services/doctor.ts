import { realpath } from 'node:fs/promises';
import { storagePreview } from '@agentm/core';
import { inspectLock, type LockStatus } from '@agentm/core/protocol';
import { MEMORY_ROOT_SOURCE_TEXT } from '../memory-root.js';
import type { DoctorReport } from '../services.js';
import type { ServiceDeps } from './deps.js';

async function same(a: string, b: string): Promise<boolean> {
  const real = async (p: string) => realpath(p).catch(() => p);
  return (await real(a)) === (await real(b));
}

/** The vault lock in words. */
export function describeLock(status: LockStatus): string {
  if (!status.present) return 'free';
  if (status.heldByThisProcess) return 'held by AgentM in Obsidian (a write is in progress)';
  const age =
    status.heartbeatAgeMs === undefined ? '' : ` (last heartbeat ${Math.round(status.heartbeatAgeMs / 1000)} s ago)`;
  if (status.stale) return `left behind by a holder that stopped${age}; the next writer takes it over`;
  return `held by an agent${age}`;
}

/**
 * The storage doctor: core's `storagePreview` for agentm's config on this machine (what an agent would
 * select; it never writes), then the plugin's own state: the memory root and where it came from, the
 * vault lock and the number of conflict copies. Warns when agents and the plugin do not share a memory root.
 */
export async function doctorReport(deps: ServiceDeps): Promise<DoctorReport> {
  const host = deps.host();
  const context = deps.context();
  const preview = await storagePreview({ host: host.hostEnv, registry: context.registry, lockRoot: host.lockRoot });
  const root = context.backend.root;
  const lock = await inspectLock(root, { lockRoot: host.lockRoot });
  const warnings: string[] = [];
  if (preview.protocol !== undefined && preview.protocol !== 'vault') {
    warnings.push(
      `agentm on this machine keeps memory with the '${preview.protocol}' backend, not in a vault: agents do not see the notes saved here. Set storage.backend to vault and vault_path to this vault (agentm config set).`,
    );
  } else if (preview.root !== undefined && !(await same(preview.root, root))) {
    warnings.push(
      `agents write to ${preview.root}, but this plugin's memory root is ${root}: their notes, plans and lock are not shared. Set the memory root folder in Settings → AgentM, or fix agentm's config.`,
    );
  }
  return {
    storage: { status: preview.status, line: preview.line },
    vault: {
      memoryRoot: context.folder === '' ? '/' : context.folder,
      memoryRootSource: MEMORY_ROOT_SOURCE_TEXT[context.memoryRoot.source],
      memoryRootPath: root,
      lock: describeLock(lock),
      conflicts: deps.conflictCount(),
    },
    warnings,
  };
}
