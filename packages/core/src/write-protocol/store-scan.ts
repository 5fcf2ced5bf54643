import { lstatSync, realpathSync, unlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { tempWriterPid } from './atomic-write.js';
import { LOCK_TIMEOUT_MS, withVaultLock, type VaultLockOptions } from './vault-lock.js';

/**
 * How old a temp must be before it counts as left over: the longest a live writer keeps one before
 * renaming it (it writes the temp, then waits for the lock for up to the lock timeout).
 */
export const TEMP_LEFTOVER_MS = LOCK_TIMEOUT_MS;

/** A symbolic link in the store whose target is outside it. AgentM never reads through it. */
export interface OutsideLink {
  /** Store-relative, `/`-separated. */
  readonly key: string;
  readonly path: string;
  readonly target: string;
}

/** A writer's temp file (`.<name>.<pid>.<random>.tmp`, or agentm's `<name>.<pid>.<uuid>.tmp`). */
export interface TempFile {
  readonly key: string;
  readonly path: string;
  readonly pid: number | undefined;
  readonly ageMs: number;
}

export interface StoreScan {
  readonly outsideLinks: OutsideLink[];
  /** Temps older than `TEMP_LEFTOVER_MS` whose writer is not running on this machine. */
  readonly leftoverTemps: TempFile[];
}

/** Whether a process with this pid runs on this machine (EPERM: it does, as another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A temp nobody will rename any more: old enough, and its writer is not alive here. */
function isLeftover(temp: TempFile): boolean {
  return temp.ageMs > TEMP_LEFTOVER_MS && (temp.pid === undefined || !isProcessAlive(temp.pid));
}

/**
 * Looks through a store directory for what doctor reports: links that lead out of it and temps
 * crashed writers left. Never follows a link, never writes. Dot-folders (`.git`, `.obsidian`,
 * `.trash`) are not entered: AgentM writes nothing there.
 */
export async function scanStore(root: string, now: number = Date.now()): Promise<StoreScan> {
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return { outsideLinks: [], leftoverTemps: [] }; // no store yet: nothing to report
  }
  const outsideLinks: OutsideLink[] = [];
  const leftoverTemps: TempFile[] = [];
  const key = (path: string) => relative(root, path).split(sep).join('/');
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync.native(path);
        } catch {
          continue; // dangling or looping: leads nowhere
        }
        if (target !== realRoot && !target.startsWith(realRoot + sep))
          outsideLinks.push({ key: key(path), path, target });
      } else if (entry.isDirectory()) {
        if (!entry.name.startsWith('.')) pending.push(path);
      } else if (entry.isFile()) {
        const pid = tempWriterPid(entry.name);
        if (pid === undefined) continue;
        const st = lstatSync(path, { throwIfNoEntry: false });
        if (!st) continue;
        const temp = { key: key(path), path, pid, ageMs: now - st.mtimeMs };
        if (isLeftover(temp)) leftoverTemps.push(temp);
      }
    }
  }
  const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return { outsideLinks: outsideLinks.sort(byKey), leftoverTemps: leftoverTemps.sort(byKey) };
}

/**
 * Removes leftover temps under the store's lock, re-checking each right before removing it (still
 * there, still older than the window, its writer still not alive), so a writer that appeared meanwhile
 * keeps its temp. Returns what was removed; a temp that could not be removed is reported in `failed`.
 */
export async function removeLeftoverTemps(
  root: string,
  temps: readonly TempFile[],
  lock: VaultLockOptions = {},
): Promise<{ removed: TempFile[]; failed: { temp: TempFile; error: string }[] }> {
  return withVaultLock(
    root,
    async () => {
      const removed: TempFile[] = [];
      const failed: { temp: TempFile; error: string }[] = [];
      for (const temp of temps) {
        const st = lstatSync(temp.path, { throwIfNoEntry: false });
        if (!st?.isFile()) continue;
        const now = { ...temp, ageMs: Date.now() - st.mtimeMs };
        if (!isLeftover(now)) continue;
        try {
          unlinkSync(temp.path);
          removed.push(now);
        } catch (error) {
          const err = error as NodeJS.ErrnoException;
          if (err.code !== 'ENOENT') failed.push({ temp: now, error: `${err.code ?? ''} ${err.message}`.trim() });
        }
      }
      return { removed, failed };
    },
    lock,
  );
}
