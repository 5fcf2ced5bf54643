import { watch, type FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inspectLock, lockDirFor, LOCK_STALE_MS, type LockStatus } from '@agentm/core/write-protocol';

const DEBOUNCE_MS = 50;

/**
 * Follows the vault lock of one store root without polling: a watcher on the lock's parent directory
 * (where agentm creates and removes the `lock` directory) triggers a fresh `inspectLock`. A present lock
 * whose holder dies stops changing, so one timer re-inspects when its heartbeat would turn stale.
 */
export class LockWatch {
  #watcher: FSWatcher | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #staleTimer: NodeJS.Timeout | undefined;
  #disposed = false;
  readonly lockDir: string;

  /**
   * @param onStatus called with every fresh lock status (and once at start).
   * @param onError called when the directory cannot be watched; the watch then stays off until restarted.
   */
  constructor(
    readonly storeRoot: string,
    private readonly onStatus: (status: LockStatus) => void,
    private readonly onError: (error: Error) => void,
  ) {
    this.lockDir = lockDirFor(storeRoot);
  }

  /** Creates the lock's parent if needed (agentm would on its first write), starts watching, reports once. */
  async start(): Promise<void> {
    const parent = dirname(this.lockDir);
    try {
      await mkdir(parent, { recursive: true });
      if (this.#disposed) return;
      this.#watcher = watch(parent, { persistent: false }, () => this.#schedule());
      this.#watcher.on('error', (error) => {
        this.#stopWatcher();
        this.onError(
          new Error(
            `stopped watching the vault lock in ${parent} (${error.message}); run "AgentM: Refresh views" to watch it again`,
          ),
        );
      });
    } catch (error) {
      this.onError(
        new Error(
          `cannot watch the vault lock in ${parent} (${(error as Error).message}); check that your cache folder is writable`,
        ),
      );
    }
    await this.refresh();
  }

  async refresh(): Promise<void> {
    if (this.#disposed) return;
    const status = await inspectLock(this.storeRoot);
    if (this.#disposed) return;
    clearTimeout(this.#staleTimer);
    if (status.present && !status.stale && status.heartbeatAgeMs !== undefined) {
      this.#staleTimer = setTimeout(
        () => void this.refresh(),
        Math.max(0, LOCK_STALE_MS - status.heartbeatAgeMs) + 100,
      );
    }
    this.onStatus(status);
  }

  #schedule(): void {
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => void this.refresh(), DEBOUNCE_MS);
  }

  #stopWatcher(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  dispose(): void {
    this.#disposed = true;
    this.#stopWatcher();
    clearTimeout(this.#debounce);
    clearTimeout(this.#staleTimer);
  }
}
