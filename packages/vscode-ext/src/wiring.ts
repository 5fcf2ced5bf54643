// THE ONE FILE THAT CONNECTS THE EXTENSION TO CORE. The lead replaces it once core's config, selection,
// routing, state, memory and harness land (issues 3, 4, 5): `Sources` is the whole contract.
//
// For now only the doctor is real, on a minimal selection (`agentm.vault.path` → `MEMORY_VAULT_PATH` →
// vault, else the device-local store); `.agentm-config.json` is not read yet. Every other source is
// undefined, and the commands that need one say the feature is not available yet.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { deviceLocalRoot, inspectLock, type LockStatus } from '@agentm/core';
import { readSettings, selectionEnv, vaultPathOrigin } from './settings';
import type { Doctor, DoctorRow, Sources, StoragePreview } from './sources/types';

/** Builds every data source the views and commands use. */
export function createSources(): Sources {
  return { doctor: minimalDoctor, plans: undefined, planRunner: undefined, recall: undefined, notes: undefined, maintenance: undefined };
}

async function kindOf(path: string): Promise<'dir' | 'file' | 'absent'> {
  try {
    return (await stat(path)).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'absent';
  }
}

async function writableUpwards(path: string): Promise<boolean> {
  for (let p = path; ; p = dirname(p)) {
    try {
      await access(p, constants.W_OK);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(p) === p) return false;
    }
  }
}

async function preview(): Promise<StoragePreview> {
  const settings = readSettings();
  const env = selectionEnv(settings);
  const vault = env['MEMORY_VAULT_PATH']?.trim();
  if (vault) {
    const origin = vaultPathOrigin(settings);
    const key = settings.vaultPath ? 'agentm.vault.path' : 'MEMORY_VAULT_PATH';
    const fix = `set ${key} to your vault's memory root folder${settings.vaultPath ? ' (or clear it to use MEMORY_VAULT_PATH or the device-local store)' : ''}`;
    const kind = await kindOf(vault);
    if (kind === 'absent') {
      return { status: 'fail', protocol: 'vault', lockedStoreRoot: undefined, line: `storage [FAIL] vault '${vault}' from ${origin} does not exist — create that folder, or ${fix}` };
    }
    if (kind === 'file') {
      return { status: 'fail', protocol: 'vault', lockedStoreRoot: undefined, line: `storage [FAIL] vault '${vault}' from ${origin} is a file, not a folder — ${fix}` };
    }
    const head = `selected backend 'vault' (${origin}) — root ${vault}`;
    if (!(await writableUpwards(vault))) {
      return { status: 'warn', protocol: 'vault', lockedStoreRoot: vault, line: `storage [WARN] ${head} is not writable — give your user write access to it, or ${fix}` };
    }
    return { status: 'ok', protocol: 'vault', lockedStoreRoot: vault, line: `storage [OK] ${head} writable` };
  }
  const root = deviceLocalRoot(undefined, env);
  const head = `selected backend 'device-local' (fresh-install default; set agentm.vault.path or MEMORY_VAULT_PATH to use a vault) — root ${root}`;
  if ((await kindOf(root)) === 'file') {
    return { status: 'fail', protocol: 'device-local', lockedStoreRoot: undefined, line: `storage [FAIL] ${head} is a file — move it away, or set AGENTM_DEVICE_LOCAL_ROOT to a folder` };
  }
  if (!(await writableUpwards(root))) {
    return { status: 'warn', protocol: 'device-local', lockedStoreRoot: undefined, line: `storage [WARN] ${head} is not writable — fix its permissions, or set AGENTM_DEVICE_LOCAL_ROOT to a writable folder` };
  }
  return { status: 'ok', protocol: 'device-local', lockedStoreRoot: undefined, line: `storage [OK] ${head} writable` };
}

/** How a lock state reads in the doctor: who holds it and what, if anything, to do. */
export function lockRow(lock: LockStatus): DoctorRow {
  if (!lock.present) return { check: 'lock', status: 'ok', line: `lock [OK] free (${lock.lockDir})` };
  const age = lock.heartbeatAgeMs === undefined ? '?' : `${(lock.heartbeatAgeMs / 1000).toFixed(1)} s`;
  if (lock.stale) {
    return { check: 'lock', status: 'warn', line: `lock [WARN] left by a writer that stopped (heartbeat ${age} ago) — the next write takes it over; or remove ${lock.lockDir}` };
  }
  return { check: 'lock', status: 'ok', line: `lock [OK] held by ${lock.heldByThisProcess ? 'this window' : 'an agent'} (heartbeat ${age} ago)` };
}

const minimalDoctor: Doctor = {
  preview: () => preview().catch((error: unknown) => ({ status: 'fail', protocol: undefined, lockedStoreRoot: undefined, line: `storage [FAIL] ${(error as Error).message}` })),
  async run() {
    const storage = await this.preview();
    const rows: DoctorRow[] = [{ check: 'storage', status: storage.status, line: storage.line }];
    if (storage.lockedStoreRoot) rows.push(lockRow(await inspectLock(storage.lockedStoreRoot)));
    return rows;
  },
};
