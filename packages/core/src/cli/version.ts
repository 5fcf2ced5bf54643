import { readFileSync } from 'node:fs';

/**
 * The version of @agentm/core, read from its package.json (two levels up from both `src/cli/` and
 * `dist/cli/`), so `agentm --version` can never disagree with the package that is installed.
 */
export function coreVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
