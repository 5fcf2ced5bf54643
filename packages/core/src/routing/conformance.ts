import type { StorageBackend } from '../seam/backend.js';
import { AgentMError } from '../seam/errors.js';
import { listRepos, registerRepo, unregisterRepo } from './repo-registry.js';

/** A broken rule of the routing contract, named (the routing twin of the backends' ConformanceFailure). */
export class RoutingConformanceFailure extends AgentMError {
  readonly check: string;
  constructor(check: string, message: string) {
    super(`routing conformance check '${check}' failed: ${message}`, { code: 'ECONFORMANCE' });
    this.check = check;
  }
}

const SLUG = 'conformance-test-repo';
const ROOT = '/tmp/conformance-test';

/**
 * agentm's `routing_repo_registry` check, on a fresh backend: register a repo, see it in the returned
 * registry and in `listRepos`, unregister it (true), and see it gone. Returns the names of the checks run.
 */
export async function runRoutingConformance(
  makeBackend: () => StorageBackend | Promise<StorageBackend>,
): Promise<{ routing: string[] }> {
  const name = 'routing_repo_registry';
  const fail = (message: string): never => {
    throw new RoutingConformanceFailure(name, message);
  };
  const backend = await makeBackend();
  const registry = await registerRepo(backend, SLUG, ROOT);
  if (!registry.repos.some((r) => r.slug === SLUG && r.root_path === ROOT))
    fail('registerRepo did not return a registry containing the repo');
  if (!(await listRepos(backend)).some((r) => r.slug === SLUG)) fail('listRepos does not contain the registered repo');
  if ((await unregisterRepo(backend, SLUG)) !== true) fail('unregisterRepo of a registered repo did not return true');
  if ((await listRepos(backend)).some((r) => r.slug === SLUG))
    fail('listRepos still contains the repo after unregisterRepo');
  return { routing: [name] };
}
