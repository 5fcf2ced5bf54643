import type { StorageBackend } from '../seam/backend.js';
import { CAPABILITY_SNAKE_NAMES, CAPABILITY_FLAGS, type Capabilities } from '../seam/capabilities.js';
import { contentHash } from '../protocol/content-hash.js';
import { configFilePath, readConfigTolerant } from '../config/config-file.js';
import type { HostEnv } from '../config/host.js';
import { legacyOnlyVault } from '../config/roots.js';
import { Workspace } from '../workspace/workspace.js';
import { storagePreview, type CheckStatus } from '../selection/storage-preview.js';

export interface DoctorRow {
  readonly check: string;
  /** `info`: nothing is wrong, but here is how to do more (a fresh install's vault, an optional provider). */
  readonly status: CheckStatus | 'info';
  readonly line: string;
}

/** The storage row: `storagePreview` (never throws, never writes). */
export async function storageRow(host: HostEnv): Promise<DoctorRow> {
  const preview = await storagePreview({ host });
  return { check: 'storage', status: preview.status, line: preview.line };
}

/**
 * A warning when the config has only the legacy `vault_path` key: it still selects the vault (we never
 * rewrite config while reading it), and the hint says how to migrate. Undefined when there is nothing to say.
 */
export async function legacyConfigRow(host: HostEnv): Promise<DoctorRow | undefined> {
  const legacy = await legacyOnlyVault(await readConfigTolerant(host), host);
  if (legacy === undefined) return undefined;
  return {
    check: 'config',
    status: 'warn',
    line:
      `config [WARN] ${configFilePath(host)} names the vault only with the legacy key vault_path (${legacy}); it is used as is. ` +
      `Migrate with: agentm config set vault_path ${legacy}`,
  };
}

/** The `--requires` row: selection with the required capabilities (nothing is created on a refusal). */
export async function requiresRow(host: HostEnv, required: Partial<Capabilities>): Promise<DoctorRow> {
  const names = CAPABILITY_FLAGS.filter((f) => required[f]).map((f) => CAPABILITY_SNAKE_NAMES[f]);
  try {
    const selected = await Workspace.open({ host, required, createRoot: false });
    return {
      check: 'requires',
      status: 'ok',
      line: `requires [OK] backend '${selected.protocol}' satisfies required capabilities: ${names.join(', ') || '(none)'}`,
    };
  } catch (error) {
    return { check: 'requires', status: 'fail', line: `requires [FAIL] ${(error as Error).message}` };
  }
}

/** Writes a probe note through the selected backend with a CAS expectation, reads it back, and compares bytes. */
export async function roundTripRow(host: HostEnv, now: Date = new Date()): Promise<DoctorRow> {
  let backend: StorageBackend;
  let protocol: string;
  try {
    ({ backend, protocol } = await Workspace.open({ host }));
  } catch (error) {
    return {
      check: 'roundtrip',
      status: 'fail',
      line: `roundtrip [FAIL] no backend to write through: ${(error as Error).message}`,
    };
  }
  const probe = backend.resolve('_meta', 'doctor-roundtrip.md');
  const content = `# agentm doctor round trip\n\nwritten ${now.toISOString()} by pid ${process.pid}: café ναί 🦗\r\nend\n`;
  try {
    const previous = (await backend.exists(probe)) ? contentHash(await backend.read(probe)) : null;
    await backend.write(probe, content, { expectHash: previous });
    const back = await backend.read(probe);
    if (back !== content) {
      return {
        check: 'roundtrip',
        status: 'fail',
        line: `roundtrip [FAIL] ${probe.key} read back different bytes through '${protocol}'`,
      };
    }
    const bytes = Buffer.byteLength(content, 'utf8');
    // The probe is not the user's data: remove it (only if it still holds our bytes) so no note is left behind.
    const removed = backend.remove !== undefined;
    if (removed) await backend.remove!(probe, { expectHash: contentHash(content) });
    return {
      check: 'roundtrip',
      status: 'ok',
      line: `roundtrip [OK] wrote and read back ${probe.key} (${bytes} bytes) through '${protocol}'${removed ? ', then removed it' : ''}`,
    };
  } catch (error) {
    return { check: 'roundtrip', status: 'fail', line: `roundtrip [FAIL] ${(error as Error).message}` };
  }
}
