import { readConfigStrict, type StrictConfig } from './config-file.js';
import { ConfigValueError } from './errors.js';
import type { HostEnv } from './host.js';
import { KEY_STORAGE_BACKEND } from './keys.js';

/** A `storage.backend` value that is present but not a usable name. */
export class InvalidBackendSettingError extends ConfigValueError {
  readonly file: string;
  constructor(file: string, value: unknown) {
    super(
      KEY_STORAGE_BACKEND,
      `the AgentM config ${file} sets "${KEY_STORAGE_BACKEND}" to ${JSON.stringify(value) ?? String(value)}, which is not a backend name ` +
        '(a non-empty string such as "vault" or "device-local"). Refusing to demote to device-local. ' +
        `Fix it with: agentm config set ${KEY_STORAGE_BACKEND} <name>, or remove it with: agentm config unset ${KEY_STORAGE_BACKEND}`,
    );
    this.file = file;
  }
}

/**
 * The explicit backend selection, read strictly (the one config reader that refuses instead of
 * tolerating: a tolerant read would silently demote a vault user to device-local). Absent file or key
 * → `backend: undefined`. A corrupt file throws `CorruptConfigError`; a present non-string or blank
 * value throws `InvalidBackendSettingError`. The name is trimmed and case-sensitive.
 */
export async function readExplicitBackend(
  host: HostEnv,
): Promise<{ backend: string | undefined; config: StrictConfig }> {
  const config = await readConfigStrict(host);
  if (config.data === undefined || !(KEY_STORAGE_BACKEND in config.data)) return { backend: undefined, config };
  const value = config.data[KEY_STORAGE_BACKEND];
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidBackendSettingError(config.file, value);
  return { backend: value.trim(), config };
}
