import type { Locator } from './locator.js';

/**
 * Metadata about a locator, as the `info` verb returns it. `size` is the UTF-8 byte length of a file
 * (0 for a directory). `mtimeMs` is epoch milliseconds; on synced backends it is a hint, not an order
 * (sync clients rewrite mtimes on download), which is why the CAS keys on content hashes instead.
 */
export interface Info {
  readonly locator: Locator;
  readonly isDir: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  /**
   * Optional: what tells two locators of the same file or folder apart from two different ones (a
   * filesystem's device and inode), so a walk can notice a folder it already walked (a link cycle).
   */
  readonly identity?: string;
  /** Optional: whether the locator is a link to what `info` describes. */
  readonly isLink?: boolean;
}
