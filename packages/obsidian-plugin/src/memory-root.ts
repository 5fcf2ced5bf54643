import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { normalizePath } from 'obsidian';
import { KEY_MEMORY_ROOT, readConfigTolerant, resolveVault, validateRelativePrefix } from '@agentm/core/config';
import { Locator, type HostEnv } from '@agentm/core';
import { MemoryRootSettingError } from './errors.js';

/** Where the memory root folder came from. */
export type MemoryRootSource = 'setting' | 'env' | 'config' | 'vault';

/** The memory root as a vault-relative folder (`""` = the vault root), and why it is that one. */
export interface MemoryRootChoice {
  readonly folder: string;
  readonly source: MemoryRootSource;
}

/** How people read a source (settings tab, doctor). */
export const MEMORY_ROOT_SOURCE_TEXT: Readonly<Record<MemoryRootSource, string>> = {
  setting: 'from the plugin settings',
  env: 'from MEMORY_VAULT_PATH',
  config: "from agentm's config",
  vault: 'default: the vault root',
};

async function realpathOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/** `inner` as a vault-relative folder when it is `vaultDir` or inside it (both realpath'd), else undefined. */
async function folderInside(vaultDir: string, inner: string): Promise<string | undefined> {
  const rel = relative(await realpathOrSelf(vaultDir), await realpathOrSelf(inner));
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

function locatorKey(path: string): string | undefined {
  try {
    return new Locator(path).key;
  } catch {
    return undefined;
  }
}

/**
 * The memory root when the settings leave it empty, the way agents find theirs (agentm's
 * `memory_root()`), restricted to this vault. Reads `.agentm-config.json` through core's tolerant reader
 * (a missing or corrupt file is "no config") and never writes it:
 *
 * 1. `MEMORY_VAULT_PATH` set: it *is* the agents' memory root (never re-joined); used when it is a folder
 *    of this vault, else the vault root (agents then write elsewhere; config does not apply to them).
 * 2. The configured vault (`plugins.obsidian-vault.vault_path`, else the legacy `vault_path`) is this vault
 *    (realpath compare): `plugins.obsidian-vault.memory_root`, validated as core does (invalid = absent).
 * 3. Otherwise the vault root.
 */
export async function defaultMemoryRootFolder(vaultDir: string, host: HostEnv): Promise<MemoryRootChoice> {
  const config = await readConfigTolerant(host);
  const vault = await resolveVault(host, config);
  if (vault.envSet) {
    const folder = vault.path === undefined ? undefined : await folderInside(vaultDir, vault.path);
    return folder === undefined ? { folder: '', source: 'vault' } : { folder, source: 'env' };
  }
  if (vault.path !== undefined && (await folderInside(vaultDir, vault.path)) === '') {
    const prefix = validateRelativePrefix(config[KEY_MEMORY_ROOT]);
    const folder = prefix === undefined ? undefined : locatorKey(prefix);
    if (folder !== undefined) return { folder, source: 'config' };
  }
  return { folder: '', source: 'vault' };
}

/**
 * The folder the memory root setting names: `undefined` when it is empty (use the default); `""` for
 * `/` (the vault root); otherwise a folder inside the vault, spelled as Obsidian spells paths
 * (`normalizePath`: `\` read as `/`, repeated and outer slashes dropped, non-breaking spaces made
 * spaces, Unicode NFC, so a name typed on macOS matches the folder). Throws `MemoryRootSettingError`
 * for a `..` segment or NUL (a memory root must stay inside the vault).
 */
export function parseMemoryRootSetting(setting: string): string | undefined {
  const trimmed = setting.trim();
  if (trimmed === '') return undefined;
  const path = normalizePath(trimmed);
  if (path === '/') return '';
  try {
    return new Locator(path).key;
  } catch {
    throw new MemoryRootSettingError(trimmed, 'it must not contain ".." or NUL');
  }
}

/** The memory root: the setting when set, else `defaultMemoryRootFolder`. Throws `MemoryRootSettingError`. */
export async function resolveMemoryRoot(setting: string, vaultDir: string, host: HostEnv): Promise<MemoryRootChoice> {
  const folder = parseMemoryRootSetting(setting);
  return folder !== undefined ? { folder, source: 'setting' } : defaultMemoryRootFolder(vaultDir, host);
}
