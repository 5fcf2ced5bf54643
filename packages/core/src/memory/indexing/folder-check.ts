import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import { recognizeConflictName } from '../../write-protocol/conflict-names.js';
import { classifySource, shouldDescend, type MemoryLayout } from '../documents/layout.js';
import type { FileTable } from './file-table.js';
import { ABSENT, conflictsByFolder, folderMark, RACY, walkedFolderMarks, type SourceMarks } from './source-marks.js';
import { mapLimit, walkSources, WALK_CONCURRENCY, type SourceFile } from './walk.js';

/** What the folders say changed since they were last listed. */
export interface FolderChanges {
  /** New source files (not in the index), with their stats when a walk took them. */
  readonly added: readonly string[];
  readonly infos: ReadonlyMap<string, Info>;
  /** Indexed files that are gone from their folder (deleted, renamed away, their folder removed). */
  readonly gone: readonly string[];
  /** The folders' new marks (`null`: a folder that no longer exists). */
  readonly folders: Readonly<Record<string, number | null>>;
  /** The conflict copies of each folder listed (`null`: a folder that no longer exists). */
  readonly conflicts: Readonly<Record<string, readonly string[] | null>>;
}

/**
 * Finds the files other programs added, removed or renamed since the folders were last listed, without
 * stat-ing every note: each folder of `marks` is stat-ed, and only a folder whose mtime moved (an entry
 * was added, removed or renamed in it — a git checkout, a sync client's temp-and-rename, an editor's
 * atomic save, AgentM's own writes) is listed and compared with the index's files in it. A folder that
 * appeared is walked. An edit in place changes no folder: that is left to the revalidation walk.
 */
export async function checkFolders(
  backend: StorageBackend,
  layout: MemoryLayout,
  files: FileTable,
  marks: SourceMarks,
  nowMs: number,
): Promise<FolderChanges> {
  const known = marks.folders ?? {};
  const keys = Object.keys(known);
  const infos = await folderInfos(backend, keys);
  const added: string[] = [];
  const gone: string[] = [];
  const fileInfos = new Map<string, Info>();
  const folders: Record<string, number | null> = {};
  const conflicts: Record<string, readonly string[] | null> = {};
  const walkRoots: string[] = [];
  /** The folders whose entries changed since they were listed (or were listed too soon to tell). */
  const moved: { key: string; mtimeMs: number }[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const mark = known[key]!;
    const info = infos[i];
    if (info === undefined) {
      if (mark === ABSENT) continue; // a root that still does not exist
      // The folder is gone (or is a file now): everything indexed below it goes, and its subfolders' marks.
      gone.push(...files.keysIn(key, true));
      for (const sub of keys)
        if (sub === key || sub.startsWith(`${key}/`)) {
          folders[sub] = isRoot(sub, layout) ? ABSENT : null;
          conflicts[sub] = null;
        }
      continue;
    }
    if (mark === ABSENT) {
      walkRoots.push(key); // a root that appeared: walk it whole
      continue;
    }
    if (mark !== RACY && info.mtimeMs === mark) continue;
    moved.push({ key, mtimeMs: info.mtimeMs });
  }
  // The index's files of every folder to list, as rows, in one pass over its keys: after a sync or a fresh
  // build hundreds of folders may be listed, and a pass each, or every key decoded, would cost seconds at
  // 100 000 notes. A listed name is found by its row; only the keys of files gone are decoded.
  const indexed = files.rowsInFolders(moved.map((m) => m.key));
  for (const { key, mtimeMs } of moved) {
    const listing = await listFolder(backend, layout, key, known);
    const present = new Set<number>();
    for (const name of listing.sources) {
      const row = files.row(name);
      if (row === undefined) added.push(name);
      else present.add(row);
    }
    for (const row of indexed.get(key) ?? []) if (!present.has(row)) gone.push(files.keys.get(row)!);
    walkRoots.push(...listing.newFolders);
    folders[key] = folderMark(mtimeMs, nowMs);
    conflicts[key] = listing.conflicts;
  }
  if (walkRoots.length > 0) {
    // The folders known already are walked before: a new name that links back to one (a cycle) is skipped.
    const toWalk = new Set(walkRoots);
    const walkedBefore = infos.filter((info): info is Info => info !== undefined && !toWalk.has(info.locator.key));
    const walk = await walkSources(backend, layout, undefined, { roots: walkRoots, walkedBefore });
    for (const file of walk.files) if (files.row(file.locator.key) === undefined) noteWalked(file, added, fileInfos);
    Object.assign(folders, walkedFolderMarks(walk.folders, nowMs));
    Object.assign(conflicts, conflictsByFolder(walk.conflictCopies));
  }
  return { added: [...new Set(added)], infos: fileInfos, gone: [...new Set(gone)], folders, conflicts };
}

function noteWalked(file: SourceFile, added: string[], infos: Map<string, Info>): void {
  added.push(file.locator.key);
  infos.set(file.locator.key, { locator: file.locator, isDir: false, size: file.size, mtimeMs: file.mtimeMs });
}

function isRoot(key: string, layout: MemoryLayout): boolean {
  return key === layout.memorySpace || layout.projectSpaces.includes(key);
}

/**
 * Each folder's stats (undefined: gone, or no longer a folder). A store with a directory on this machine is
 * stat-ed directly, synchronously: a few microseconds a folder where a round trip through the I/O thread
 * pool costs a hundred on a busy machine (an answer stats every folder). Only the mtimes are compared;
 * listing and reading still go through the backend, which keeps them inside the store.
 */
async function folderInfos(backend: StorageBackend, keys: readonly string[]): Promise<(Info | undefined)[]> {
  const root = backend.localRoot;
  if (root === undefined) return mapLimit(keys, WALK_CONCURRENCY, (key) => folderInfo(backend, key));
  return keys.map((key) => {
    const locator = new Locator(key);
    const st = statSync(locator.isRoot ? root : join(root, ...locator.parts), { throwIfNoEntry: false });
    return st?.isDirectory()
      ? { locator, isDir: true, size: 0, mtimeMs: st.mtimeMs, identity: `${st.dev}:${st.ino}` }
      : undefined;
  });
}

/** A folder's stats, or undefined when it is gone or no longer a folder. */
async function folderInfo(backend: StorageBackend, key: string): Promise<Info | undefined> {
  try {
    const info = await backend.info(new Locator(key));
    return info.isDir ? info : undefined;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * A changed folder's source files (keys) as a walk would index them, its conflict copies (names), and its
 * subfolders that no mark knows (new ones, to be walked). Markdown names are taken as files without a stat (reading them tells);
 * other names are stat-ed only when they might be a new folder.
 */
async function listFolder(
  backend: StorageBackend,
  layout: MemoryLayout,
  key: string,
  known: Readonly<Record<string, number>>,
): Promise<{ sources: string[]; newFolders: string[]; conflicts: string[] }> {
  const children = await backend.list(new Locator(key));
  const names = new Set(children.map((c) => c.name));
  const sources: string[] = [];
  const conflicts: string[] = [];
  const maybeFolders: Locator[] = [];
  for (const child of children) {
    const name = child.name;
    if (name.startsWith('.')) continue;
    if (recognizeConflictName(name, (original) => names.has(original))) {
      conflicts.push(name);
      continue;
    }
    if (/\.md$/i.test(name)) {
      if (classifySource(child.key, layout).role !== 'ignored') sources.push(child.key);
    } else if (known[child.key] === undefined && shouldDescend(child.key, layout)) maybeFolders.push(child);
  }
  const infos = await mapLimit(maybeFolders, WALK_CONCURRENCY, (child) => folderInfo(backend, child.key));
  const newFolders = maybeFolders.filter((_, i) => infos[i] !== undefined).map((c) => c.key);
  return { sources, newFolders, conflicts };
}
