/** The flat, dotted keys of `.agentm-config.json` (DESIGN §12). */
export const CONFIG_FILE_NAME = '.agentm-config.json';
export const KEY_SCHEMA_VERSION = 'schema_version';
export const KEY_STORAGE_BACKEND = 'storage.backend';
export const KEY_VAULT_PATH = 'plugins.obsidian-vault.vault_path';
export const KEY_LEGACY_VAULT_PATH = 'vault_path';
export const KEY_MEMORY_ROOT = 'plugins.obsidian-vault.memory_root';
export const KEY_SPACES = 'plugins.obsidian-vault.spaces';
export const KEY_STATE_MODE = 'state_mode';
export const SCHEMA_VERSION = 2;

/** Short names the CLI accepts for the long keys. */
export const KEY_ALIASES: Readonly<Record<string, string>> = {
  memory_root: KEY_MEMORY_ROOT,
  spaces: KEY_SPACES,
  backend: KEY_STORAGE_BACKEND,
};
