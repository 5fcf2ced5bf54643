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
