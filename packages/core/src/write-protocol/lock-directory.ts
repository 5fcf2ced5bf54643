import { mkdirSync, rmdirSync, statSync, utimesSync, type BigIntStats } from 'node:fs';
import { dirname } from 'node:path';
import { onExit } from 'signal-exit';
import { sleep } from './atomic-write.js';
import { LockCompromisedError, LockPermissionError, LockReleaseError, LockTimeout } from './errors.js';
import { chownFixFor } from './ownership-fix.js';

export const LOCK_BACKOFF_START_MS = 10;
export const LOCK_BACKOFF_MAX_MS = 200;
/** A heartbeat younger than staleMs / FRESH_FRACTION is fresh enough to rename under without a new stamp. */
const FRESH_FRACTION = 10;

/**
 * agentm's lock (reference §2.12) on one directory, written out rather than delegated: its rules are
 * the contract with Python agentm (mkdir to take, mtime age to judge, rmdir to take over), and the
 * library we used before (proper-lockfile) stamped heartbeats up to 1 s in the future (its
 * mtime-precision probe), which made Python waiters time out instead of taking over a dead holder.
 *
 * What we add, all invisible to agentm:
 * - the heartbeat is the real time (`utimes(now)`), never ahead of the clock;
 * - ownership is checkable: we record the directory's identity (device, inode, birth time) and the
 *   mtime/ctime our own last stamp left, so a takeover (rmdir + mkdir by a waiter) is recognized even
 *   though agentm's lock stores no owner data;
 * - a lock whose mtime is in the future ages from when we first saw that exact mtime, so a clock step
 *   or a future stamp cannot block every writer for hours;
 * - permission errors are never contention (except Windows' mkdir, which reports a racing rmdir as one).
 */

export interface AcquireOptions {
  readonly deadline: number;
  readonly timeoutMs: number;
  readonly staleMs: number;
  /** Called once, the first time the directory is found held. */
  readonly onWait?: () => void;
}

/** Identity of one incarnation of the lock directory, plus the times our last stamp left on it. */
interface Mark {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly birthtimeNs: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

const markOf = (st: BigIntStats): Mark => ({
  dev: st.dev,
  ino: st.ino,
  birthtimeNs: st.birthtimeNs,
  mtimeNs: st.mtimeNs,
  ctimeNs: st.ctimeNs,
});

/** Same directory (not a new one made by a takeover), and untouched since our last stamp. */
const untouched = (st: BigIntStats, mark: Mark): boolean =>
  st.dev === mark.dev &&
  st.ino === mark.ino &&
  st.birthtimeNs === mark.birthtimeNs &&
  st.mtimeNs === mark.mtimeNs &&
  st.ctimeNs === mark.ctimeNs;

/**
 * Same inode on the same device. Birth time is left out on purpose: where the kernel has no statx,
 * libuv reports ctime as birth time, which our own stamp just changed.
 */
const sameInode = (st: BigIntStats, mark: Mark): boolean => st.dev === mark.dev && st.ino === mark.ino;

/** Stamps the lock's heartbeat with the real time and returns what the stamp left. */
function stamp(lockDir: string): BigIntStats {
  const now = Date.now() / 1000;
  utimesSync(lockDir, now, now);
  return statSync(lockDir, { bigint: true });
}

/**
 * How old (ms, by the real clock, as waiters judge it) the heartbeat our mark records is. A heartbeat
 * in the future (a clock step back) counts as infinitely old, so it is stamped again at once.
 */
const heartbeatAge = (mark: Mark): number => {
  const age = Date.now() - Number(mark.mtimeNs / 1_000_000n);
  return age < 0 ? Number.POSITIVE_INFINITY : age;
};

const held = new Set<HeldLockDirectory>();

// On exit, SIGINT, SIGTERM and SIGHUP (as agentm does), remove the locks still held: a lock left by a
// process that is gone blocks every writer for the stale window. Installed when this module loads, not
// at the first lock: signal-exit re-raises a signal only when it is the last listener left, and a
// command's own `process.once('SIGINT')` listener registered before it would remove itself first and
// leave signal-exit looking alone (`agentm run` died on SIGINT instead of stopping its steps).
onExit(() => {
  for (const lock of held) lock.releaseQuietly();
});

/** A lock directory this process created and keeps fresh. */
export class HeldLockDirectory {
  #mark: Mark;
  #lost: LockCompromisedError | undefined;
  #released = false;
  readonly #timer: ReturnType<typeof setInterval>;

  private constructor(
    readonly lockDir: string,
    readonly staleMs: number,
    mark: Mark,
  ) {
    this.#mark = mark;
    // Every stale/2, as agentm: a live holder is never older than half the window. Unref'd so that a
    // held lock never keeps a finished process alive (exit removes it).
    this.#timer = setInterval(() => this.#beat(), Math.max(1, staleMs / 2));
    // In an Electron renderer (Obsidian) timers are the DOM's: plain numbers, no unref.
    (this.#timer as { unref?: () => void }).unref?.();
    held.add(this);
  }

  /**
   * Takes the lock directory: mkdir; if it exists, wait (backoff 10 ms doubling to 200 ms) until it is
   * released or its heartbeat is older than `staleMs` (then remove it and retry — a takeover happens
   * even past the deadline, as in agentm); after the deadline, `LockTimeout`. A directory on the path
   * we may not write is a `LockPermissionError` at once.
   */
  static async acquire(lockDir: string, options: AcquireOptions): Promise<HeldLockDirectory> {
    const firstSeen = new Map<string, number>();
    let backoff = LOCK_BACKOFF_START_MS;
    let told = false;
    for (;;) {
      const err = tryMkdir(lockDir);
      if (err === undefined) return HeldLockDirectory.#taken(lockDir, options.staleMs);
      if (err.code === 'ENOENT') {
        ensureParent(lockDir); // first use, or the cache directory was cleaned since: make the parent
        continue;
      }
      if (err.code !== 'EEXIST' && !(process.platform === 'win32' && isPermission(err))) {
        throw permissionOr(lockDir, dirname(lockDir), err);
      }
      if (err.code === 'EEXIST') {
        const age = lockAge(lockDir, firstSeen);
        if (age === undefined) continue; // released between our mkdir and our stat
        if (age > options.staleMs) {
          takeOver(lockDir);
          continue;
        }
      }
      const remaining = options.deadline - Date.now();
      if (remaining <= 0) {
        if (err.code !== 'EEXIST') throw err; // Windows: past the deadline, the real error (as agentm)
        throw new LockTimeout(lockDir, options.timeoutMs, heartbeatAgeMs(lockDir), options.staleMs);
      }
      if (!told) {
        told = true;
        options.onWait?.();
      }
      await sleep(Math.min(backoff, remaining));
      backoff = Math.min(backoff * 2, LOCK_BACKOFF_MAX_MS);
    }
  }

  static #taken(lockDir: string, staleMs: number): HeldLockDirectory {
    try {
      // The mkdir itself is the first heartbeat: a new directory's mtime is the kernel's current time,
      // so only its identity is read here (a utimes as well cost a metadata write on every write).
      return new HeldLockDirectory(lockDir, staleMs, markOf(statSync(lockDir, { bigint: true })));
    } catch (error) {
      try {
        rmdirSync(lockDir);
      } catch {
        // It goes stale and is taken over; the stamp's error is the one to report.
      }
      throw permissionOr(lockDir, lockDir, error as NodeJS.ErrnoException);
    }
  }

  /**
   * Synchronously proves the lock is still ours and keeps its heartbeat fresh: the directory must be
   * the one we made, untouched since our last stamp (one `stat`). When that stamp is older than a tenth
   * of the stale window (or `force`, the heartbeat timer), we stamp it again and check that the stamp
   * landed on that same directory. Afterwards the heartbeat is at most a tenth of the window old, so a
   * waiter cannot take the lock over unless this process stops for nine tenths of a stale window
   * (9 s) before its next step. Throws `LockCompromisedError` otherwise.
   */
  assertOwned(force = false): void {
    if (this.#lost) throw this.#lost;
    if (this.#released) throw new LockCompromisedError(this.lockDir, 'it was already released');
    const before = statSync(this.lockDir, { bigint: true, throwIfNoEntry: false });
    if (before === undefined) throw this.#lose('another writer took it over and released it');
    if (!untouched(before, this.#mark)) throw this.#lose('another writer took it over');
    // A write commits within milliseconds of taking the lock, whose mkdir was a heartbeat: stamping
    // again then bought nothing and cost a metadata write (issue 20: locked ÷ bare rose to 1.6).
    if (!force && heartbeatAge(this.#mark) <= this.staleMs / FRESH_FRACTION) return;
    let after: BigIntStats;
    try {
      after = stamp(this.lockDir);
    } catch (error) {
      throw this.#lose('its heartbeat could not be stamped', error);
    }
    if (!sameInode(after, this.#mark)) throw this.#lose('another writer took it over');
    this.#mark = markOf(after);
  }

  /** The heartbeat: `assertOwned` on a timer; a lost lock stops beating and is never removed by us. */
  #beat(): void {
    if (this.#lost || this.#released) return;
    try {
      this.assertOwned(true);
    } catch {
      // Recorded in #lost; the holder learns it at its next assertOwned, before any rename.
    }
  }

  #lose(detail: string, cause?: unknown): LockCompromisedError {
    this.#lost ??= new LockCompromisedError(this.lockDir, detail, cause);
    clearInterval(this.#timer);
    return this.#lost;
  }

  /**
   * Stops the heartbeat and removes the directory if it is still ours (never a lock another writer
   * took over). A failed removal — other than its absence — is retried (an I/O error can be
   * transient); if it keeps failing, the lock is marked stale (its mtime set to the epoch, which
   * agentm's waiters and ours both read as a dead holder) so the next writer takes it over at once
   * instead of waiting out the stale window, and a `LockReleaseError` says so: a lock left behind
   * silently would stall every writer, and the error may be the disk's.
   */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    clearInterval(this.#timer);
    held.delete(this);
    if (this.#lost) return;
    const st = statSync(this.lockDir, { bigint: true, throwIfNoEntry: false });
    if (st === undefined || !untouched(st, this.#mark)) return;
    let failure: NodeJS.ErrnoException | undefined;
    for (let attempt = 0; attempt < RELEASE_ATTEMPTS; attempt++) {
      if (attempt > 0) pauseSync(RELEASE_RETRY_MS * attempt);
      try {
        rmdirSync(this.lockDir);
        return;
      } catch (error) {
        failure = error as NodeJS.ErrnoException;
        if (failure.code === 'ENOENT') return;
      }
    }
    throw new LockReleaseError(this.lockDir, failure!, markStale(this.lockDir), RELEASE_ATTEMPTS);
  }

  /** `release` for exit and signal handlers: nothing may throw there. */
  releaseQuietly(): void {
    try {
      this.release();
    } catch {
      // The process is ending; the lock goes stale and is taken over.
    }
  }
}

/** How often a lock whose removal fails is tried again, and the pause before each retry (× the attempt). */
const RELEASE_ATTEMPTS = 3;
const RELEASE_RETRY_MS = 20;

/** Blocks this thread for `ms` (only on the failure path of a release, which is synchronous). */
function pauseSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Sets a lock we could not remove to look long dead; whether that worked. */
function markStale(lockDir: string): 'marked-stale' | 'left' {
  try {
    utimesSync(lockDir, 0, 0);
    return 'marked-stale';
  } catch {
    return 'left';
  }
}

/** mkdir, the atomic step that takes the lock: undefined on success, else the error. */
function tryMkdir(lockDir: string): NodeJS.ErrnoException | undefined {
  try {
    mkdirSync(lockDir);
    return undefined;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

function ensureParent(lockDir: string): void {
  try {
    mkdirSync(dirname(lockDir), { recursive: true });
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    throw permissionOr(lockDir, typeof err.path === 'string' ? dirname(err.path) : dirname(lockDir), err);
  }
}

const isPermission = (err: NodeJS.ErrnoException): boolean =>
  err.code === 'EACCES' || err.code === 'EPERM' || err.code === 'EROFS';

/** A permission error on the lock's path becomes a `LockPermissionError` naming the fix; others pass through. */
function permissionOr(lockDir: string, directory: string, err: NodeJS.ErrnoException): Error {
  if (!isPermission(err)) return err;
  const fix =
    err.code === 'EROFS'
      ? 'Point XDG_CACHE_HOME at a writable directory.'
      : `It belongs to another user (probably made by running agentm with sudo); take it back with: ${chownFixFor(directory)}`;
  return new LockPermissionError(lockDir, directory, fix, err);
}

/**
 * How long the lock's heartbeat has stood, or undefined when the lock is gone. A heartbeat in the
 * future ages from when this waiter first saw it (same directory, same mtime): a live holder stamps a
 * new mtime every stale/2 and is never judged stale, a dead one is after the stale window.
 */
function lockAge(lockDir: string, firstSeen: Map<string, number>): number | undefined {
  let st: BigIntStats | undefined;
  try {
    st = statSync(lockDir, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    throw permissionOr(lockDir, dirname(lockDir), error as NodeJS.ErrnoException);
  }
  if (st === undefined) return undefined;
  const now = Date.now();
  const key = `${st.dev}:${st.ino}:${st.birthtimeNs}:${st.mtimeNs}`;
  let seen = firstSeen.get(key);
  if (seen === undefined) firstSeen.set(key, (seen = now));
  return Math.max(now - Number(st.mtimeNs / 1_000_000n), now - seen);
}

/** Removes a stale lock (agentm: rmdir, errors ignored, then retry the mkdir) — unless we may not. */
function takeOver(lockDir: string): void {
  try {
    rmdirSync(lockDir);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (isPermission(err)) throw permissionOr(lockDir, dirname(lockDir), err);
    // ENOENT: another waiter took it over first; anything else: the next mkdir tells.
  }
}

/** The heartbeat's age in ms (negative when it is in the future), or undefined when there is no lock. */
export function heartbeatAgeMs(lockDir: string): number | undefined {
  try {
    return Date.now() - statSync(lockDir).mtimeMs;
  } catch {
    return undefined;
  }
}
