import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptConfigError } from './errors.js';
import { expandHome, envValue, type HostEnv } from './host.js';
import { CONFIG_FILE_NAME } from './keys.js';

/** The install prefix: `AGENTM_INSTALL_PREFIX` (trimmed, `~` expanded) → `~/.claude`. */
export function installPrefix(host: HostEnv): string {
  const fromEnv = envValue(host, 'AGENTM_INSTALL_PREFIX');
  return fromEnv !== undefined ? expandHome(fromEnv, host.home) : join(host.home, '.claude');
}

/** `<install prefix>/.agentm-config.json`. */
export function configFilePath(host: HostEnv): string {
  return join(installPrefix(host), CONFIG_FILE_NAME);
}

export type ConfigData = Record<string, unknown>;

/** The config file read strictly: absent → `undefined`; anything untrustworthy → `CorruptConfigError`. */
export interface StrictConfig {
  readonly file: string;
  readonly data: ConfigData | undefined;
  /** The exact bytes read (for a compare-and-swap by the writer); undefined when absent. */
  readonly bytes: Buffer | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses config bytes; throws `CorruptConfigError` naming the problem. */
export function parseConfigBytes(file: string, bytes: Buffer): ConfigData {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new CorruptConfigError(
      file,
      'is UTF-16 encoded (it starts with a UTF-16 byte-order mark, as some Windows editors save); save it as UTF-8',
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw new CorruptConfigError(file, 'is not valid UTF-8; save it as UTF-8', error);
  }
  // A UTF-8 byte-order mark is harmless: the content is still exactly what the user wrote.
  if (text.startsWith('\ufeff')) text = text.slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptConfigError(file, `could not be read as JSON (${(error as Error).message})`, error);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CorruptConfigError(
      file,
      `is not a JSON object (it holds ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`})`,
    );
  }
  return parsed as ConfigData;
}

/** Reads the config strictly (absent is fine; corrupt, non-object, UTF-16 or unreadable throws). */
export async function readConfigStrict(host: HostEnv): Promise<StrictConfig> {
  const file = configFilePath(host);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { file, data: undefined, bytes: undefined };
    throw new CorruptConfigError(file, `could not be read (${(error as Error).message})`, error);
  }
  return { file, data: parseConfigBytes(file, bytes), bytes };
}

/** Reads the config tolerantly: anything but a readable UTF-8 JSON object is "no config" (`{}`). */
export async function readConfigTolerant(host: HostEnv): Promise<ConfigData> {
  try {
    return (await readConfigStrict(host)).data ?? {};
  } catch {
    return {};
  }
}
