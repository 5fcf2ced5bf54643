import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangeBatch, ChangeFeed, StoreChange } from '../../seam/change-feed.js';
import type { Locator } from '../../seam/locator.js';
import { isTempName } from '../../write-protocol/atomic-write.js';
import { recognizeConflictName } from '../../write-protocol/conflict-names.js';
import { classifySource, shouldDescend, sourceRoots, type MemoryLayout } from '../documents/layout.js';
import type { StorageBackend } from '../../seam/backend.js';
import type { Info } from '../../seam/info.js';
import { KeyFeed } from './feed.js';
import type { IndexProgress } from './index-types.js';
import { infosOf } from './probe-sources.js';
import { sourceFile, walkSources, type SourceFile, type WalkOptions, type WalkResult } from './walk.js';

/**
 * For stores with a change feed (a database): the index follows the store's change cursor instead of
 * walking it. The cursor the index is up to date with is kept beside the index (device-local, like the
 * index), tied to the snapshot it describes: a snapshot another process wrote comes with its own cursor,
 * and one without a cursor is brought up to date from a full listing (one query, not a walk).
 */
const CURSOR_FILE = 'cursor.json';

/** A batch bigger than this is read as a full listing (comparing sizes and times) instead of key by key. */
export const MAX_KEYED_CHANGES = 1000;

/** The cursor saved for `snapshotId`, if any. */
export async function readCursor(dir: string, snapshotId: string | undefined): Promise<string | undefined> {
  if (snapshotId === undefined) return undefined;
  try {
    const saved = JSON.parse(await readFile(join(dir, CURSOR_FILE), 'utf8')) as {
      snapshotId?: unknown;
      cursor?: unknown;
    };
    return saved.snapshotId === snapshotId && typeof saved.cursor === 'string' ? saved.cursor : undefined;
  } catch {
    return undefined; // none yet, or torn: a full listing puts it right
  }
}

/** Saves the cursor the index of `snapshotId` is now up to date with (write, then rename: never torn). */
export async function writeCursor(dir: string, snapshotId: string, cursor: string): Promise<void> {
  const temp = join(dir, `.${CURSOR_FILE}.${process.pid}.tmp`);
  await writeFile(temp, `${JSON.stringify({ snapshotId, cursor })}\n`);
  await rename(temp, join(dir, CURSOR_FILE));
}

/** What changed since `cursor`; a big batch is asked for again as a full listing. */
export async function readChanges(feed: ChangeFeed, cursor: string | undefined): Promise<ChangeBatch> {
  const batch = await feed.changedSince(cursor);
  return batch.full || batch.changes.length <= MAX_KEYED_CHANGES ? batch : feed.changedSince(undefined);
}

/**
 * The sources among a full listing, by the walk's rules applied to keys: under a source root, no dot or
 * temp name on the way, no folder the walk would not enter, conflict copies (judged among the names of
 * the same folder) set apart, and only what `classifySource` indexes.
 */
export function sourcesOfListing(changes: readonly StoreChange[], layout: MemoryLayout): WalkResult {
  const roots = sourceRoots(layout).map((r) => `${r}/`);
  const present = changes.filter((c) => !c.removed && c.info !== undefined);
  const siblings = new Map<string, Set<string>>();
  for (const c of present) {
    const names = siblings.get(c.locator.parent.key) ?? new Set<string>();
    names.add(c.locator.name);
    siblings.set(c.locator.parent.key, names);
  }
  const files: SourceFile[] = [];
  const conflictCopies: Locator[] = [];
  for (const change of present) {
    const { locator } = change;
    if (!roots.some((root) => locator.key.startsWith(root))) continue;
    if (locator.parts.some((part) => part.startsWith('.') || isTempName(part))) continue;
    if (!ancestorsWalked(locator, layout)) continue;
    const names = siblings.get(locator.parent.key)!;
    if (recognizeConflictName(locator.name, (original) => names.has(original))) {
      conflictCopies.push(locator);
      continue;
    }
    const cls = classifySource(locator.key, layout);
    if (cls.role !== 'ignored') files.push(sourceFile(cls, locator, change.info!.mtimeMs, change.info!.size));
  }
  return { files, conflictCopies, skipped: [], folders: [] }; // a database lists no folders: its cursor, not folder marks, says what changed
}

function ancestorsWalked(locator: Locator, layout: MemoryLayout): boolean {
  for (let dir = locator.parent; !dir.isRoot; dir = dir.parent) if (!shouldDescend(dir.key, layout)) return false;
  return true;
}

/**
 * Every source of the store, for a full build: in one query from the change feed when the store has one
 * (with the cursor the build is then up to date with), else by walking it (no cursor). `found` is told
 * the sources as they are known.
 */
export function listSources(
  backend: StorageBackend,
  layout: MemoryLayout,
  found?: (files: readonly SourceFile[]) => void,
  options: WalkOptions = {},
): { readonly walk: Promise<WalkResult>; readonly cursor: Promise<string | undefined> } {
  const changes = backend.changeFeed;
  if (!changes) return { walk: walkSources(backend, layout, found, options), cursor: Promise.resolve(undefined) };
  const batch = changes.changedSince(undefined);
  const walk = batch.then((b) => {
    const listed = sourcesOfListing(b.changes, layout);
    found?.(listed.files);
    return listed;
  });
  return {
    walk,
    cursor: batch.then(
      (b) => b.cursor,
      () => undefined,
    ),
  };
}

/**
 * A cold build's listing: every source found is pushed to `feed` (the readers take them as they come,
 * while the walk goes on) with its stats in `infos`; `walking` settles with the walk and closes the feed.
 * With `deferInfo` (read workers, which stat the notes themselves) the walk stats only what may be a folder.
 */
export function feedingListing(
  backend: StorageBackend,
  layout: MemoryLayout,
  deferInfo: boolean,
  onProgress?: (progress: IndexProgress) => void,
) {
  const feed = new KeyFeed();
  if (onProgress)
    feed.onTake = (done, total, closed) => onProgress({ phase: 'reading', done, total, totalKnown: closed });
  const infos = new Map<string, Info>();
  const listing = listSources(
    backend,
    layout,
    (files) => {
      for (const [key, info] of infosOf(files)) infos.set(key, info);
      feed.push(files.map((f) => f.locator.key));
    },
    { deferFileInfo: deferInfo },
  );
  const walking = listing.walk.finally(() => feed.close());
  walking.catch(() => undefined); // the caller's to handle; never an unhandled rejection meanwhile
  return { feed, infos, listing, walking };
}
