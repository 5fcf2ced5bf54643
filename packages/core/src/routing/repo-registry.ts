import type { StorageBackend } from '../seam/backend.js';
import { withBackendLock } from '../seam/backend-lock.js';
import { NotFoundError } from '../seam/errors.js';
import type { Locator } from '../seam/locator.js';
import { contentHash } from '../write-protocol/content-hash.js';
import { ConcurrentModificationError } from '../write-protocol/errors.js';
import { pythonJson } from '../config/python-json.js';
import { RegistryArgumentError, RegistryFormatError } from './errors.js';
import { isSafeSegment } from './slug.js';

/** How many times a registry read-modify-write is retried after losing its compare-and-swap. */
export const REGISTRY_CAS_ATTEMPTS = 5;

export interface RepoEntry {
  readonly slug: string;
  readonly root_path: string;
  readonly wiki_path?: string;
  readonly [key: string]: unknown;
}

export interface RepoRegistry {
  readonly version: number;
  readonly repos: RepoEntry[];
  readonly [key: string]: unknown;
}

/** `_meta/repos.json` of a backend. */
export function registryLocator(backend: StorageBackend): Locator {
  return backend.resolve('_meta', 'repos.json');
}

/**
 * A path in agentm's normalized POSIX form: `\` → `/`, duplicate separators collapsed, `.` segments
 * and the trailing slash removed (`..` is kept: no filesystem is consulted).
 */
export function normalizeRepoPath(path: string): string {
  const forward = path.replace(/\\/g, '/');
  const lead = forward.startsWith('//') && !forward.startsWith('///') ? '//' : forward.startsWith('/') ? '/' : '';
  const body = forward
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
  return lead + body || '.';
}

/** The registry bytes: 2-space JSON, non-ASCII as `\uXXXX`, trailing newline (agentm's format). */
export function serializeRegistry(registry: RepoRegistry): string {
  return pythonJson({ ...registry, version: registry.version ?? 1, repos: registry.repos ?? [] });
}

function parseRegistry(locator: Locator, text: string): RepoRegistry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RegistryFormatError(locator.key, `is not valid JSON (${(error as Error).message})`, error);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new RegistryFormatError(locator.key, 'is not a JSON object');
  const data = parsed as Record<string, unknown>;
  const repos = data['repos'] ?? [];
  if (
    !Array.isArray(repos) ||
    !repos.every((r) => typeof r === 'object' && r !== null && typeof (r as RepoEntry).slug === 'string')
  ) {
    throw new RegistryFormatError(locator.key, 'has a "repos" value that is not a list of {"slug": …} objects');
  }
  return { ...data, version: typeof data['version'] === 'number' ? data['version'] : 1, repos: repos as RepoEntry[] };
}

/** The registry and the hash of the bytes it was read from (`null` when the file is absent). */
export async function readRegistryWithHash(
  backend: StorageBackend,
): Promise<{ registry: RepoRegistry; hash: string | null }> {
  const locator = registryLocator(backend);
  let text: string;
  try {
    text = await backend.read(locator);
  } catch (error) {
    if (error instanceof NotFoundError) return { registry: { version: 1, repos: [] }, hash: null };
    throw error;
  }
  return { registry: parseRegistry(locator, text), hash: contentHash(text) };
}

/** The registry (absent → empty, and nothing is created). Malformed → `RegistryFormatError`. */
export async function readRegistry(backend: StorageBackend): Promise<RepoRegistry> {
  return (await readRegistryWithHash(backend)).registry;
}

/** Writes the registry, only if the file still hashes to `expectHash` (`null`: still absent). */
export async function writeRegistry(
  backend: StorageBackend,
  registry: RepoRegistry,
  expectHash?: string | null,
): Promise<Locator> {
  return backend.write(
    registryLocator(backend),
    serializeRegistry(registry),
    expectHash === undefined ? {} : { expectHash },
  );
}

/**
 * Read-modify-write with a compare-and-swap, retried up to 5 times from a fresh read; then
 * `ConcurrentModificationError`. Each attempt holds the backend's lock when it has one (the vault),
 * so writers that take the lock never starve each other; the CAS still catches writers outside it.
 * `mutate` returns the new registry, or undefined for "no change" (nothing is written, so the file's
 * mtime is not churned).
 */
export async function mutateRegistry(
  backend: StorageBackend,
  mutate: (registry: RepoRegistry) => RepoRegistry | undefined,
): Promise<RepoRegistry> {
  let last: ConcurrentModificationError | undefined;
  for (let attempt = 0; attempt < REGISTRY_CAS_ATTEMPTS; attempt++) {
    const outcome = await withBackendLock(
      backend,
      async (): Promise<{ done: RepoRegistry } | { lost: ConcurrentModificationError }> => {
        const { registry, hash } = await readRegistryWithHash(backend);
        const next = mutate(registry);
        if (next === undefined) return { done: registry };
        try {
          await writeRegistry(backend, next, hash);
          return { done: next };
        } catch (error) {
          if (!(error instanceof ConcurrentModificationError)) throw error;
          return { lost: error };
        }
      },
    );
    if ('done' in outcome) return outcome.done;
    last = outcome.lost;
  }
  const locator = registryLocator(backend).key;
  throw new ConcurrentModificationError(
    locator,
    last?.expectedHash ?? null,
    last?.actualHash ?? null,
    `registry CAS lost ${REGISTRY_CAS_ATTEMPTS} consecutive times; other writers keep changing it — retry the command`,
  );
}

/**
 * Registers (upserts) a repo. A known slug keeps its position and every field not given (an earlier
 * `wiki_path` survives a re-register without one); a new slug is appended. Paths are normalized.
 */
export async function registerRepo(
  backend: StorageBackend,
  slug: string,
  rootPath: string,
  wikiPath?: string,
): Promise<RepoRegistry> {
  if (typeof slug !== 'string' || slug.trim() === '')
    throw new RegistryArgumentError('registerRepo: slug must be non-empty');
  // A slug names the project's folder (desk/projects/<slug>): agentm accepts any string; we refuse what
  // is not one folder name, so no registration can point a project outside its space.
  if (!isSafeSegment(slug) || slug.trim() !== slug)
    throw new RegistryArgumentError(
      `registerRepo: slug ${JSON.stringify(slug)} must be one safe path segment (not '.' or '..', no '/', '\\' or NUL, ` +
        'no surrounding spaces), e.g. my-repo',
    );
  if (typeof rootPath !== 'string' || rootPath.trim() === '')
    throw new RegistryArgumentError('registerRepo: root_path must be non-empty');
  const update: Record<string, string> = { root_path: normalizeRepoPath(rootPath) };
  if (wikiPath !== undefined && wikiPath !== '') update['wiki_path'] = normalizeRepoPath(wikiPath);
  return mutateRegistry(backend, (registry) => {
    const index = registry.repos.findIndex((r) => r.slug === slug);
    const repos = [...registry.repos];
    if (index < 0) repos.push({ slug, ...update } as RepoEntry);
    else {
      const merged = { ...repos[index]!, ...update } as RepoEntry;
      if (JSON.stringify(merged) === JSON.stringify(repos[index])) return undefined;
      repos[index] = merged;
    }
    return { ...registry, repos };
  });
}

/** Unregisters a repo; true if it was there. An absent slug writes nothing. */
export async function unregisterRepo(backend: StorageBackend, slug: string): Promise<boolean> {
  if (typeof slug !== 'string' || slug.trim() === '')
    throw new RegistryArgumentError('unregisterRepo: slug must be non-empty');
  let removed = false;
  await mutateRegistry(backend, (registry) => {
    const repos = registry.repos.filter((r) => r.slug !== slug);
    removed = repos.length !== registry.repos.length;
    return removed ? { ...registry, repos } : undefined;
  });
  return removed;
}

/** The registered repos, in registration order (a copy). */
export async function listRepos(backend: StorageBackend): Promise<RepoEntry[]> {
  return (await readRegistry(backend)).repos.map((r) => ({ ...r }));
}
