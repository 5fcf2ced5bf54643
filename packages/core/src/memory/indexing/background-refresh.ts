import { join } from 'node:path';
import { LockTimeout } from '../../write-protocol/errors.js';
import { inspectLock, withVaultLock } from '../../write-protocol/vault-lock.js';

/** What names an index's background refresher: its directory and the lock root its locks live under. */
export interface IndexLockPlace {
  readonly dir: string;
  readonly lockRoot: string | undefined;
}

/** The lock one background refresher of an index holds while it walks (and embeds). */
const refresherKey = (index: IndexLockPlace) => join(index.dir, 'background-refresh');

/**
 * Runs `fn` as the index's only background refresher (a detached `agentm reindex --background`): at
 * once, or not at all (undefined) when another one is running. The lock's heartbeat keeps it held
 * through a long walk; a refresher that died leaves a stale lock, taken over by the next one.
 */
export async function asBackgroundRefresher<T>(index: IndexLockPlace, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await withVaultLock(refresherKey(index), fn, {
      ...(index.lockRoot !== undefined ? { lockRoot: index.lockRoot } : {}),
      timeoutMs: 0,
    });
  } catch (error) {
    if (error instanceof LockTimeout) return undefined;
    throw error;
  }
}

/** Whether a background refresher of the index is running now (its lock is held and fresh). */
export async function backgroundRefresherRunning(index: IndexLockPlace): Promise<boolean> {
  const status = await inspectLock(
    refresherKey(index),
    index.lockRoot !== undefined ? { lockRoot: index.lockRoot } : {},
  );
  return status.present && !status.stale;
}
