import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Info } from '../../seam/info.js';
import type { Locator } from '../../seam/locator.js';
import { recognizeConflictName } from '../../write-protocol/conflict-names.js';
import { classifySource, type MemoryLayout } from '../documents/layout.js';
import type { FileEntry } from './index-state.js';
import { KeyFeed } from './feed.js';
import { planRefresh, type RefreshPlan, type SeenFile } from './refresh-plan.js';
import type { RefreshOptions } from './index-types.js';
import { isIndexableName, type SourceFile } from './walk.js';

const NO_SIBLINGS: ReadonlySet<string> = new Set();

/** What a targeted update must do about some named sources: the refresh plan, their stats, the ones gone. */
export interface ProbedSources {
  readonly plan: RefreshPlan;
  readonly infos: Map<string, Info>;
  /** Indexed files that are gone or no longer indexable (deleted, now a directory or a conflict copy). */
  readonly gone: string[];
}

/**
 * Stats each of `locators` (a one-note update, without walking the store) and plans what to re-read
 * against the files the index knows. A name shaped like a conflict copy is judged among its folder's
 * names (`x (1).md` is one only beside `x.md`); other names need no listing.
 */
export async function probeSources(
  backend: StorageBackend,
  layout: MemoryLayout,
  known: { has(key: string): boolean; get(key: string): Pick<FileEntry, 'mtimeMs' | 'size'> | undefined },
  locators: readonly Locator[],
): Promise<ProbedSources> {
  const seen: SeenFile[] = [];
  const infos = new Map<string, Info>();
  const gone: string[] = [];
  const listings = new Map<string, Set<string>>();
  for (const locator of locators) {
    const info = await infoOrUndefined(backend, locator);
    let siblings = listings.get(locator.parent.key);
    if (!siblings && recognizeConflictName(locator.name, () => true) !== undefined)
      listings.set(locator.parent.key, (siblings = new Set((await backend.list(locator.parent)).map((l) => l.name))));
    const indexable =
      info &&
      !info.isDir &&
      isIndexableName(locator.name, siblings ?? NO_SIBLINGS) &&
      classifySource(locator.key, layout).role !== 'ignored';
    if (indexable) {
      seen.push({ key: locator.key, mtimeMs: info.mtimeMs, size: info.size });
      infos.set(locator.key, info);
    } else if (known.has(locator.key)) gone.push(locator.key);
  }
  const plan = planRefresh(new Map(seen.filter((s) => known.has(s.key)).map((s) => [s.key, known.get(s.key)!])), seen);
  return { plan, infos, gone };
}

async function infoOrUndefined(backend: StorageBackend, locator: Locator): Promise<Info | undefined> {
  try {
    return await backend.info(locator);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** The keys to read as a feed that reports each one taken (a known total: the walk is done). */
export function progressFeed(keys: readonly string[], onProgress: NonNullable<RefreshOptions['onProgress']>): KeyFeed {
  const feed = KeyFeed.of(keys);
  feed.onTake = (done, total) => onProgress({ phase: 'reading', done, total, totalKnown: true });
  return feed;
}

/** The walk's stats of its files, by key, as the applier takes them. */
export function infosOf(files: readonly SourceFile[]): Map<string, Info> {
  return new Map(
    files.map((f) => [f.locator.key, { locator: f.locator, isDir: false, size: f.size, mtimeMs: f.mtimeMs }]),
  );
}
