import { stat } from 'node:fs/promises';
import { configFilePath, legacyOnlyVault, ORIGIN_ENV, readConfigTolerant, storagePreview } from '@agentm/core';
import { inspectLock, type LockStatus } from '@agentm/core/protocol';
import { readSettings, type AgentMSettings } from '../settings';
import { currentHost } from './host';
import type { ProjectTracker } from './project-tracker';
import type { Doctor, DoctorRow, StoragePreview } from './types';

const SETTING = 'agentm.vault.path';

async function kindOf(path: string): Promise<'dir' | 'file' | 'absent'> {
  try {
    return (await stat(path)).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'absent';
  }
}

/**
 * Core's storage preview (selection as the runtime would do it: `.agentm-config.json`, then
 * `MEMORY_VAULT_PATH`, then device-local), told in the extension's terms: when the vault path comes from
 * the `agentm.vault.path` setting, the origin and the fix name that setting instead of the variable.
 * Never throws, never writes.
 */
export async function previewStorage(settings: AgentMSettings = readSettings()): Promise<StoragePreview> {
  const preview = await storagePreview({ host: currentHost(settings) });
  const fromSetting = settings.vaultPath !== '' && (preview.origin === undefined || preview.origin === ORIGIN_ENV);
  let line = fromSetting ? preview.line.replace(`(${ORIGIN_ENV})`, `(the ${SETTING} setting)`) : preview.line;
  if (
    preview.status === 'fail' &&
    fromSetting &&
    / MEMORY_VAULT_PATH does not name an existing directory/.test(preview.line)
  ) {
    const kind = await kindOf(settings.vaultPath);
    const what = kind === 'file' ? 'is a file, not a folder' : 'does not exist';
    line =
      `storage [FAIL] vault '${settings.vaultPath}' from the ${SETTING} setting ${what} — ${kind === 'absent' ? 'create that folder, or ' : ''}` +
      `set ${SETTING} to your vault's memory root folder (or clear it to use .agentm-config.json or MEMORY_VAULT_PATH)`;
  } else if (
    preview.status === 'fail' &&
    !fromSetting &&
    preview.origin === undefined &&
    /MEMORY_VAULT_PATH does not name/.test(preview.line)
  ) {
    line = `${preview.line} In VS Code, ${SETTING} overrides MEMORY_VAULT_PATH.`;
  }
  const lockedStoreRoot = preview.protocol === 'vault' && preview.status !== 'fail' ? preview.root : undefined;
  return { status: preview.status, protocol: preview.protocol, line, lockedStoreRoot };
}

/** How a lock state reads in the doctor: who holds it and what, if anything, to do. */
export function lockRow(lock: LockStatus): DoctorRow {
  if (!lock.present) return { check: 'lock', status: 'ok', line: `lock [OK] free (${lock.lockDir})` };
  const age = lock.heartbeatAgeMs === undefined ? '?' : `${(lock.heartbeatAgeMs / 1000).toFixed(1)} s`;
  if (lock.stale) {
    return {
      check: 'lock',
      status: 'warn',
      line: `lock [WARN] left by a writer that stopped (heartbeat ${age} ago) — the next write takes it over; or remove ${lock.lockDir}`,
    };
  }
  return {
    check: 'lock',
    status: 'ok',
    line: `lock [OK] held by ${lock.heldByThisProcess ? 'this window' : 'an agent'} (heartbeat ${age} ago)`,
  };
}

async function legacyRow(): Promise<DoctorRow | undefined> {
  const host = currentHost();
  const legacy = await legacyOnlyVault(await readConfigTolerant(host), host);
  if (legacy === undefined) return undefined;
  return {
    check: 'config',
    status: 'warn',
    line: `config [WARN] ${configFilePath(host)} names the vault only with the legacy key vault_path (${legacy}); it is used as is. Migrate with: agentm config set vault_path ${legacy}`,
  };
}

async function projectRow(tracker: ProjectTracker): Promise<DoctorRow | undefined> {
  const ws = await tracker.current().catch(() => undefined); // a refused selection is the storage row's to report
  if (!ws) return undefined;
  if (!ws.project) return { check: 'project', status: 'warn', line: `project [WARN] ${ws.noProject}` };
  const where =
    ws.location?.kind === 'backend' ? `${ws.location.path} (synced)` : `${ws.location?.dir} (this repository only)`;
  return {
    check: 'project',
    status: 'ok',
    line: `project [OK] '${ws.project.slug}' (${ws.project.slugSource}) — plans and progress in ${where}`,
  };
}

/** The storage doctor: storage (core's preview), the vault lock, a legacy config, the project. */
export function createDoctor(tracker: ProjectTracker): Doctor {
  return {
    preview: () =>
      previewStorage().catch((error: unknown) => ({
        status: 'fail' as const,
        protocol: undefined,
        lockedStoreRoot: undefined,
        line: `storage [FAIL] ${(error as Error).message}`,
      })),
    async run() {
      const storage = await this.preview();
      const rows: DoctorRow[] = [{ check: 'storage', status: storage.status, line: storage.line }];
      if (storage.lockedStoreRoot) rows.push(lockRow(await inspectLock(storage.lockedStoreRoot)));
      const legacy = await legacyRow().catch(() => undefined);
      if (legacy) rows.push(legacy);
      const project = await projectRow(tracker);
      if (project) rows.push(project);
      return rows;
    },
  };
}
