import type { FileEntry } from './index-state.js';

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

/** What to do with a re-read file, by its hash. Pure. */
export function readDecision(entry: FileEntry | undefined, hash: string): 'index' | 'touch' {
  return entry !== undefined && entry.hash === hash ? 'touch' : 'index';
}
