import { realpathSync, statSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { commitWrite, discardWrite, prepareWrite, syncDirectory } from '../write-protocol/atomic-write.js';
import { verifyOwnedAndUnchanged } from '../write-protocol/cas-write.js';
import { contentHash } from '../write-protocol/content-hash.js';
import { defaultLockRoot, withVaultLock } from '../write-protocol/vault-lock.js';
import { configFilePath, readConfigStrict, type ConfigData } from './config-file.js';
import { ConfigValueError } from './errors.js';
import { expandHome, type HostEnv } from './host.js';
import {
  KEY_ALIASES,
  KEY_LEGACY_VAULT_PATH,
  KEY_MEMORY_ROOT,
  KEY_SCHEMA_VERSION,
  KEY_SPACES,
  KEY_STATE_MODE,
  KEY_STORAGE_BACKEND,
  KEY_VAULT_PATH,
  SCHEMA_VERSION,
} from './keys.js';
import { pythonJson } from './python-json.js';
import { validateRelativePrefix } from './roots.js';
import { normalizeStateMode } from './state-mode.js';

/** The result of a config change: whether the file was rewritten, and which file. */
export interface ConfigChange {
  readonly changed: boolean;
  readonly file: string;
}

/** The stored key a CLI name means (`memory_root` → `plugins.obsidian-vault.memory_root`, …). `vault_path` stays as is. */
export function canonicalConfigKey(key: string): string {
  return KEY_ALIASES[key] ?? key;
}

/**
 * The value of a key, read strictly (a corrupt config throws). `vault_path` reads the plugin key,
 * then the legacy one. Undefined when absent.
 */
export async function getConfigValue(host: HostEnv, key: string): Promise<unknown> {
  const data = (await readConfigStrict(host)).data ?? {};
  if (key === KEY_LEGACY_VAULT_PATH || key === KEY_VAULT_PATH) {
    const plugin = data[KEY_VAULT_PATH];
    if (typeof plugin === 'string' && plugin.trim() !== '') return plugin;
    const legacy = data[KEY_LEGACY_VAULT_PATH];
    return typeof legacy === 'string' && legacy.trim() !== '' ? legacy : undefined;
  }
  return data[canonicalConfigKey(key)];
}

/** Resolves `vault_path` to an absolute, symlink-resolved existing directory, or refuses. */
function resolveVaultDir(value: unknown, host: HostEnv): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigValueError(
      KEY_VAULT_PATH,
      'vault_path must be a directory path, e.g. agentm config set vault_path ~/Vault',
    );
  }
  const path = resolve(expandHome(value.trim(), host.home));
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ConfigValueError(
      KEY_VAULT_PATH,
      `vault_path ${path} is not an existing directory; create it (or mount the vault) and run the command again`,
    );
  }
  return realpathSync.native(path);
}

/** Checks and normalizes a value for its key; throws `ConfigValueError` naming the key and what it accepts. */
function checkedValue(key: string, value: unknown): unknown {
  switch (key) {
    case KEY_SCHEMA_VERSION:
      throw new ConfigValueError(key, 'schema_version is managed by AgentM and cannot be set or unset');
    case KEY_STORAGE_BACKEND:
      if (typeof value !== 'string' || value.trim() === '')
        throw new ConfigValueError(key, 'storage.backend must be a non-empty backend name, e.g. vault or device-local');
      return value.trim();
    case KEY_STATE_MODE: {
      const mode = normalizeStateMode(value);
      if (mode !== 'local' && mode !== 'backend')
        throw new ConfigValueError(
          key,
          `state_mode must be local or backend (vault is read as backend); got ${JSON.stringify(value)}`,
        );
      return mode;
    }
    case KEY_MEMORY_ROOT: {
      const prefix = validateRelativePrefix(value);
      if (prefix === undefined) {
        throw new ConfigValueError(
          key,
          `memory_root must be a vault-relative folder such as Agent (not empty, not absolute, no ':' and no '..'); got ${JSON.stringify(value)}`,
        );
      }
      return prefix;
    }
    case KEY_SPACES: {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ConfigValueError(
          key,
          'spaces must be a JSON object of space name → vault-relative folder, e.g. --json \'{"projects": "desk/projects"}\'',
        );
      }
      const cleaned: Record<string, string> = {};
      for (const [name, folder] of Object.entries(value)) {
        const prefix = validateRelativePrefix(folder);
        if (prefix === undefined)
          throw new ConfigValueError(
            key,
            `space ${JSON.stringify(name)} must be a vault-relative folder (not empty, not absolute, no ':' and no '..'); got ${JSON.stringify(folder)}`,
          );
        cleaned[name] = prefix;
      }
      return cleaned;
    }
    default:
      return value;
  }
}

/**
 * Sets a key (CLI names accepted). `vault_path` resolves an existing directory and also selects the
 * vault (`storage.backend = vault`), like agentm's `--vault-path`. Idempotent: no write when unchanged.
 */
export async function setConfigValue(host: HostEnv, key: string, value: unknown): Promise<ConfigChange> {
  if (key === KEY_LEGACY_VAULT_PATH || key === KEY_VAULT_PATH) {
    const dir = resolveVaultDir(value, host);
    return mutateConfig(host, (data) =>
      [assign(data, KEY_VAULT_PATH, dir), assign(data, KEY_STORAGE_BACKEND, 'vault')].some(Boolean),
    );
  }
  const canonical = canonicalConfigKey(key);
  const checked = checkedValue(canonical, value);
  return mutateConfig(host, (data) => assign(data, canonical, checked));
}

/**
 * Sets several keys in one write (`agentm init`): every value is checked first, as `setConfigValue`
 * checks it, so one bad value refuses them all and nothing is written. Idempotent like it.
 */
export async function setConfigValues(
  host: HostEnv,
  entries: ReadonlyArray<readonly [string, unknown]>,
): Promise<ConfigChange> {
  const assignments: Array<[string, unknown]> = [];
  for (const [key, value] of entries) {
    if (key === KEY_LEGACY_VAULT_PATH || key === KEY_VAULT_PATH) {
      assignments.push([KEY_VAULT_PATH, resolveVaultDir(value, host)], [KEY_STORAGE_BACKEND, 'vault']);
      continue;
    }
    const canonical = canonicalConfigKey(key);
    assignments.push([canonical, checkedValue(canonical, value)]);
  }
  return mutateConfig(host, (data) => assignments.map(([k, v]) => assign(data, k, v)).some(Boolean));
}

/** Removes a key (`vault_path` removes the plugin and the legacy key). No write when absent. */
export async function unsetConfigValue(host: HostEnv, key: string): Promise<ConfigChange> {
  const canonical = canonicalConfigKey(key);
  if (canonical === KEY_SCHEMA_VERSION)
    throw new ConfigValueError(canonical, 'schema_version is managed by AgentM and cannot be unset');
  const keys =
    canonical === KEY_LEGACY_VAULT_PATH || canonical === KEY_VAULT_PATH
      ? [KEY_VAULT_PATH, KEY_LEGACY_VAULT_PATH]
      : [canonical];
  return mutateConfig(host, (data) => keys.map((k) => k in data && delete data[k]).some(Boolean));
}

/** Sets `data[key]`, returning whether anything changed. */
function assign(data: ConfigData, key: string, value: unknown): boolean {
  if (key in data && JSON.stringify(data[key]) === JSON.stringify(value)) return false;
  data[key] = value;
  return true;
}

/**
 * Read-modify-write of the config file: under a lock keyed on the install prefix (so two `agentm
 * config` runs serialize), read strictly (a corrupt file is refused, never overwritten), mutate, and
 * land atomically with mode 0600 — but only if the bytes are still the ones read (a CAS against
 * writers outside the lock, such as Python agentm).
 */
async function mutateConfig(host: HostEnv, mutate: (data: ConfigData) => boolean): Promise<ConfigChange> {
  const file = configFilePath(host);
  return withVaultLock(
    dirname(file),
    async (hold) => {
      const read = await readConfigStrict(host);
      const data: ConfigData = { ...(read.data ?? {}) };
      if (!mutate(data)) return { changed: false, file };
      data[KEY_SCHEMA_VERSION] = SCHEMA_VERSION;
      const expected = read.bytes === undefined ? null : contentHash(read.bytes);
      // Created 0600 (it may hold API keys); the chmod gives the owner back bits an unusual umask removed.
      const prepared = await prepareWrite(file, pythonJson(data), { mode: 0o600 });
      try {
        await chmod(prepared.temp, 0o600);
      } catch (error) {
        await discardWrite(prepared);
        throw error;
      }
      await commitWrite(prepared, () => verifyOwnedAndUnchanged(hold, file, expected, file));
      await syncDirectory(dirname(file));
      return { changed: true, file };
    },
    { lockRoot: defaultLockRoot(host.env as NodeJS.ProcessEnv, host.home) },
  );
}
