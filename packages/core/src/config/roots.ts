import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { configFilePath, readConfigTolerant, type ConfigData } from './config-file.js';
import { VaultNotFoundError } from './errors.js';
import { envValue, expandHome, type HostEnv } from './host.js';
import { KEY_LEGACY_VAULT_PATH, KEY_MEMORY_ROOT, KEY_SPACES, KEY_STORAGE_BACKEND, KEY_VAULT_PATH } from './keys.js';

/** Where the vault path came from. */
export type VaultSource = 'env' | 'config' | 'legacy';

export interface VaultResolution {
  /** The vault directory (absolute, existing), or undefined for "no vault". */
  readonly path: string | undefined;
  readonly source: VaultSource | undefined;
  /** `MEMORY_VAULT_PATH` was set (non-empty), whether or not it names a directory. */
  readonly envSet: boolean;
}

/** The built-in spaces (memory-root relative), used when config names none. */
export const DEFAULT_SPACES: Readonly<Record<string, string>> = {
  memory: 'memory',
  projects: 'desk/projects',
  briefs: 'desk/briefs',
  scratch: 'desk/scratch',
};

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Validates a vault-relative prefix (`memory_root`, a `spaces` value): a string; trimmed; `\` → `/`;
 * refused when empty, absolute, containing `:` or a `..` segment; outer slashes stripped. Returns the
 * cleaned prefix, or undefined when it must be ignored (never an error: agentm treats it as absent).
 */
export function validateRelativePrefix(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const raw = value.trim().replace(/\\/g, '/');
  if (raw === '' || raw.startsWith('/') || raw.includes(':')) return undefined;
  const cleaned = raw.replace(/^\/+|\/+$/g, '');
  if (cleaned === '' || cleaned.split('/').some((segment) => segment === '..')) return undefined;
  return cleaned;
}

function configString(config: ConfigData, key: string, host: HostEnv): string | undefined {
  const value = config[key];
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return resolve(expandHome(value.trim(), host.home));
}

/**
 * The vault path from config only: the plugin key when set (an existing directory, else none — no
 * fallback to the legacy key), else the legacy `vault_path` (same rule).
 */
export async function configuredVault(
  config: ConfigData,
  host: HostEnv,
): Promise<{ path: string; source: 'config' | 'legacy' } | undefined> {
  const plugin = configString(config, KEY_VAULT_PATH, host);
  if (plugin !== undefined) return (await isDirectory(plugin)) ? { path: plugin, source: 'config' } : undefined;
  const legacy = configString(config, KEY_LEGACY_VAULT_PATH, host);
  if (legacy !== undefined && (await isDirectory(legacy))) return { path: legacy, source: 'legacy' };
  return undefined;
}

/**
 * The vault: `MEMORY_VAULT_PATH` (an existing directory, else "no vault" — never a fall-through to
 * config) → config `plugins.obsidian-vault.vault_path` → legacy `vault_path`. Never writes (agentm
 * migrates the legacy key as a side effect of reading it; we never write config while reading it).
 */
export async function resolveVault(host: HostEnv, config?: ConfigData): Promise<VaultResolution> {
  const fromEnv = envValue(host, 'MEMORY_VAULT_PATH');
  if (fromEnv !== undefined) {
    const path = resolve(expandHome(fromEnv, host.home));
    return (await isDirectory(path))
      ? { path, source: 'env', envSet: true }
      : { path: undefined, source: undefined, envSet: true };
  }
  const found = await configuredVault(config ?? (await readConfigTolerant(host)), host);
  return found ? { ...found, envSet: false } : { path: undefined, source: undefined, envSet: false };
}

/**
 * agentm's `vault_path()`: the vault directory, or undefined for "no vault". Throws `VaultNotFoundError`
 * when `storage.backend` is `vault` and config yields no existing vault (agentm's fail-loud guard: a vault
 * that is expected and missing must not read as "no vault"); a `MEMORY_VAULT_PATH` override never throws.
 * Selection and the doctor read `resolveVault` (which never throws) and refuse with their own messages.
 */
export async function vaultPath(host: HostEnv, config?: ConfigData): Promise<string | undefined> {
  const cfg = config ?? (await readConfigTolerant(host));
  const vault = await resolveVault(host, cfg);
  if (vault.path === undefined && !vault.envSet) assertNoVaultExpected(host, cfg);
  return vault.path;
}

/** Throws `VaultNotFoundError` when the config selects `vault` (trimmed `storage.backend`), naming the path it gives. */
function assertNoVaultExpected(host: HostEnv, config: ConfigData): void {
  const backend = config[KEY_STORAGE_BACKEND];
  if (typeof backend !== 'string' || backend.trim() !== 'vault') return;
  const plugin = configString(config, KEY_VAULT_PATH, host);
  const legacy = plugin === undefined ? configString(config, KEY_LEGACY_VAULT_PATH, host) : undefined;
  const key = legacy === undefined ? KEY_VAULT_PATH : KEY_LEGACY_VAULT_PATH;
  throw new VaultNotFoundError(configFilePath(host), key, plugin ?? legacy);
}

/** The memory root of a resolved vault (see `memoryRoot`); undefined with no vault. Never throws. */
export function memoryRootOf(vault: VaultResolution, config: ConfigData): string | undefined {
  if (vault.path === undefined) return undefined;
  if (vault.source === 'env') return vault.path;
  const prefix = validateRelativePrefix(config[KEY_MEMORY_ROOT]);
  return prefix === undefined ? vault.path : join(vault.path, ...prefix.split('/'));
}

/**
 * agentm's `memory_root()`: `MEMORY_VAULT_PATH` taken as is (never re-joined) → the vault joined with
 * `plugins.obsidian-vault.memory_root` (validated; invalid is ignored) → the vault. Undefined with no
 * vault; throws `VaultNotFoundError` as `vaultPath` does.
 */
export async function memoryRoot(host: HostEnv, config?: ConfigData): Promise<string | undefined> {
  const cfg = config ?? (await readConfigTolerant(host));
  const vault = await resolveVault(host, cfg);
  if (vault.path === undefined && !vault.envSet) assertNoVaultExpected(host, cfg);
  return memoryRootOf(vault, cfg);
}

/** The memory-root-relative path of a named space: config `spaces[name]` (validated) → built-in default → the name. */
export function spacePath(name: string, config: ConfigData): string {
  const spaces = config[KEY_SPACES];
  if (typeof spaces === 'object' && spaces !== null && !Array.isArray(spaces)) {
    const configured = validateRelativePrefix((spaces as Record<string, unknown>)[name]);
    if (configured !== undefined) return configured;
  }
  return DEFAULT_SPACES[name] ?? name;
}

/**
 * The legacy-only case: no plugin vault key, and the legacy `vault_path` names an existing directory.
 * Selection treats it as the vault (as agentm does after migrating); doctor suggests the migration.
 */
export async function legacyOnlyVault(config: ConfigData, host: HostEnv): Promise<string | undefined> {
  const found = await configuredVault(config, host);
  return found?.source === 'legacy' ? found.path : undefined;
}
