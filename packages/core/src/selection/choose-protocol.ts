import type { ConfigData } from '../config/config-file.js';
import { CorruptConfigError, ConfigValueError } from '../config/errors.js';
import { readExplicitBackend } from '../config/explicit-backend.js';
import { configFilePath } from '../config/config-file.js';
import type { HostEnv } from '../config/host.js';
import { memoryRootOf, resolveVault, type VaultResolution } from '../config/roots.js';
import { StorageSelectionError } from './errors.js';

export const ORIGIN_CONFIGURED = 'configured (storage.backend)';
export const ORIGIN_ENV = '$MEMORY_VAULT_PATH env override';
export const ORIGIN_LEGACY = 'legacy vault_path (not migrated)';
export const ORIGIN_DEFAULT = 'fresh-install default';

/** Which protocol the configuration asks for, and everything about the vault the decision read. */
export interface ProtocolChoice {
  readonly protocol: string;
  readonly origin: string;
  readonly configFile: string;
  readonly config: ConfigData;
  readonly vault: VaultResolution;
  /** The memory root (vault store root), or undefined with no vault. */
  readonly memoryRoot: string | undefined;
}

/**
 * The protocol, first hit wins: explicit `storage.backend` → `MEMORY_VAULT_PATH` set (→ `vault`, even
 * if the directory is missing) → a legacy-only `vault_path` naming an existing directory (→ `vault`,
 * as agentm selects after its migration, but without rewriting the file) → `device-local`.
 * A corrupt config or an unusable `storage.backend` value is refused (`StorageSelectionError`).
 */
export async function chooseProtocol(host: HostEnv): Promise<ProtocolChoice> {
  let explicit: Awaited<ReturnType<typeof readExplicitBackend>>;
  try {
    explicit = await readExplicitBackend(host);
  } catch (error) {
    if (error instanceof CorruptConfigError || error instanceof ConfigValueError) {
      throw new StorageSelectionError('corrupt-config', undefined, error.message, error);
    }
    throw error;
  }
  const config = explicit.config.data ?? {};
  const vault = await resolveVault(host, config);
  const base = { configFile: configFilePath(host), config, vault, memoryRoot: memoryRootOf(vault, config) };
  if (explicit.backend !== undefined) return { ...base, protocol: explicit.backend, origin: ORIGIN_CONFIGURED };
  if (vault.envSet) return { ...base, protocol: 'vault', origin: ORIGIN_ENV };
  if (vault.source === 'legacy') return { ...base, protocol: 'vault', origin: ORIGIN_LEGACY };
  return { ...base, protocol: 'device-local', origin: ORIGIN_DEFAULT };
}
