import type { StorageBackend } from '../../seam/backend.js';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import { readChanges } from '../../write-protocol/change-log.js';
import type { MemoryLayout } from '../documents/layout.js';
import { checkFolders } from './folder-check.js';
import type { IndexState } from './index-state.js';
import { probeSources } from './probe-sources.js';
import { RACY, RACY_WINDOW_MS, type MarksDelta, type SourceMarks } from './source-marks.js';

/** What an answer must do to catch up: the files to read and remove, and the marks that brings the index to. */
export interface CaughtUp {
  readonly read: readonly string[];
  readonly infos: ReadonlyMap<string, Info>;
  readonly remove: readonly string[];
  readonly unchanged: number;
  readonly marks: MarksDelta;
  /** Nothing to read or remove, and no mark moved: nothing to apply or persist. */
  readonly empty: boolean;
}

/**
 * What changed since `marks` without walking every note: the keys AgentM's writers recorded in the
 * store's change log since the marks' cursor (each re-read whatever its stats say: the hash decides),
 * and what other programs added, removed or renamed in folders whose mtime moved (see folder-check.ts).
 * Undefined when the index lost its place in the change log (or has none): the caller walks.
 */
export async function scanChanges(
  state: IndexState,
  marks: SourceMarks,
  source: { backend: StorageBackend; layout: MemoryLayout; now: number },
): Promise<CaughtUp | undefined> {
  const log = source.backend.changeLogPath;
  if (log === undefined || marks.changes === undefined) return undefined;
  const logged = readChanges(log, marks.changes);
  if (logged.lost) return undefined;
  const folders = await checkFolders(source.backend, source.layout, state.fileTable, marks, source.now);
  const locators: Locator[] = [];
  for (const key of new Set([...logged.keys, ...folders.added])) {
    try {
      locators.push(new Locator(key));
    } catch {
      // Not a key (a damaged record that passed its sum): nothing to read.
    }
  }
  const probed = await probeSources(source.backend, source.layout, state.files, locators, { force: true });
  const remove = [...new Set([...folders.gone, ...probed.gone])];
  const cursorMoved = logged.cursor.id !== marks.changes.id || logged.cursor.offset !== marks.changes.offset;
  // A folder listed again changes the marks only when its mark or its conflict copies did (one listed too
  // soon again stays racy: nothing to persist for it).
  const foldersMoved =
    Object.entries(folders.folders).some(([key, mark]) => marks.folders?.[key] !== mark) ||
    Object.entries(folders.conflicts).some(
      ([key, names]) => JSON.stringify(marks.conflicts?.[key] ?? []) !== JSON.stringify(names ?? []),
    );
  return {
    read: probed.plan.read,
    infos: probed.infos,
    remove,
    unchanged: probed.plan.unchanged,
    marks: {
      ...(cursorMoved ? { changes: logged.cursor } : {}),
      ...(foldersMoved ? { folders: folders.folders, conflicts: folders.conflicts } : {}),
    },
    empty: probed.plan.read.length === 0 && remove.length === 0 && !cursorMoved && !foldersMoved,
  };
}

/**
 * After a full walk: what `scanChanges` finds when some folder was listed too soon after it changed to
 * trust its mtime (RACY: a walk begun right after a sync, a clone or a bulk write), so that those folders
 * are listed once more now, by the walk, rather than by every answer until the next walk. Undefined when
 * no folder is racy, or nothing is to apply.
 */
export async function racyFoldersAgain(
  state: IndexState,
  marks: SourceMarks,
  source: { backend: StorageBackend; layout: MemoryLayout; now: number },
): Promise<CaughtUp | undefined> {
  if (!Object.values(marks.folders ?? {}).includes(RACY)) return undefined;
  // Listed again less than the racy window after the walk began, a folder it found racy would still be.
  if (marks.walkedMs === undefined || source.now - marks.walkedMs < RACY_WINDOW_MS) return undefined;
  const found = await scanChanges(state, marks, source);
  return found?.empty === false ? found : undefined;
}
