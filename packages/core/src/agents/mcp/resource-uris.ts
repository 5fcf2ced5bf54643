import { InvalidLocatorError } from '../../seam/errors.js';

/**
 * The server's resource URIs, stable across runs and machines: `agentm://note/<store path>` (each
 * segment percent-encoded), `agentm://plan/<name>` and `agentm://progress/<name>` (`PLAN` for the
 * singleton pair, else the `<name>` of `PLAN-<name>.md`).
 */
export const NOTE_TEMPLATE = 'agentm://note/{+path}';
export const PLAN_TEMPLATE = 'agentm://plan/{name}';
export const PROGRESS_TEMPLATE = 'agentm://progress/{name}';

export function noteUri(key: string): string {
  return `agentm://note/${key.split('/').map(encodeURIComponent).join('/')}`;
}

export function planUri(name: string): string {
  return `agentm://plan/${encodeURIComponent(name)}`;
}

export function progressUri(name: string): string {
  return `agentm://progress/${encodeURIComponent(name)}`;
}

/** A URI variable decoded; malformed percent-encoding is an invalid locator, never a guess. */
export function decodeUriPart(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return text
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
  } catch {
    throw new InvalidLocatorError(text, 'its percent-encoding is malformed');
  }
}
