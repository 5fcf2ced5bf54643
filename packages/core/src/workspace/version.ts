import { readFileSync } from 'node:fs';

/**
 * The version of @agentm/core, read from its package.json (two levels up from this module in `src/`,
 * in `dist/` and in the CLI bundle's folder under `dist/`), so `agentm --version` can never disagree
 * with the package that is installed, and a recall server never answers a client of another version.
 */
export function coreVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
