// Debian packages the test suites need, installed by their set-up scripts (never from inside a test):
// `test/setup.mjs` before vitest, `test/vscode/setup.mjs` before the VS Code e2e. Both run in `npm test`.
import { spawnSync } from 'node:child_process';

export class SetupError extends Error {
  name = 'SetupError';
}

/** Whether a command is on PATH. */
export const hasTool = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** The packages of `packages` dpkg does not report installed. */
export function missingAptPackages(packages) {
  return packages.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

/**
 * Installs the `missing` packages with apt-get (root only; else a SetupError naming the command that
 * installs them, for `purpose`). Returns what it did, for the set-up's log.
 */
export function aptInstall(missing, purpose) {
  if (missing.length === 0) return 'present';
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0)
    throw new SetupError(`${purpose} need the Debian packages ${missing.join(', ')}; run as root: ${command}`);
  if (!hasTool('apt-get'))
    throw new SetupError(
      `${purpose} need ${missing.join(', ')} and there is no apt-get here: install them with this system's package manager`,
    );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...missing],
  ]) {
    const r = spawnSync('apt-get', args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) {
      const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
      throw new SetupError(`apt-get ${args[0]} failed; run by hand to see why: ${command}\n${tail}`);
    }
  }
  return `installed ${missing.join(' ')}`;
}
