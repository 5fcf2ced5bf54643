import { mkdirSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { StorageBackend, type WriteOptions } from '../seam/backend.js';
import { NotFoundError } from '../seam/errors.js';
import type { Info } from '../seam/info.js';
import type { Locator } from '../seam/locator.js';
import { isTempName } from '../protocol/atomic-write.js';
import { checkExpectation, currentHashSync } from '../protocol/cas-write.js';
import { PathEscapeError } from './errors.js';

const ABSENT_CODES = new Set(['ENOENT', 'ENOTDIR']);

function isAbsent(error: unknown): boolean {
  return ABSENT_CODES.has((error as NodeJS.ErrnoException).code ?? '');
}

/** Options of the `remove` verb (an extra verb of the filesystem backends, not of the seam contract). */
export interface RemoveOptions {
  /** The hash the caller read: the file is removed only if it still hashes to it. Omitted: no expectation. */
  readonly expectHash?: string;
}

/** Construction options shared by the filesystem backends. */
export interface FsBackendInit {
  /**
   * Create the root at construction (default true). Read-only callers (the process seam, the doctor
   * preview) pass false so that resolving a backend never creates a directory; a write creates it.
   */
  readonly createRoot?: boolean;
}

/**
 * The verbs shared by every backend stored in a local directory. Subclasses decide how a write is
 * protected (`writeFile`); everything else is plain, exact filesystem I/O.
 */
export abstract class FsBackend extends StorageBackend {
  /** The absolute store root. Only backends and display edges ever see it. */
  readonly root: string;
  /** The root with symlinks resolved, for the escape check (cached once the root exists). */
  #realRoot: string | undefined;

  protected constructor(root: string, init: FsBackendInit = {}) {
    super();
    this.root = resolve(root);
    if (init.createRoot === false) return;
    try {
      mkdirSync(this.root, { recursive: true });
    } catch (error) {
      // Two processes creating the root at once: fine if it now exists.
      if (!statSync(this.root, { throwIfNoEntry: false })?.isDirectory()) throw error;
    }
    this.#realRoot = realpathSync.native(this.root);
  }

  /** The real (symlink-resolved) root; before the root exists, the real path of its nearest ancestor joined with the rest. */
  protected get realRoot(): string {
    if (this.#realRoot !== undefined) return this.#realRoot;
    const real = realpathOfNearest(this.root);
    if (statSync(this.root, { throwIfNoEntry: false })?.isDirectory()) this.#realRoot = real;
    return real;
  }

  /** The absolute path of a locator. Internal to the backend: it never crosses the seam. */
  protected pathOf(locator: Locator): string {
    return locator.isRoot ? this.root : join(this.root, ...locator.parts);
  }

  /** How the subclass lands a write (lock, CAS, atomic rename). */
  protected abstract writeFile(path: string, content: string, locator: Locator, options: WriteOptions): Promise<void>;

  async read(locator: Locator): Promise<string> {
    try {
      return (await readFile(this.pathOf(locator))).toString('utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (isAbsent(error)) throw new NotFoundError(locator.key);
      if (code === 'EISDIR') throw new NotFoundError(locator.key, 'it is a directory, not a file');
      throw error;
    }
  }

  async write(locator: Locator, content: string, options: WriteOptions = {}): Promise<Locator> {
    if (typeof content !== 'string')
      throw new TypeError(`write(${JSON.stringify(locator.key)}) takes text; got ${typeof content}`);
    const path = this.pathOf(locator);
    await this.assertInsideRoot(locator, path);
    await this.writeFile(path, content, locator, options);
    return locator;
  }

  async list(locator: Locator): Promise<Locator[]> {
    let names: string[];
    try {
      names = await readdir(this.pathOf(locator));
    } catch (error) {
      if (isAbsent(error)) return [];
      throw error;
    }
    return names
      .filter((name) => !isTempName(name))
      .map((name) => locator.child(name))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async exists(locator: Locator): Promise<boolean> {
    try {
      await stat(this.pathOf(locator));
      return true;
    } catch (error) {
      if (isAbsent(error)) return false;
      throw error;
    }
  }

  async info(locator: Locator): Promise<Info> {
    try {
      const st = await stat(this.pathOf(locator));
      return Object.freeze({
        locator,
        isDir: st.isDirectory(),
        size: st.isDirectory() ? 0 : st.size,
        mtimeMs: st.mtimeMs,
      });
    } catch (error) {
      if (isAbsent(error)) throw new NotFoundError(locator.key);
      throw error;
    }
  }

  async mkdir(locator: Locator): Promise<Locator> {
    const path = this.pathOf(locator);
    await this.assertInsideRoot(locator, path);
    await mkdir(path, { recursive: true });
    return locator;
  }

  /**
   * Removes a file (an extra verb for evolve's rename; not part of the seam contract). With
   * `expectHash`, the file is removed only if it still hashes to it, else `ConcurrentModificationError`
   * and the file stays. An absent file is `NotFoundError`. Directories are never removed.
   */
  async remove(locator: Locator, options: RemoveOptions = {}): Promise<void> {
    const path = this.pathOf(locator);
    await this.assertInsideRoot(locator, path);
    await this.removeFile(path, locator, options);
  }

  /** How the subclass guards a removal (the vault takes its lock). */
  protected async removeFile(path: string, locator: Locator, options: RemoveOptions): Promise<void> {
    removeChecked(path, locator, options);
  }

  /** Refuses a path whose real location (symlinks resolved) is outside the real store root. */
  protected async assertInsideRoot(locator: Locator, path: string): Promise<void> {
    assertWithin(locator.key, realpathOfNearest(path), this.realRoot);
  }
}

/** Throws `PathEscapeError` unless `real` is `realRoot` or inside it. */
export function assertWithin(key: string, real: string, realRoot: string): void {
  if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
    throw new PathEscapeError(key, real, realRoot);
  }
}

/**
 * Checks the expectation and unlinks, synchronously back to back (nothing of this process can
 * interleave). Absent → `NotFoundError`; a directory → `NotFoundError` (never removed).
 */
export function removeChecked(
  path: string,
  locator: Locator,
  options: RemoveOptions,
  /** The lock's ownership check, run after the hash check, immediately before the unlink. */
  beforeUnlink?: () => void,
): void {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) throw new NotFoundError(locator.key);
  if (st.isDirectory()) throw new NotFoundError(locator.key, 'it is a directory; only files are removed');
  if (options.expectHash !== undefined) checkExpectation(locator.key, options.expectHash, currentHashSync(path));
  beforeUnlink?.();
  unlinkSync(path);
}

/**
 * The real path of `path`, or of its nearest existing ancestor joined with the rest. Synchronous: one
 * libc realpath, cheaper than a thread-pool round trip on every write.
 */
export function realpathOfNearest(path: string): string {
  try {
    return realpathSync.native(path);
  } catch (error) {
    if (!isAbsent(error)) throw error;
    const parent = dirname(path);
    return parent === path ? path : join(realpathOfNearest(parent), basename(path));
  }
}
