import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { commitWrite, discardWrite, prepareWrite, syncDirectory } from './atomic-write.js';
import { contentHash } from './content-hash.js';
import { ConcurrentModificationError } from './errors.js';
import { withVaultLock, type LockHold, type VaultLockOptions } from './vault-lock.js';

/** The content hash of the file at `path`, or `null` when there is no file. */
export async function currentHash(path: string): Promise<string | null> {
  try {
    return contentHash(await readFile(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** `currentHash`, synchronously: used for the last check before a rename, where nothing may interleave. */
export function currentHashSync(path: string): string | null {
  try {
    return contentHash(readFileSync(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * Throws `ConcurrentModificationError` unless `actual` meets the caller's expectation: a hash must
 * match, `null` means "must be absent", `undefined` means no expectation.
 */
export function checkExpectation(file: string, expected: string | null | undefined, actual: string | null): void {
  if (expected === undefined || expected === actual) return;
  const detail =
    expected === null
      ? 'it appeared since it was found absent'
      : actual === null
        ? 'it was deleted since it was read'
        : 'modified since it was read';
  throw new ConcurrentModificationError(file, expected, actual, detail);
}

/**
 * The last checks before a rename under the lock, synchronous and back to back: the target still
 * matches the expectation, then the lock is still ours (one `stat`: the directory we made, untouched
 * since our last stamp, which came before the re-hash — so nobody held the lock while we hashed) and
 * its heartbeat fresh. A pause anywhere before the ownership check (SIGSTOP, a sleeping laptop, a long
 * GC) that let a waiter take the lock over and write is caught: as `LockCompromisedError` when the lock
 * was lost (checked as well when the hash differs, so a taken-over writer learns why), else as
 * `ConcurrentModificationError`. After it, a takeover needs this process to stop for most of a stale
 * window between the check and the rename syscall — microseconds of synchronous code.
 */
export function verifyOwnedAndUnchanged(
  hold: LockHold | undefined,
  label: string,
  expected: string | null | undefined,
  path: string,
): void {
  try {
    checkExpectation(label, expected, currentHashSync(path));
  } catch (error) {
    hold?.assertHeld(); // a lost lock explains the difference better than the difference itself
    throw error;
  }
  hold?.assertHeld();
}

export interface CasWriteOptions {
  /** The caller's expectation (see `WriteOptions.expectHash`). */
  readonly expectHash?: string | null;
  /** How the file is named in errors (default: its path). */
  readonly label?: string;
  /**
   * Wraps the commit (re-check and rename) in a critical section, e.g. the vault lock. The temp is
   * written and fsynced before, outside it, so a lock is held only for the check and the rename.
   */
  readonly critical?: <T>(commit: (hold?: LockHold) => Promise<T>) => Promise<T>;
  /**
   * Observer run after the temp is durable and before the final re-check: the window a foreign writer
   * can land in. Instrumentation and tests use it to prove that such a write is detected.
   */
  readonly beforeRecheck?: () => Promise<void> | void;
}

/**
 * A compare-and-swap replace of one file. The temp is written and fsynced first; then, inside the
 * `critical` section (the lock, when the caller gives one), the target is re-hashed immediately before
 * the rename and the write is refused unless it still matches the caller's expectation (or, without
 * one, the bytes found on entering the critical section). A loser never overwrites: the foreign bytes stay and
 * the temp is removed.
 */
export async function casWriteFile(path: string, content: string, options: CasWriteOptions = {}): Promise<void> {
  const label = options.label ?? path;
  const prepared = await prepareWrite(path, content);
  const critical = options.critical ?? ((commit) => commit());
  let renamed = false;
  let afterRename: unknown;
  try {
    await critical(async (hold) => {
      // Without a caller expectation, the bytes found on entering the critical section are the
      // expectation (agentm's pre-read under the lock): writers that take the lock serialize, and only
      // a writer outside it (a sync client, an editor) can make this write fail.
      const expected = options.expectHash !== undefined ? options.expectHash : currentHashSync(path);
      await options.beforeRecheck?.();
      await commitWrite(prepared, () => verifyOwnedAndUnchanged(hold, label, expected, path));
      renamed = true;
    });
  } catch (error) {
    if (!renamed) {
      await discardWrite(prepared);
      throw error;
    }
    // The rename landed and leaving the critical section failed (the lock could not be removed): the
    // write is in place, so its directory is still synced before that error is reported.
    afterRename = error;
  }
  await syncDirectory(dirname(path), path);
  if (afterRename !== undefined) throw afterRename;
}

/** The full vault write protocol for one file: CAS replace with the commit under the store's lock. */
export function lockedCasWrite(
  storeRoot: string,
  path: string,
  content: string,
  options: Omit<CasWriteOptions, 'critical'> & { readonly lock?: VaultLockOptions } = {},
): Promise<void> {
  return casWriteFile(path, content, {
    ...options,
    critical: (commit) => withVaultLock(storeRoot, commit, options.lock),
  });
}
