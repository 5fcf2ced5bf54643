import { watch, type FSWatcher } from 'node:fs';
import type { ChangeFeed } from '../../seam/change-feed.js';

/** A refresh at least this often even when the watcher saw nothing (events can be missed: network drives, overflow). */
export const MAX_INDEX_AGE_MS = 60_000;

/**
 * Whether the long-lived server's index must be brought up to date before it answers. A recursive
 * watcher on the store root — or, for a store with a change feed (a database), its notifications
 * (LISTEN/NOTIFY, from any machine; a reconnect after notifications may have been lost counts as a
 * change) — marks it stale on any change; without either (no recursive watch on this platform, too
 * many directories) every answer refreshes. Either way it is
 * refreshed at least every `MAX_INDEX_AGE_MS`. Refreshing is incremental (the index re-reads only
 * files whose size or mtime changed), so a stale mark costs a walk, not a rebuild.
 */
export class IndexFreshness {
  #stale = true;
  #refreshedAt = Number.NEGATIVE_INFINITY;
  #watcher: FSWatcher | undefined;
  /** Every refresh begun and not yet ended (see `track`). */
  #running: Promise<void> = Promise.resolve();
  #unsubscribe: (() => void) | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(
    /** The store root to watch, or the store's change feed. */
    private readonly root: string | ChangeFeed | undefined,
    private readonly maxAgeMs: number = MAX_INDEX_AGE_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Starts watching (once). Blocks for a moment on a large tree (Node lists it to watch each folder). */
  start(): void {
    if (this.#watcher || this.#unsubscribe || this.root === undefined) return;
    const changed = () => {
      this.#stale = true;
      for (const listener of this.#listeners) listener();
    };
    if (typeof this.root !== 'string') {
      this.#unsubscribe = this.root.subscribe(changed);
      return;
    }
    try {
      this.#watcher = watch(this.root, { recursive: true, persistent: false }, changed);
      this.#watcher.on('error', () => this.close());
    } catch {
      this.#watcher = undefined; // every answer refreshes
    }
  }

  /** Calls `listener` on every change the watcher sees (to refresh ahead of the next question). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get watching(): boolean {
    return this.#watcher !== undefined || this.#unsubscribe !== undefined;
  }

  /** Marks the index stale (after a write of our own, the watcher's event may still be on its way). */
  markStale(): void {
    this.#stale = true;
  }

  /**
   * Whether to refresh now; a true answer clears the mark first, so a change during the refresh marks it
   * stale again. Call `failed()` if the refresh then fails.
   */
  takeRefresh(): boolean {
    const due = !this.watching || this.#stale || this.clock() - this.#refreshedAt > this.maxAgeMs;
    if (due) {
      this.#stale = false;
      this.#refreshedAt = this.clock();
    }
    return due;
  }

  /**
   * Records a refresh under way (begun after a true `takeRefresh`): until it ends, `settled` waits for
   * it, so that a question asked meanwhile is not answered from the index before it.
   */
  track(refresh: Promise<unknown>): void {
    this.#running = Promise.allSettled([this.#running, refresh]).then(() => undefined);
  }

  /** Resolves once no tracked refresh is under way (also those begun while waiting). Never rejects. */
  async settled(): Promise<void> {
    let running: Promise<void>;
    do {
      running = this.#running;
      await running;
    } while (running !== this.#running);
  }

  failed(): void {
    this.#stale = true;
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
