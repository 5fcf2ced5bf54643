import { changeLogEnd, type ChangeCursor } from '../../write-protocol/change-log.js';
import type { Locator } from '../../seam/locator.js';
import type { WalkedFolder } from './walk.js';

/**
 * What an index remembers about its sources besides the files themselves, so that an answer can catch
 * up without walking every note (issue 19 §4):
 * - `changes`: how far the store's change log was read (every AgentM writer appends there);
 * - `folders`: each folder's mtime when it was last listed — an entry added, removed or renamed by any
 *   program changes it (an edit in place does not); RACY when it was listed too soon after a change to
 *   trust (a coarse clock may not tick again for a change in the same instant), ABSENT for a source
 *   root that did not exist;
 * - `conflicts`: the sync tools' conflict copies each listed folder held (names), for the session-start
 *   report without a walk;
 * - `walkedMs`/`walkMs`: when the last full walk began and how long it took (the revalidation clock).
 * Persisted with the index (snapshot header, journal `marks` ops), so they always describe its state.
 */
export interface SourceMarks {
  readonly changes?: ChangeCursor | undefined;
  readonly folders?: Readonly<Record<string, number>> | undefined;
  readonly conflicts?: Readonly<Record<string, readonly string[]>> | undefined;
  readonly walkedMs?: number | undefined;
  readonly walkMs?: number | undefined;
}

/** A change to the marks: fields replaced; in `folders`, `null` forgets a folder. */
export interface MarksDelta {
  readonly changes?: ChangeCursor | undefined;
  readonly folders?: Readonly<Record<string, number | null>> | undefined;
  /** The conflict copies of each folder listed (`null` or `[]`: none now). */
  readonly conflicts?: Readonly<Record<string, readonly string[] | null>> | undefined;
  /** Replace every folder and conflict copy (a full walk's listing) instead of merging. */
  readonly allFolders?: boolean | undefined;
  readonly walkedMs?: number | undefined;
  readonly walkMs?: number | undefined;
}

/** A folder mark that says: list it again next time. */
export const RACY = -1;

/** The mark of a source root that did not exist: check again whether it does. */
export const ABSENT = -2;

/**
 * How close to the listing a folder's mtime may be and still be trusted: a change in the same tick of a
 * coarse filesystem clock (1–2 s on FAT, HFS+, some network filesystems) would leave the mtime as is.
 */
export const RACY_WINDOW_MS = 2_000;

/** The mark of a folder with `mtimeMs`, listed at `listedMs`. */
export function folderMark(mtimeMs: number, listedMs: number): number {
  if (Number.isNaN(mtimeMs)) return ABSENT;
  return listedMs - mtimeMs < RACY_WINDOW_MS ? RACY : mtimeMs;
}

/** The folders of a walk as marks. */
export function walkedFolderMarks(folders: readonly WalkedFolder[], listedMs: number): Record<string, number> {
  const marks: Record<string, number> = {};
  for (const f of folders) marks[f.key] = folderMark(f.mtimeMs, listedMs);
  return marks;
}

/** The marks after `delta`. Pure. */
export function applyMarks(marks: SourceMarks, delta: MarksDelta): SourceMarks {
  let folders = marks.folders;
  if (delta.folders !== undefined) {
    const next = new Map(delta.allFolders ? [] : Object.entries(folders ?? {}));
    for (const [key, value] of Object.entries(delta.folders)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    folders = record(next);
  }
  let conflicts = marks.conflicts;
  if (delta.conflicts !== undefined) {
    const next = new Map(delta.allFolders ? [] : Object.entries(conflicts ?? {}));
    for (const [key, names] of Object.entries(delta.conflicts)) {
      if (names === null || names.length === 0) next.delete(key);
      else next.set(key, names);
    }
    conflicts = record(next);
  }
  return {
    changes: delta.changes ?? marks.changes,
    folders,
    conflicts,
    walkedMs: delta.walkedMs ?? marks.walkedMs,
    walkMs: delta.walkMs ?? marks.walkMs,
  };
}

/**
 * A map as a plain record, made in one step: adding a few hundred folder keys to an object one by one
 * (a spread, then assignments) cost V8 ~20 ms of hidden-class transitions on a prompt hook's first
 * catch-up; building from entries does not.
 */
function record<V>(map: ReadonlyMap<string, V>): Record<string, V> {
  return Object.fromEntries(map) as Record<string, V>;
}

/** Marks read back from JSON (a snapshot header, a journal op): what does not have the expected shape is dropped. */
export function marksFromJson(value: unknown): SourceMarks {
  if (typeof value !== 'object' || value === null) return {};
  const v = value as Record<string, unknown>;
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
  const c = v['changes'] as Record<string, unknown> | undefined;
  const changes =
    typeof c === 'object' && c !== null && (typeof c['id'] === 'string' || c['id'] === undefined || c['id'] === null)
      ? { id: typeof c['id'] === 'string' ? c['id'] : undefined, offset: num(c['offset']) ?? 0 }
      : undefined;
  let folders: Record<string, number> | undefined;
  if (typeof v['folders'] === 'object' && v['folders'] !== null)
    folders = record(
      new Map(Object.entries(v['folders'] as Record<string, unknown>).map(([key, mark]) => [key, num(mark) ?? RACY])),
    );
  let conflicts: Record<string, string[]> | undefined;
  if (typeof v['conflicts'] === 'object' && v['conflicts'] !== null)
    conflicts = record(
      new Map(
        Object.entries(v['conflicts'] as Record<string, unknown>).flatMap(([key, names]) =>
          Array.isArray(names) ? [[key, names.filter((n): n is string => typeof n === 'string')] as const] : [],
        ),
      ),
    );
  return { changes, folders, conflicts, walkedMs: num(v['walkedMs']), walkMs: num(v['walkMs']) };
}

/**
 * Whether the sources are due for a full walk in the background: never walked, or the last walk began
 * more than `afterMs` ago — or ten walks' time, whichever is longer, so that on a large store the
 * background walks take at most a tenth of the time.
 */
export function revalidationDue(marks: SourceMarks, nowMs: number, afterMs: number): boolean {
  if (marks.walkedMs === undefined) return true;
  return nowMs - marks.walkedMs >= Math.max(afterMs, 10 * (marks.walkMs ?? 0));
}

/** Taken before a full walk: where the change log ends (undefined: the store keeps none) and when the walk began. */
export interface WalkStart {
  readonly cursor: ChangeCursor | undefined;
  readonly atMs: number;
}

export function beginWalk(changeLogPath: string | undefined, nowMs: number): WalkStart {
  return { cursor: changeLogPath !== undefined ? changeLogEnd(changeLogPath) : undefined, atMs: nowMs };
}

/**
 * A full walk's marks: everything logged before it began is in it, and every folder it listed. `nowMs`
 * undefined (a cold build, whose walk time is mostly reading): the walk's duration is not recorded.
 */
export function walkMarks(
  start: WalkStart,
  walk: { readonly folders: readonly WalkedFolder[]; readonly conflictCopies: readonly Locator[] },
  nowMs: number | undefined,
): MarksDelta {
  return {
    changes: start.cursor,
    folders: walkedFolderMarks(walk.folders, start.atMs),
    conflicts: conflictsByFolder(walk.conflictCopies),
    allFolders: true,
    walkedMs: start.atMs,
    walkMs: nowMs === undefined ? 0 : Math.max(0, nowMs - start.atMs),
  };
}

/** Conflict copies grouped by folder, as marks keep them (names). */
export function conflictsByFolder(copies: readonly Locator[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const copy of copies) (out[copy.parent.key] ??= []).push(copy.name);
  return out;
}

/** Every conflict copy the marks know of, as keys. */
export function conflictKeys(marks: SourceMarks): string[] {
  return Object.entries(marks.conflicts ?? {}).flatMap(([folder, names]) =>
    names.map((name) => (folder === '' ? name : `${folder}/${name}`)),
  );
}

/**
 * A full walk's marks as the change from `prev`: only the folders and conflict copies that differ (and
 * `null` for the ones gone), so that a walk of a store with thousands of folders appends a few lines to
 * the index's journal, not all of them each time. Pure.
 */
export function marksChange(prev: SourceMarks, delta: MarksDelta): MarksDelta {
  if (!delta.allFolders) return delta;
  const folders: Record<string, number | null> = {};
  for (const [key, mark] of Object.entries(delta.folders ?? {})) if (prev.folders?.[key] !== mark) folders[key] = mark;
  for (const key of Object.keys(prev.folders ?? {})) if (!(key in (delta.folders ?? {}))) folders[key] = null;
  const conflicts: Record<string, readonly string[] | null> = {};
  const next = delta.conflicts ?? {};
  for (const [key, names] of Object.entries(next))
    if (JSON.stringify(prev.conflicts?.[key] ?? []) !== JSON.stringify(names)) conflicts[key] = names;
  for (const key of Object.keys(prev.conflicts ?? {})) if (!(key in next)) conflicts[key] = null;
  return { ...delta, folders, conflicts, allFolders: false };
}
