import { access, constants } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DeviceLocalBackend, deviceLocalRoot } from '../backends/device-local.js';
import { FsBackend } from '../backends/fs-backend.js';
import { VaultBackend } from '../backends/vault.js';
import type { StorageBackend } from '../seam/backend.js';
import { contentHash } from '../protocol/content-hash.js';

export interface DoctorRow {
  readonly check: string;
  readonly status: 'ok' | 'warn' | 'fail';
  readonly line: string;
}

/**
 * The backend the CLI works through. Until configuration-driven selection lands, the chain is
 * `MEMORY_VAULT_PATH` → vault, else the device-local store.
 */
export function cliBackend(env: NodeJS.ProcessEnv = process.env): { protocol: string; origin: string; backend: StorageBackend } {
  const vault = env['MEMORY_VAULT_PATH']?.trim();
  if (vault) return { protocol: 'vault', origin: '$MEMORY_VAULT_PATH env override', backend: new VaultBackend({ root: vault }) };
  return { protocol: 'device-local', origin: 'fresh-install default', backend: new DeviceLocalBackend({ root: deviceLocalRoot(undefined, env) }) };
}

async function writable(path: string): Promise<boolean> {
  for (let p = path; ; p = dirname(p)) {
    try {
      await access(p, constants.W_OK);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(p) === p) return false;
    }
  }
}

export async function storageRow(selected: ReturnType<typeof cliBackend>): Promise<DoctorRow> {
  const root = selected.backend instanceof FsBackend ? selected.backend.root : '(not a folder)';
  const ok = await writable(root);
  const head = `selected backend '${selected.protocol}' (${selected.origin})`;
  return ok
    ? { check: 'storage', status: 'ok', line: `storage [OK] ${head} — registered; root ${root} writable` }
    : { check: 'storage', status: 'warn', line: `storage [WARN] ${head} — registered, but root ${root} is not writable` };
}

/** Writes a probe note through the backend with a CAS expectation, reads it back, and compares bytes. */
export async function roundTripRow(selected: ReturnType<typeof cliBackend>, now: Date = new Date()): Promise<DoctorRow> {
  const { backend, protocol } = selected;
  const probe = backend.resolve('_meta', 'doctor-roundtrip.md');
  const content = `# agentm doctor round trip\n\nwritten ${now.toISOString()} by pid ${process.pid}: café ναί 🦗\r\nend\n`;
  try {
    const previous = (await backend.exists(probe)) ? contentHash(await backend.read(probe)) : null;
    await backend.write(probe, content, { expectHash: previous });
    const back = await backend.read(probe);
    if (back !== content) {
      return { check: 'roundtrip', status: 'fail', line: `roundtrip [FAIL] ${probe.key} read back different bytes through '${protocol}'` };
    }
    const bytes = Buffer.byteLength(content, 'utf8');
    return { check: 'roundtrip', status: 'ok', line: `roundtrip [OK] wrote and read back ${probe.key} (${bytes} bytes) through '${protocol}'` };
  } catch (error) {
    return { check: 'roundtrip', status: 'fail', line: `roundtrip [FAIL] ${(error as Error).message}` };
  }
}
