import { removeLeftoverTemps, scanStore, TEMP_LEFTOVER_MS, type TempFile } from '../protocol/store-scan.js';
import type { HostEnv } from '../config/host.js';
import { defaultLockRoot, inspectLock, LOCK_STALE_MS, lockDirFor } from '../protocol/vault-lock.js';
import type { StorageBackend } from '../seam/backend.js';
import { selectBackend } from '../selection/select-backend.js';
import type { DoctorRow } from './doctor.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Doctor's look inside the selected store (when it is a directory): the vault lock (held, stale, or
 * stamped in the future), links that lead out of the store, and temps crashed writers left behind;
 * with `fix`, those temps are removed under the lock. Nothing else is ever written. No rows when no
 * backend can be selected (the storage row says why).
 */
export async function storeRows(host: HostEnv, options: { fix?: boolean } = {}): Promise<DoctorRow[]> {
  let selected;
  try {
    selected = await selectBackend({ host, createRoot: false });
  } catch {
    return [];
  }
  const root = selected.root;
  if (root === undefined) return remoteStoreRows(selected.backend);
  const lockRoot = defaultLockRoot(host.env as NodeJS.ProcessEnv, host.home);
  const rows: DoctorRow[] = [];
  if (selected.protocol === 'vault') rows.push(await lockRow(root, lockRoot));
  const scan = await scanStore(root);
  rows.push(linksRow(root, scan.outsideLinks));
  rows.push(await tempsRow(root, scan.leftoverTemps, options.fix === true, lockRoot));
  return rows;
}

/**
 * A store without a directory here (a database): whether it answers, which is what every verb needs
 * first (the connection, the credentials, the database, a schema this AgentM knows). The failure is the
 * backend's own typed error, naming the fix; it never carries a password.
 */
async function remoteStoreRows(backend: StorageBackend): Promise<DoctorRow[]> {
  const store = backend.storeId;
  if (store === undefined) return [];
  try {
    const top = await backend.list(backend.resolve());
    return [{ check: 'store', status: 'ok', line: `store [OK] ${store} answers (${top.length} top-level entries)` }];
  } catch (error) {
    return [{ check: 'store', status: 'fail', line: `store [FAIL] ${(error as Error).message}` }];
  } finally {
    await backend.close?.();
  }
}

async function lockRow(root: string, lockRoot: string): Promise<DoctorRow> {
  const lockDir = lockDirFor(root, lockRoot);
  const status = await inspectLock(root, { lockRoot });
  const age = status.heartbeatAgeMs;
  if (!status.present || age === undefined) return { check: 'lock', status: 'ok', line: `lock [OK] free (${lockDir})` };
  if (age < 0) {
    return {
      check: 'lock',
      status: 'warn',
      line:
        `lock [WARN] ${lockDir}: its heartbeat is ${seconds(-age)} in the future (a clock step, or a writer that stamps ` +
        `ahead). Writers take it over once it has stood unchanged for ${seconds(LOCK_STALE_MS)}; if no agent is running, ` +
        `remove it: rmdir ${lockDir}`,
    };
  }
  if (status.stale) {
    return {
      check: 'lock',
      status: 'warn',
      line: `lock [WARN] ${lockDir} is stale (heartbeat ${seconds(age)} ago): its holder is gone; the next writer takes it over`,
    };
  }
  return { check: 'lock', status: 'ok', line: `lock [OK] held by a running writer (heartbeat ${seconds(age)} ago)` };
}

function linksRow(root: string, links: readonly { key: string; target: string }[]): DoctorRow {
  if (links.length === 0)
    return { check: 'links', status: 'ok', line: 'links [OK] no symbolic link leads out of the store' };
  return {
    check: 'links',
    status: 'warn',
    line:
      `links [WARN] ${links.length} symbolic link(s) lead out of the store ${root}; AgentM never reads through them ` +
      `(replace each with a real file or folder inside the store):\n` +
      links.map((l) => `  ${l.key} → ${l.target}`).join('\n'),
  };
}

const listTemps = (temps: readonly TempFile[]) =>
  temps.map((t) => `  ${t.key} (writer pid ${t.pid ?? '?'}, ${seconds(t.ageMs)} old)`).join('\n');

async function tempsRow(root: string, temps: readonly TempFile[], fix: boolean, lockRoot: string): Promise<DoctorRow> {
  if (temps.length === 0) return { check: 'temps', status: 'ok', line: 'temps [OK] no leftover temp files' };
  if (!fix) {
    return {
      check: 'temps',
      status: 'warn',
      line:
        `temps [WARN] ${temps.length} leftover temp file(s), older than ${seconds(TEMP_LEFTOVER_MS)}, from writers no ` +
        `longer running (never listed or read, but they take space); remove them with: agentm doctor --fix\n` +
        listTemps(temps),
    };
  }
  const { removed, failed } = await removeLeftoverTemps(root, temps, { lockRoot });
  if (failed.length > 0) {
    return {
      check: 'temps',
      status: 'warn',
      line:
        `temps [WARN] removed ${removed.length} leftover temp file(s); ${failed.length} could not be removed:\n` +
        failed.map((f) => `  ${f.temp.key}: ${f.error}`).join('\n'),
    };
  }
  return {
    check: 'temps',
    status: 'ok',
    line: `temps [OK] removed ${removed.length} leftover temp file(s) under the lock:\n${listTemps(removed)}`,
  };
}
