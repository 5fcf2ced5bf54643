import { AsyncLocalStorage } from 'node:async_hooks';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { contentHash } from './content-hash.js';
import { LockTimeout } from './errors.js';
import { heartbeatAgeMs, HeldLockDirectory } from './lock-directory.js';

export { LOCK_BACKOFF_MAX_MS, LOCK_BACKOFF_START_MS } from './lock-directory.js';

/** agentm's stale window: one lock per vault per machine, so Python and TypeScript writers exclude each other. */
export const LOCK_STALE_MS = 10_000;
/**
 * How long we wait by default: the stale window plus half of it. agentm waits exactly the stale window
 * (10 s), so a waiter arriving just after a crash, whose holder stamped its last heartbeat a little
 * late or ahead, timed out instead of taking over; waiting longer is invisible to agentm.
 */
export const LOCK_TIMEOUT_MS = LOCK_STALE_MS + LOCK_STALE_MS / 2;
/** Floor of the stale window; shorter windows are raised to it (heartbeats every stale/2). */
export const LOCK_STALE_MIN_MS = 2_000;

export interface VaultLockOptions {
  /** Directory holding every vault's lock (default: `defaultLockRoot()`). */
  readonly lockRoot?: string;
  /** Bounded wait before `LockTimeout` (default 1.5 × the stale window: 15 s). */
  readonly timeoutMs?: number;
  /** Heartbeat age after which a holder is presumed dead and its lock taken over (default 10 s). */
  readonly staleMs?: number;
  /** Called once, the first time an acquisition finds the lock held by someone else. */
  readonly onWait?: (status: LockStatus) => void;
}

/** What a lock holder can ask while it holds the lock. */
export interface LockHold {
  readonly lockDir: string;
  /**
   * Synchronously proves the lock is still this holder's (the directory it made, untouched by anyone
   * else) and refreshes the heartbeat; throws `LockCompromisedError` if it was taken over. Call it
   * immediately before the step that must not happen without the lock (a rename).
   */
  assertHeld(): void;
}

export interface LockStatus {
  readonly lockDir: string;
  /** Whether the lock directory exists (held, or left by a crashed holder). */
  readonly present: boolean;
  /** Age of the last heartbeat, when present (negative when the heartbeat is in the future). */
  readonly heartbeatAgeMs: number | undefined;
  /** Whether a present lock is older than the stale window (its holder is presumed dead). */
  readonly stale: boolean;
  /** Whether this process holds it. */
  readonly heldByThisProcess: boolean;
}

/** `$XDG_CACHE_HOME/agentm/locks` when XDG_CACHE_HOME is non-empty, else `~/.cache/agentm/locks`. Never in the vault. */
export function defaultLockRoot(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.cache'), 'agentm', 'locks');
}

/**
 * `realpath` that, like Python's `os.path.realpath`, resolves the existing prefix and keeps the rest,
 * so symlink aliases of one vault share one lock even before the vault exists.
 */
export function realpathLoose(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realpathLoose(parent), basename(absolute));
  }
}

/** `<lockRoot>/<sha256 hex of realpath(storeRoot)>/lock`: exactly the agentm lock directory. */
export function lockDirFor(storeRoot: string, lockRoot: string = defaultLockRoot()): string {
  return join(lockRoot, contentHash(realpathLoose(storeRoot)), 'lock');
}

class Hold implements LockHold {
  constructor(readonly lock: HeldLockDirectory) {}
  get lockDir(): string {
    return this.lock.lockDir;
  }
  assertHeld(): void {
    this.lock.assertOwned();
  }
}

/** In-process queue per lock dir: async callers in one process wait their turn instead of spinning on mkdir. */
class TimedMutex {
  #locked = false;
  readonly #waiters: Array<() => void> = [];

  acquire(deadline: number): Promise<boolean> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve(true);
    }
    return new Promise((resolveWait) => {
      const waiter = () => {
        clearTimeout(timer);
        resolveWait(true);
      };
      const timer = setTimeout(
        () => {
          const i = this.#waiters.indexOf(waiter);
          if (i >= 0) this.#waiters.splice(i, 1);
          resolveWait(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}

const mutexes = new Map<string, TimedMutex>();
const heldHere = new Set<string>();
const holdsInContext = new AsyncLocalStorage<ReadonlyMap<string, Hold>>();

/**
 * Runs `fn` while holding the vault lock of `storeRoot` (the vault backend's root, the memory root).
 *
 * Re-entrant within one async call chain: a nested call on the same vault runs at once (agentm's lock
 * is not, and a nested acquisition there deadlocks until LockTimeout). Other callers in this process
 * queue; other processes (ours or Python agentm) exclude us through the lock directory. The holder's
 * heartbeat stamps the directory's mtime with the real time every stale/2; a lock older than `staleMs`
 * is taken over. After `timeoutMs` of waiting (default 1.5 × `staleMs`), throws `LockTimeout`; a
 * directory on the lock's path we may not write throws `LockPermissionError` at once. The lock is
 * released when `fn` settles (an error removing it is a `LockReleaseError`), and on exit, SIGINT and
 * SIGTERM.
 */
export function withVaultLock<T>(
  storeRoot: string,
  fn: (hold: LockHold) => Promise<T>,
  options: VaultLockOptions = {},
): Promise<T> {
  return withLockDir(lockDirFor(storeRoot, options.lockRoot ?? defaultLockRoot()), fn, options);
}

/**
 * `withVaultLock` for a lock directory computed once by the caller (a backend's root does not move),
 * which spares the realpath and hash on every write.
 */
export async function withLockDir<T>(
  lockDir: string,
  fn: (hold: LockHold) => Promise<T>,
  options: VaultLockOptions = {},
): Promise<T> {
  const outer = holdsInContext.getStore();
  const reentered = outer?.get(lockDir);
  if (reentered) return fn(reentered);

  const staleMs = Math.max(options.staleMs ?? LOCK_STALE_MS, LOCK_STALE_MIN_MS);
  const timeoutMs = options.timeoutMs ?? staleMs + staleMs / 2;
  const deadline = Date.now() + timeoutMs;
  let mutex = mutexes.get(lockDir);
  if (!mutex) mutexes.set(lockDir, (mutex = new TimedMutex()));
  if (!(await mutex.acquire(deadline))) {
    throw new LockTimeout(lockDir, timeoutMs, heartbeatAgeMs(lockDir), staleMs);
  }
  try {
    const onWait = options.onWait;
    const lock = await HeldLockDirectory.acquire(lockDir, {
      deadline,
      timeoutMs,
      staleMs,
      ...(onWait ? { onWait: () => onWait(inspectLockDir(lockDir, staleMs)) } : {}),
    });
    const hold = new Hold(lock);
    heldHere.add(lockDir);
    let result: T;
    try {
      result = await holdsInContext.run(new Map([...(outer ?? []), [lockDir, hold]]), () => fn(hold));
    } catch (error) {
      heldHere.delete(lockDir);
      // The operation's own error is the one to report; a lock we fail to remove goes stale and is taken over.
      lock.releaseQuietly();
      throw error;
    }
    heldHere.delete(lockDir);
    lock.release(); // an I/O error removing it is reported (LockReleaseError), never swallowed
    return result;
  } finally {
    mutex.release();
  }
}

function inspectLockDir(lockDir: string, staleMs: number): LockStatus {
  const age = heartbeatAgeMs(lockDir);
  return {
    lockDir,
    present: age !== undefined,
    heartbeatAgeMs: age,
    stale: age !== undefined && age > staleMs,
    heldByThisProcess: heldHere.has(lockDir),
  };
}

/** The state of a vault's lock, for status displays ("an agent is writing"). Never acquires or writes. */
export async function inspectLock(
  storeRoot: string,
  options: Pick<VaultLockOptions, 'lockRoot' | 'staleMs'> = {},
): Promise<LockStatus> {
  return inspectLockDir(
    lockDirFor(storeRoot, options.lockRoot ?? defaultLockRoot()),
    Math.max(options.staleMs ?? LOCK_STALE_MS, LOCK_STALE_MIN_MS),
  );
}
