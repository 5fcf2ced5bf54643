import {
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  realpathSync,
  statSync,
  unlinkSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { lstat, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { StorageBackend, type RemoveOptions, type WriteOptions } from '../seam/backend.js';
import { InvalidLocatorError, NotFoundError, StoreGoneError } from '../seam/errors.js';
import type { Info } from '../seam/info.js';
import type { Locator } from '../seam/locator.js';
import { isTempName } from '../write-protocol/atomic-write.js';
import { checkExpectation, currentHashSync } from '../write-protocol/cas-write.js';
import { appendChanges } from '../write-protocol/change-log.js';
import { PathEscapeError } from './errors.js';
import { reportSkippedEntry } from './skipped-entries.js';

const ABSENT_CODES = new Set(['ENOENT', 'ENOTDIR']);

/**
 * Open flags of a read that refuses to follow a link in the last component (ELOOP): the common case
 * costs no extra system call, and only a link is resolved and checked. Windows has no O_NOFOLLOW; there
 * every read is resolved.
 */
const READ_NO_FOLLOW = constants.O_NOFOLLOW === undefined ? undefined : constants.O_RDONLY | constants.O_NOFOLLOW;

function isAbsent(error: unknown): boolean {
  return ABSENT_CODES.has((error as NodeJS.ErrnoException).code ?? '');
}

export type { RemoveOptions };

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
  /**
   * Directory keys known to lie inside the store: checked by real path, or listed as a real folder (not
   * a link) inside one. Reads and listings in them need no realpath; a link found where a folder was
   * forgets that folder and everything below it.
   */
  readonly #insideDirs = new Set<string>(['']);

  /** Whether the root existed at some point: from then on, its absence is `StoreGoneError`, never "empty". */
  #rootSeen = false;

  protected constructor(root: string, init: FsBackendInit = {}) {
    super();
    this.root = resolve(root);
    if (init.createRoot === false) {
      this.#rootSeen = statSync(this.root, { throwIfNoEntry: false })?.isDirectory() === true;
      return;
    }
    try {
      mkdirSync(this.root, { recursive: true });
    } catch (error) {
      // Two processes creating the root at once: fine if it now exists.
      if (!statSync(this.root, { throwIfNoEntry: false })?.isDirectory()) throw error;
    }
    this.#realRoot = realpathSync.native(this.root);
    this.#rootSeen = true;
  }

  /** Throws `StoreGoneError` when the root existed and is gone (checked where absence would mislead). */
  protected assertRootPresent(): void {
    if (this.#rootSeen && !existsSync(this.root)) throw new StoreGoneError(this.root);
  }

  /** The store root on this machine (see `StorageBackend.localRoot`). */
  override get localRoot(): string {
    return this.root;
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
    if (locator.isRoot) return this.root;
    // A key is normalized (no empty, `.` or `..` segment): on POSIX it joins the root as it is, without
    // the split and the normalizing join a walk of 100 000 notes paid per note.
    if (sep === '/') return this.root.endsWith('/') ? this.root + locator.key : `${this.root}/${locator.key}`;
    return join(this.root, ...locator.parts);
  }

  /** How the subclass lands a write (lock, CAS, atomic rename). */
  protected abstract writeFile(path: string, content: string, locator: Locator, options: WriteOptions): Promise<void>;

  /**
   * The text at `locator`. Never leaves the store: a link (in the file's name or a folder above it)
   * that resolves outside the root is a `PathEscapeError`; links that stay inside are followed.
   */
  async read(locator: Locator): Promise<string> {
    const path = this.pathOf(locator);
    try {
      if (!locator.isRoot) this.#assertDirInside(locator.parent, dirname(path), 'read');
      if (READ_NO_FOLLOW === undefined) this.#assertLinkInside(locator, path, 'read');
      try {
        return (await readFile(path, { flag: READ_NO_FOLLOW ?? 'r' })).toString('utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
        this.#assertLinkInside(locator, path, 'read'); // the name is a link: follow it only if it stays inside
        return (await readFile(path)).toString('utf8');
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (isAbsent(error)) {
        this.assertRootPresent();
        throw new NotFoundError(locator.key);
      }
      if (code === 'EISDIR') throw new NotFoundError(locator.key, 'it is a directory, not a file');
      throw error;
    }
  }

  /** Throws `PathEscapeError` when the directory `locator` (at `path`) resolves outside the store. */
  #assertDirInside(locator: Locator, path: string, operation: 'read' | 'write'): void {
    if (this.#insideDirs.has(locator.key)) return;
    const real = realpathSync.native(path); // ENOENT/ENOTDIR: absent, reported by the caller
    assertWithin(locator.key, real, this.realRoot, operation);
    this.#insideDirs.add(locator.key);
  }

  /** Throws `PathEscapeError` when `path` resolves outside the store. */
  #assertLinkInside(locator: Locator, path: string, operation: 'read' | 'write'): void {
    assertWithin(locator.key, realpathSync.native(path), this.realRoot, operation);
  }

  /** Forgets that `key` (and everything below) was a folder inside the store: it is a link now. */
  #forgetDir(key: string): void {
    if (!this.#insideDirs.delete(key)) return;
    const prefix = `${key}/`;
    for (const k of this.#insideDirs) if (k.startsWith(prefix)) this.#insideDirs.delete(k);
  }

  async write(locator: Locator, content: string, options: WriteOptions = {}): Promise<Locator> {
    if (typeof content !== 'string')
      throw new TypeError(`write(${JSON.stringify(locator.key)}) takes text; got ${typeof content}`);
    const path = this.pathOf(locator);
    this.assertRootPresent(); // a write must never re-create a vanished store (an unmounted drive's mount point)
    await this.assertInsideRoot(locator, path);
    await this.writeFile(path, content, locator, options);
    this.#recordChange(locator);
    return locator;
  }

  /** Records a key that changed in the store's change log (see `StorageBackend.changeLogPath`), when there is one. */
  #recordChange(locator: Locator): void {
    const log = this.changeLogPath;
    if (log !== undefined) appendChanges(log, [locator.key]);
  }

  /**
   * The children of a folder, never leaving the store: an entry the seam cannot name (a backslash in
   * its name) and a link that resolves outside the root are left out, each reported once
   * (`reportSkippedEntry`); a folder that is itself reached through a link out of the store lists as
   * empty. Temps are never listed.
   */
  async list(locator: Locator): Promise<Locator[]> {
    const path = this.pathOf(locator);
    let entries: Dirent[];
    try {
      entries = await readdir(path, { withFileTypes: true });
      this.#assertDirInside(locator, path, 'read');
    } catch (error) {
      if (isAbsent(error)) {
        this.assertRootPresent();
        return [];
      }
      if (error instanceof PathEscapeError) {
        reportSkippedEntry(
          path,
          `it leads out of the store (to ${error.realPath}) through a symbolic link; it is not read`,
        );
        return [];
      }
      throw error;
    }
    const children: Locator[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (isTempName(name)) continue;
      let child: Locator;
      try {
        child = locator.child(name);
      } catch (error) {
        if (!(error instanceof InvalidLocatorError)) throw error;
        reportSkippedEntry(
          join(path, name),
          'its name cannot be a storage key (a backslash or NUL); it is not read. Rename it to use it.',
        );
        continue;
      }
      if (entry.isSymbolicLink()) {
        this.#forgetDir(child.key);
        const outside = this.#linkTargetOutside(join(path, name));
        if (outside !== undefined) {
          reportSkippedEntry(
            join(path, name),
            `a symbolic link to ${outside}, outside the store; it is not read (doctor lists such links)`,
          );
          continue;
        }
      } else if (entry.isDirectory()) {
        this.#insideDirs.add(child.key);
      }
      children.push(child);
    }
    return children.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Where a link leads when that is outside the store; undefined when inside, dangling or looping. */
  #linkTargetOutside(path: string): string | undefined {
    let real: string;
    try {
      real = realpathSync.native(path);
    } catch {
      return undefined; // dangling (reads say absent) or a loop of links (reads fail): nothing outside is reached
    }
    const root = this.realRoot;
    return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep) ? undefined : real;
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
    const path = this.pathOf(locator);
    try {
      // lstat first (one call, as stat was): only a link costs a second call, and its target is checked.
      let st = await lstat(path);
      const isLink = st.isSymbolicLink();
      if (isLink) {
        this.#assertLinkInside(locator, path, 'read');
        st = await stat(path);
      }
      return infoOf(locator, st, isLink);
    } catch (error) {
      if (isAbsent(error)) throw new NotFoundError(locator.key);
      throw error;
    }
  }

  /**
   * The seam's optional `infoMany`: what `info` says of each (undefined when absent), stat-ed
   * synchronously a batch at a time. A walk of 100 000 notes through `info` made a promise, a thread-pool
   * round trip and a Stats object per note — most of a refresh's garbage, and so of a session's peak
   * memory; a batch blocks the event loop for a few hundred stats at most.
   */
  override async infoMany(locators: readonly Locator[]): Promise<Array<Info | undefined>> {
    const out: Array<Info | undefined> = [];
    for (let i = 0; i < locators.length; i++) {
      if (i > 0 && i % INFO_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      out.push(this.#infoNow(locators[i]!));
    }
    return out;
  }

  #infoNow(locator: Locator): Info | undefined {
    const path = this.pathOf(locator);
    let st: Stats | undefined;
    try {
      st = lstatSync(path, { throwIfNoEntry: false });
      if (st === undefined) return undefined;
      const isLink = st.isSymbolicLink();
      if (isLink) {
        this.#assertLinkInside(locator, path, 'read');
        st = statSync(path, { throwIfNoEntry: false });
        if (st === undefined) return undefined;
      }
      return infoOf(locator, st, isLink);
    } catch (error) {
      if (isAbsent(error)) return undefined;
      throw error;
    }
  }

  async mkdir(locator: Locator): Promise<Locator> {
    const path = this.pathOf(locator);
    this.assertRootPresent();
    await this.assertInsideRoot(locator, path);
    await mkdir(path, { recursive: true });
    return locator;
  }

  /** The seam's optional `remove` (see `StorageBackend.remove`), inside the store root only. */
  override async remove(locator: Locator, options: RemoveOptions = {}): Promise<void> {
    const path = this.pathOf(locator);
    await this.assertInsideRoot(locator, path);
    await this.removeFile(path, locator, options);
    this.#recordChange(locator);
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

/** Stats made per `infoMany` batch before the event loop gets a turn. */
const INFO_BATCH = 256;

/** The seam's `Info` of a stat (`isLink`: the locator is a link, `st` its target's). */
function infoOf(locator: Locator, st: Stats, isLink: boolean): Info {
  const isDir = st.isDirectory();
  return Object.freeze({
    locator,
    isDir,
    size: isDir ? 0 : st.size,
    mtimeMs: st.mtimeMs,
    identity: `${st.dev}:${st.ino}`,
    isLink,
  });
}

/** Throws `PathEscapeError` unless `real` is `realRoot` or inside it. */
export function assertWithin(key: string, real: string, realRoot: string, operation: 'read' | 'write' = 'write'): void {
  if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
    throw new PathEscapeError(key, real, realRoot, operation);
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
