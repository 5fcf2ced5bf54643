import type { Info } from './info.js';
import type { Locator } from './locator.js';

/** One file written or removed after a cursor was taken. */
export interface StoreChange {
  readonly locator: Locator;
  /** Absent now (removed), rather than written. */
  readonly removed: boolean;
  /** The file's metadata, for a present file (so a reader need not ask `info` for each). */
  readonly info?: Info;
}

/** What `changedSince` returns: the changes, and the cursor to pass next time. */
export interface ChangeBatch {
  readonly changes: readonly StoreChange[];
  /** Opaque; stable across processes and machines sharing the store. */
  readonly cursor: string;
  /**
   * Every present file is listed (no cursor was given, or the store did not recognise it — another
   * store's, or this one made again): a file not in the batch is absent, whatever a reader knew of it.
   */
  readonly full: boolean;
}

/**
 * What a subscriber is told: keys that changed (a hint: fetch them or re-read since your cursor), or
 * `resync` when notifications may have been missed (the listening connection dropped and came back).
 */
export type ChangeSignal = { readonly keys: readonly string[] } | { readonly resync: true };

/**
 * A store's own change feed, for stores that can say what changed without being walked (a database):
 * an optional capability of `StorageBackend` (`changeFeed`), declared like `localRoot`. Directory stores
 * have none; their readers walk and compare mtimes (or watch the filesystem).
 *
 * `changedSince` is at-least-once: every file written or removed after the state `cursor` describes is in
 * the batch (a change may be reported again in a later batch; never missed). `undefined` lists every
 * present file (`full`). Directories are never reported.
 */
export interface ChangeFeed {
  changedSince(cursor: string | undefined): Promise<ChangeBatch>;
  /**
   * Calls `listener` when the store changes, from any machine (notifications are hints: a burst may
   * come as one, and notifications sent while disconnected are lost, which is why a reconnect signals
   * `resync`). Returns the disposer; the feed stops listening when its last subscriber is disposed.
   */
  subscribe(listener: (signal: ChangeSignal) => void): () => void;
}
