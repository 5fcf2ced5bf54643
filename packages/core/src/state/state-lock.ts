import { withBackendLock } from '../seam/backend-lock.js';
import { defaultLockRoot, withVaultLock } from '../write-protocol/vault-lock.js';
import type { ProjectResolution } from '../routing/resolve-project.js';
import { stateLocation } from './state-location.js';

/**
 * Runs `fn` holding the lock that guards this project's state files: the backend's lock when state is
 * routed through a backend that offers `withLock` (the vault), else the lock keyed on the repo's
 * `.harness` directory. Re-entrant, so `writeStateFile` inside `fn` does not deadlock: a
 * read-check-write sequence (claiming a step) is then atomic against every other AgentM writer.
 */
export async function withStateLock<T>(resolution: ProjectResolution, fn: () => Promise<T>): Promise<T> {
  const location = await stateLocation(resolution);
  if (location.kind === 'backend') return withBackendLock(location.backend, fn);
  const { host } = resolution;
  return withVaultLock(location.dir, () => fn(), {
    lockRoot: defaultLockRoot(host.env as NodeJS.ProcessEnv, host.home),
  });
}
