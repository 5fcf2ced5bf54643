import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { StorageBackend, type WriteOptions } from '../seam/backend.js';
import { NotFoundError } from '../seam/errors.js';
import type { Info } from '../seam/info.js';
import type { Locator } from '../seam/locator.js';
import { isTempName } from '../protocol/atomic-write.js';
import { PathEscapeError } from './errors.js';

const ABSENT_CODES = new Set(['ENOENT', 'ENOTDIR']);

function isAbsent(error: unknown): boolean {
  return ABSENT_CODES.has((error as NodeJS.ErrnoException).code ?? '');
}

/**
 * The verbs shared by every backend stored in a local directory. Subclasses decide how a write is
 * protected (`writeFile`); everything else is plain, exact filesystem I/O.
 */
export abstract class FsBackend extends StorageBackend {
  /** The absolute store root. Only backends and display edges ever see it. */
  readonly root: string;
  /** The root with symlinks resolved, for the escape check. */
  readonly #realRoot: string;

  protected constructor(root: string) {
    super();
    this.root = resolve(root);
    try {
      mkdirSync(this.root, { recursive: true });
    } catch (error) {
      // Two processes creating the root at once: fine if it now exists.
      if (!statSync(this.root, { throwIfNoEntry: false })?.isDirectory()) throw error;
    }
    this.#realRoot = realpathSync.native(this.root);
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
    if (typeof content !== 'string') throw new TypeError(`write(${JSON.stringify(locator.key)}) takes text; got ${typeof content}`);
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
      return Object.freeze({ locator, isDir: st.isDirectory(), size: st.isDirectory() ? 0 : st.size, mtimeMs: st.mtimeMs });
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

  /** Refuses a path whose real location (symlinks resolved) is outside the real store root. */
  protected async assertInsideRoot(locator: Locator, path: string): Promise<void> {
    const realRoot = this.#realRoot;
    const real = realpathOfNearest(path);
    if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
      throw new PathEscapeError(locator.key, real, realRoot);
    }
  }
}

/**
 * The real path of `path`, or of its nearest existing ancestor joined with the rest. Synchronous: one
 * libc realpath, cheaper than a thread-pool round trip on every write.
 */
function realpathOfNearest(path: string): string {
  try {
    return realpathSync.native(path);
  } catch (error) {
    if (!isAbsent(error)) throw error;
    const parent = dirname(path);
    return parent === path ? path : join(realpathOfNearest(parent), basename(path));
  }
}
