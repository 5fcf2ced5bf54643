// The one place the test set-up installs Debian packages (the VS Code e2e's browser and build tools,
// PostgreSQL for the postgres tests): run by `npm test`'s set-up steps, never from inside a test.
import { spawnSync } from 'node:child_process';

/** The packages of `packages` that dpkg does not list as installed. */
export function missingAptPackages(packages) {
  return packages.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

/**
 * `apt-get update` then `apt-get install -y <packages>`, as root; anyone else gets `makeError` with the
 * command to run (`why` says what needs them). A failure throws with the command and apt's last lines.
 */
export function aptInstall(packages, { why, makeError = (message) => new Error(message) }) {
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  if (process.getuid?.() !== 0)
    throw makeError(`${why} need the Debian packages ${packages.join(', ')}; run as root: ${command}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...packages],
  ]) {
    const r = spawnSync('apt-get', args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) {
      const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
      throw makeError(`apt-get ${args[0]} failed; run by hand to see why: ${command}\n${tail}`);
    }
  }
}
