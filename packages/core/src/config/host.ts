import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The environment every reader of configuration and roots takes as a parameter, so nothing reads
 * `process.env` or the real home behind a caller's back (tests pass a temp home).
 */
export interface HostEnv {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
}

/** The host of this process: `process.env` and `$HOME` (or the OS home). */
export function processHost(env: Readonly<Record<string, string | undefined>> = process.env): HostEnv {
  const home = env['HOME'];
  return { env, home: home !== undefined && home !== '' ? home : homedir() };
}

/** `~` and `~/x` become the home; anything else is returned unchanged. */
export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(home, path.slice(2));
  return path;
}

/** A trimmed, non-empty env value, or undefined. */
export function envValue(host: HostEnv, name: string): string | undefined {
  const value = host.env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}
