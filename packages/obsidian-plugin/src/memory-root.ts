import { Locator } from '@agentm/core';
import { MemoryRootSettingError } from './errors.js';

/**
 * The memory root when the settings leave it empty: the vault root.
 *
 * Kept small and alone on purpose: issue 3's config reader will make this "agentm's
 * `plugins.obsidian-vault.memory_root` when `.agentm-config.json` names this vault, else the vault root".
 */
export function defaultMemoryRootFolder(): string {
  return '';
}

/**
 * The vault-relative memory root folder from the setting: empty → the default; `/` → the vault root;
 * otherwise a folder inside the vault (slashes trimmed). Throws `MemoryRootSettingError` for `..`,
 * backslashes or NUL (a memory root must stay inside the vault).
 */
export function resolveMemoryRootFolder(setting: string): string {
  const trimmed = setting.trim();
  if (trimmed === '') return defaultMemoryRootFolder();
  if (trimmed === '/') return '';
  try {
    return new Locator(trimmed).key;
  } catch (error) {
    throw new MemoryRootSettingError(trimmed, 'it must not contain "..", a backslash or NUL');
  }
}
