import { AsyncLocalStorage } from 'node:async_hooks';
import * as fs from 'node:fs';
import { realpathSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { sleep } from './atomic-write.js';
import { contentHash } from './content-hash.js';
import { LockCompromisedError, LockTimeout } from './errors.js';

/** agentm's constants: one lock per vault per machine, so Python and TypeScript writers exclude each other. */
export const LOCK_TIMEOUT_MS = 10_000;
export const LOCK_STALE_MS = 10_000;
export const LOCK_BACKOFF_START_MS = 10;
export const LOCK_BACKOFF_MAX_MS = 200;
/** proper-lockfile's floor for the stale window; shorter windows are raised to it. */
export const LOCK_STALE_MIN_MS = 2_000;

export interface VaultLockOptions {
  /** Directory holding every vault's lock (default: `defaultLockRoot()`). */
  readonly lockRoot?: string;
  /** Bounded wait before `LockTimeout` (default 10 s). */
  readonly timeoutMs?: number;
  /** Heartbeat age after which a holder is presumed dead and its lock taken over (default 10 s). */
  readonly staleMs?: number;
  /** Called once, the first time an acquisition finds the lock held by someone else. */
  readonly onWait?: (status: LockStatus) => void;
}

/** What a lock holder can ask while it holds the lock. */
export interface LockHold {
  readonly lockDir: string;
  /** Throws `LockCompromisedError` if the lock was taken over since it was acquired. */
  assertHeld(): void;
}

export interface LockStatus {
  readonly lockDir: string;
  /** Whether the lock directory exists (held, or left by a crashed holder). */
  readonly present: boolean;
  /** Age of the last heartbeat, when present. */
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
  compromised: LockCompromisedError | undefined;
  constructor(readonly lockDir: string) {}
  assertHeld(): void {
    if (this.compromised) throw this.compromised;
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

/**
 * The filesystem proper-lockfile drives, with its five calls made synchronously (what its own
 * `lockSync` does, but one persistent object, so its mtime-precision probe is cached instead of
 * re-run on every acquisition). mkdir, stat, utimes and rmdir of one directory are tiny metadata
 * calls; thread-pool round trips for them cost more than the calls (measured in bench/).
 */
const syncBackedFs = (() => {
  const wrap =
    <A extends unknown[], R>(call: (...args: A) => R) =>
    (...args: [...A, (error: Error | null, result?: R) => void]) => {
      const callback = args.pop() as (error: Error | null, result?: R) => void;
      let result: R;
      try {
        // eslint-disable-next-line no-restricted-syntax -- the arguments without the trailing callback are A; TypeScript cannot type the pop
        result = call(...(args as unknown as A));
      } catch (error) {
        callback(error as Error);
        return;
      }
      callback(null, result);
    };
  return {
    ...fs,
    mkdir: wrap(fs.mkdirSync),
    realpath: wrap(fs.realpathSync),
    stat: wrap(fs.statSync),
    rmdir: wrap(fs.rmdirSync),
    utimes: wrap(fs.utimesSync),
  };
})();

const mutexes = new Map<string, TimedMutex>();
/** Lock parents known to exist, so the hot path does not re-create them on every write. */
const ensuredParents = new Set<string>();
const heldHere = new Set<string>();
const holdsInContext = new AsyncLocalStorage<ReadonlyMap<string, Hold>>();

/**
 * Runs `fn` while holding the vault lock of `storeRoot` (the vault backend's root, the memory root).
 *
 * Re-entrant within one async call chain: a nested call on the same vault runs at once (agentm's lock
 * is not, and a nested acquisition there deadlocks until LockTimeout). Other callers in this process
 * queue; other processes (ours or Python agentm) exclude us through the lock directory. The holder's
 * heartbeat refreshes the directory's mtime every stale/2; a lock older than `staleMs` is taken over.
 * After `timeoutMs` of waiting, throws `LockTimeout`. The lock is released when `fn` settles, and on
 * exit, SIGINT and SIGTERM.
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

  const timeoutMs = options.timeoutMs ?? LOCK_TIMEOUT_MS;
  const staleMs = Math.max(options.staleMs ?? LOCK_STALE_MS, LOCK_STALE_MIN_MS);
  const deadline = Date.now() + timeoutMs;
  let mutex = mutexes.get(lockDir);
  if (!mutex) mutexes.set(lockDir, (mutex = new TimedMutex()));
  if (!(await mutex.acquire(deadline))) {
    throw new LockTimeout(lockDir, timeoutMs, await heartbeatAge(lockDir), staleMs);
  }
  try {
    const hold = new Hold(lockDir);
    const release = await acquireLockDirectory(lockDir, hold, deadline, timeoutMs, staleMs, options.onWait);
    heldHere.add(lockDir);
    try {
      return await holdsInContext.run(new Map([...(outer ?? []), [lockDir, hold]]), () => fn(hold));
    } finally {
      heldHere.delete(lockDir);
      await release().catch(() => undefined);
    }
  } finally {
    mutex.release();
  }
}

async function acquireLockDirectory(
  lockDir: string,
  hold: Hold,
  deadline: number,
  timeoutMs: number,
  staleMs: number,
  onWait: VaultLockOptions['onWait'],
): Promise<() => Promise<void>> {
  if (!ensuredParents.has(lockDir)) {
    await mkdir(dirname(lockDir), { recursive: true });
    ensuredParents.add(lockDir);
  }
  let backoff = LOCK_BACKOFF_START_MS;
  let told = false;
  for (;;) {
    try {
      // The lock is the directory itself (lockfilePath), keyed by its own path so that symlink
      // aliases of one vault share one entry. proper-lockfile takes over a lock whose mtime is older
      // than `stale`, refreshes ours every `update`, and removes held locks on exit and signals.
      return await lockfile.lock(lockDir, {
        lockfilePath: lockDir,
        realpath: false,
        stale: staleMs,
        update: staleMs / 2,
        retries: 0,
        fs: syncBackedFs,
        onCompromised: (error) => {
          hold.compromised = new LockCompromisedError(lockDir, error);
        },
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        // Someone cleaned the cache directory since we last made the lock's parent: make it again.
        await mkdir(dirname(lockDir), { recursive: true });
        continue;
      }
      // Windows mkdir can report access-denied instead of "exists" while another process holds the
      // lock: treat it as contention until the deadline, then surface the real error (as agentm does).
      const contended = code === 'ELOCKED' || code === 'EPERM' || code === 'EACCES';
      if (!contended) throw error;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        if (code === 'ELOCKED') throw new LockTimeout(lockDir, timeoutMs, await heartbeatAge(lockDir), staleMs);
        throw error;
      }
      if (!told && onWait) {
        told = true;
        onWait(await inspectLockDir(lockDir, staleMs));
      }
      await sleep(Math.min(backoff, remaining));
      backoff = Math.min(backoff * 2, LOCK_BACKOFF_MAX_MS);
    }
  }
}

async function heartbeatAge(lockDir: string): Promise<number | undefined> {
  try {
    return Math.max(0, Date.now() - (await stat(lockDir)).mtimeMs);
  } catch {
    return undefined;
  }
}

async function inspectLockDir(lockDir: string, staleMs: number): Promise<LockStatus> {
  const age = await heartbeatAge(lockDir);
  return {
    lockDir,
    present: age !== undefined,
    heartbeatAgeMs: age,
    stale: age !== undefined && age > staleMs,
    heldByThisProcess: heldHere.has(lockDir),
  };
}

/** The state of a vault's lock, for status displays ("an agent is writing"). Never acquires or writes. */
export function inspectLock(
  storeRoot: string,
  options: Pick<VaultLockOptions, 'lockRoot' | 'staleMs'> = {},
): Promise<LockStatus> {
  return inspectLockDir(
    lockDirFor(storeRoot, options.lockRoot ?? defaultLockRoot()),
    Math.max(options.staleMs ?? LOCK_STALE_MS, LOCK_STALE_MIN_MS),
  );
}
