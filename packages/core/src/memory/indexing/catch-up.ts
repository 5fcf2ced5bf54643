import type { StorageBackend } from '../../seam/backend.js';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import { readChanges } from '../../write-protocol/change-log.js';
import type { MemoryLayout } from '../documents/layout.js';
import { checkFolders } from './folder-check.js';
import type { IndexState } from './index-state.js';
import { probeSources } from './probe-sources.js';
import type { MarksDelta, SourceMarks } from './source-marks.js';

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
  const foldersMoved = Object.keys(folders.folders).length > 0;
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
