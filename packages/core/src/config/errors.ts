import { AgentMError, EXIT_USAGE } from '../seam/errors.js';

/** The family of configuration problems. */
export class ConfigError extends AgentMError {
  override readonly exitCode: number = EXIT_USAGE;
}

/**
 * The config file exists but cannot be trusted: unreadable, not UTF-8 (a UTF-16 file from a Windows
 * editor), not JSON, or not a JSON object. Readers that would otherwise guess refuse with this.
 */
export class CorruptConfigError extends ConfigError {
  readonly file: string;
  constructor(file: string, problem: string, cause?: unknown) {
    super(
      `the AgentM config ${file} ${problem}. Refusing to guess a storage backend: falling back to device-local could ` +
        `mis-write or orphan your vault. Fix the file (a UTF-8 JSON object such as {"storage.backend": "vault"}) or remove it.`,
      { code: 'ECONFIGCORRUPT', cause },
    );
    this.file = file;
  }
}

/** A value given to `agentm config set` (or found under a key) that the key does not accept. */
export class ConfigValueError extends ConfigError {
  readonly key: string;
  constructor(key: string, message: string) {
    super(message, { code: 'ECONFIGVALUE' });
    this.key = key;
  }
}

/**
 * `storage.backend` is `vault` but the configured vault is not there (agentm's
 * `StorageBackendNotInstalledError` from `vault_path()`): a vault that is expected and missing is loud,
 * so nothing quietly files into another store. A `MEMORY_VAULT_PATH` override never raises it.
 */
export class VaultNotFoundError extends ConfigError {
  readonly file: string;
  /** The vault path the config names (absolute, `~` expanded), or undefined when it names none. */
  readonly path: string | undefined;
  constructor(file: string, key: string, path: string | undefined) {
    const what =
      path === undefined
        ? `${key} is not set`
        : `${key} names ${path}, which is not an existing directory (an unmounted drive, or a moved vault?)`;
    super(
      `storage.backend is 'vault' in ${file}, but ${what}. ` +
        `${path === undefined ? 'Point' : 'Mount or restore it, or point'} it at your vault (agentm config set vault_path <dir>), ` +
        'or choose another backend (agentm config set storage.backend device-local). Refusing to demote to device-local.',
      { code: 'EVAULTNOTFOUND' },
    );
    this.file = file;
    this.path = path;
  }
}
