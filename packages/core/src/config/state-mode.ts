import type { ConfigData } from './config-file.js';
import { KEY_STATE_MODE } from './keys.js';

/** The two state modes: `local` keeps harness state in the repo; `backend` lets a synced backend hold it. */
export type StateMode = 'local' | 'backend';

/**
 * A state-mode value as agentm reads it: a string, trimmed and lower-cased; blank is absent; the
 * legacy `vault` reads as `backend`. Other strings are returned as they are (only `local` routes).
 */
export function normalizeStateMode(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim().toLowerCase();
  if (value === '') return undefined;
  return value === 'vault' ? 'backend' : value;
}

/** The device-level `state_mode` from config, normalized. */
export function configStateMode(config: ConfigData): string | undefined {
  return normalizeStateMode(config[KEY_STATE_MODE]);
}
