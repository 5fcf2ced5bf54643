import { homedir } from 'node:os';
import { join, relative, isAbsolute } from 'node:path';
import { contentHash } from '../../write-protocol/content-hash.js';
import { realpathLoose } from '../../write-protocol/vault-lock.js';
import { IndexLocationError, MemoryArgumentError } from '../errors.js';

/** `$XDG_CACHE_HOME/agentm/index` when XDG_CACHE_HOME is non-empty, else `~/.cache/agentm/index`. */
export function defaultIndexRoot(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.cache'), 'agentm', 'index');
}

/**
 * The index directory of a memory root: `<index root>/<sha256 of realpath(memory root)>`, so symlink
 * aliases of one vault share one index and two vaults never share one (a store named by a URL: the
 * sha256 of the URL). `indexRoot` lets a host pass
 * its own storage (VS Code's `globalStorageUri`). Refuses a directory inside the memory root, where
 * sync would replicate a device-local cache (DESIGN §1, principle 4).
 */
export function indexDirFor(memoryRoot: string, indexRoot: string = defaultIndexRoot()): string {
  if (isStoreUrl(memoryRoot)) return join(indexRoot, contentHash(memoryRoot));
  const dir = join(indexRoot, contentHash(realpathLoose(memoryRoot)));
  assertOutside(dir, memoryRoot);
  return dir;
}

/**
 * Whether a store is named by a URL (a database's store id, e.g. `postgres://…`) rather than a directory:
 * its index is keyed by that name, and no directory of it can hold the index.
 */
export function isStoreUrl(root: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(root);
}

/** Throws `IndexLocationError` when `dir` is the memory root or inside it. */
export function assertOutside(dir: string, memoryRoot: string): void {
  if (isStoreUrl(memoryRoot)) return;
  const rel = relative(realpathLoose(memoryRoot), realpathLoose(dir));
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) throw new IndexLocationError(dir, memoryRoot);
}

/**
 * Where the index of `options` lives: the memory root it indexes and its directory (outside that root).
 * Throws `MemoryArgumentError` when the backend names no root.
 */
export function indexPlace(options: {
  readonly memoryRoot?: string | undefined;
  readonly backend: { readonly localRoot?: string | undefined; readonly storeId?: string | undefined };
  readonly indexDir?: string | undefined;
  readonly indexRoot?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
}): { root: string; dir: string } {
  const root = options.memoryRoot ?? options.backend.localRoot ?? options.backend.storeId;
  if (typeof root !== 'string' || root === '') {
    throw new MemoryArgumentError(
      'the memory index needs the memory root path (options.memoryRoot): this backend has no local root or store id',
    );
  }
  const dir = options.indexDir ?? indexDirFor(root, options.indexRoot ?? defaultIndexRoot(options.env));
  assertOutside(dir, root);
  return { root, dir };
}
