import type { FileEntry } from './file-table.js';

/** The facts a walk gives about one source file. */
export interface SeenFile {
  readonly key: string;
  readonly mtimeMs: number;
  readonly size: number;
}

/** What an incremental refresh must do. */
export interface RefreshPlan {
  /** New files, and files whose mtime or size changed: read them (the hash decides whether to re-index). */
  readonly read: readonly string[];
  /** Files the index knows that the walk no longer saw (deleted, renamed away, now a conflict copy). */
  readonly remove: readonly string[];
  /** Files with the same mtime and size: not read at all. */
  readonly unchanged: number;
}

/**
 * Compares what the index knows with what the walk saw. Pure. A file is re-read when it is new or its
 * mtime or size differs; a rename shows as one removal and one new file.
 */
export function planRefresh(
  known: { get(key: string): Pick<FileEntry, 'mtimeMs' | 'size'> | undefined; keys(): Iterable<string> },
  seen: readonly SeenFile[],
): RefreshPlan {
  const read: string[] = [];
  const present = new Set<string>();
  let unchanged = 0;
  for (const file of seen) {
    present.add(file.key);
    const entry = known.get(file.key);
    if (entry && entry.mtimeMs === file.mtimeMs && entry.size === file.size) unchanged++;
    else read.push(file.key);
  }
  const remove = [...known.keys()].filter((key) => !present.has(key));
  return { read, remove, unchanged };
}

/** The index's files as rows (FileTable's view): what a walk is compared with, decoding no key it need not. */
export interface KnownFiles {
  /** The live row of a key, or undefined. */
  row(key: string): number | undefined;
  mtime(row: number): number;
  size(row: number): number;
  /** Rows are `0..rows − 1`, live or dead. */
  readonly rows: number;
  live(row: number): boolean;
  key(row: number): string;
}

/**
 * `planRefresh` for a full walk against the index's rows: the same plan, without a set of every key
 * walked and every key known decoded (at 100 000 notes, two of the largest sources of a refresh's
 * garbage, and so of a session's peak memory): a row seen is marked, and only the keys of the rows left
 * unmarked — the removals — are decoded. Pure.
 */
export function planWalk(
  known: KnownFiles,
  seen: ReadonlyArray<{ readonly locator: { readonly key: string }; readonly mtimeMs: number; readonly size: number }>,
): RefreshPlan {
  const read: string[] = [];
  const marked = new Uint8Array(known.rows);
  let unchanged = 0;
  for (const file of seen) {
    const key = file.locator.key;
    const row = known.row(key);
    if (row !== undefined) {
      marked[row] = 1;
      if (known.mtime(row) === file.mtimeMs && known.size(row) === file.size) {
        unchanged++;
        continue;
      }
    }
    read.push(key);
  }
  const remove: string[] = [];
  for (let row = 0; row < known.rows; row++) if (marked[row] === 0 && known.live(row)) remove.push(known.key(row));
  return { read, remove, unchanged };
}

/** What to do with a re-read file, by its hash. Pure. */
export function readDecision(entry: FileEntry | undefined, hash: string): 'index' | 'touch' {
  return entry !== undefined && entry.hash === hash ? 'touch' : 'index';
}
