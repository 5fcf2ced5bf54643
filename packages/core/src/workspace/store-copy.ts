import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StorageBackend } from '../seam/backend.js';
import { AgentMError, EXIT_USAGE } from '../seam/errors.js';
import { withBackendLock } from '../seam/backend-lock.js';
import { NotFoundError } from '../seam/errors.js';
import type { Info } from '../seam/info.js';
import type { Locator } from '../seam/locator.js';
import { isTempName } from '../write-protocol/atomic-write.js';
import { contentHash } from '../write-protocol/content-hash.js';
import { ConcurrentModificationError } from '../write-protocol/errors.js';
import { folderStore } from '../backends/builtins.js';
import type { WorkspaceContext } from './context.js';

/**
 * Files copied per transaction (a database target commits each batch at once), and batches in flight
 * into a database (into a folder, one: its vault lock lets one batch in at a time, and batches queued
 * behind it would only spend their lock timeout waiting).
 */
export const COPY_BATCH = 200;
const COPY_CONCURRENCY = 4;
const batchesInFlight = (target: { readonly localRoot: string | undefined }) =>
  target.localRoot === undefined ? COPY_CONCURRENCY : 1;

/** How `copyStore` left each file. */
export interface CopyReport {
  /** Files found to copy. */
  readonly total: number;
  /** Written (absent at the target before). */
  readonly copied: number;
  /** Replaced at the target (it differed; only with `replaceDiffering`). */
  readonly replaced: number;
  /** Already byte-identical at the target (a re-run, or a resumed one). */
  readonly unchanged: number;
  /** Different at the target and left as they were (without `replaceDiffering`). */
  readonly differing: readonly string[];
  /** Not copied, and why (not UTF-8 text: the stores hold text). */
  readonly skipped: readonly { readonly key: string; readonly reason: string }[];
}

export interface CopyOptions {
  /** Replace files that differ at the target (a compare-and-swap on what was there); else leave and list them. */
  readonly replaceDiffering?: boolean;
  /** Told after each batch: files done so far of `total`. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Every file of a store, sorted by key: from its change feed in one query when it has one, else by
 * walking it (`list` and `info`). Dot-named entries (`.obsidian`, `.git`, `.trash`) and writers' temp
 * files are left out; everything else is a file of the store, conflict copies included.
 */
export async function storeFiles(store: StorageBackend): Promise<Info[]> {
  const feed = store.changeFeed;
  const files: Info[] = [];
  if (feed) {
    for (const change of (await feed.changedSince(undefined)).changes)
      if (change.info && !change.locator.parts.some(hidden)) files.push(change.info);
  } else {
    const queue = [store.resolve()];
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      for (const child of await store.list(dir)) {
        if (hidden(child.name)) continue;
        const info = await store.info(child).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined; // gone meanwhile
          throw error;
        });
        if (info?.isDir) queue.push(child);
        else if (info) files.push(info);
      }
    }
  }
  return files.sort((a, b) => (a.locator.key < b.locator.key ? -1 : a.locator.key > b.locator.key ? 1 : 0));
}

function hidden(name: string): boolean {
  return name.startsWith('.') || isTempName(name);
}

/**
 * Copies every file of `from` to the same key in `to`, byte for byte: the export of a database store to
 * a vault folder and the import of a vault into one. Idempotent and resumable: a file already identical
 * at the target is left alone, so running it again after an interruption finishes the job; a file absent
 * there is written only if it is still absent (`expectHash: null`). A file that differs at the target is
 * kept and listed (`differing`) unless `replaceDiffering`, which replaces it by compare-and-swap on what
 * was read, so a write that lands meanwhile is never lost. Batches of `COPY_BATCH` files go in one
 * `withLock` each (one transaction on a database). A file that is not UTF-8 text is skipped and listed.
 */
export async function copyStore(
  from: StorageBackend,
  to: StorageBackend,
  options: CopyOptions = {},
  inFlight = COPY_CONCURRENCY,
): Promise<CopyReport> {
  const files = await storeFiles(from);
  const counts = { copied: 0, replaced: 0, unchanged: 0 };
  const differing: string[] = [];
  const skipped: { key: string; reason: string }[] = [];
  type Outcome = 'copied' | 'replaced' | 'unchanged' | 'differing' | 'skipped';
  const copyOne = async (info: Info): Promise<Outcome> => {
    const text = await from.read(info.locator);
    if (Buffer.byteLength(text, 'utf8') !== info.size) return 'skipped';
    const there = await readOrUndefined(to, info.locator);
    if (there === text) return 'unchanged';
    if (there === undefined) {
      await to.write(info.locator, text, { expectHash: null });
      return 'copied';
    }
    if (!options.replaceDiffering) return 'differing';
    await to.write(info.locator, text, { expectHash: contentHash(there) });
    return 'replaced';
  };
  const batches: Info[][] = [];
  for (let i = 0; i < files.length; i += COPY_BATCH) batches.push(files.slice(i, i + COPY_BATCH));
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      // Outcomes count once the batch is in: a batch done again after a lost race is judged anew.
      const outcomes = await withRetryOnConflict(() =>
        withBackendLock(to, async () => {
          const out: Outcome[] = [];
          for (const info of batch) out.push(await copyOne(info));
          return out;
        }),
      );
      outcomes.forEach((outcome, i) => {
        const key = batch[i]!.locator.key;
        if (outcome === 'differing') differing.push(key);
        else if (outcome === 'skipped')
          skipped.push({ key, reason: 'not UTF-8 text (the stores hold text); copy it by hand' });
        else counts[outcome]++;
      });
      done += batch.length;
      options.onProgress?.(done, files.length);
    }
  };
  options.onProgress?.(0, files.length);
  await Promise.all(Array.from({ length: Math.min(inFlight, batches.length) }, worker));
  skipped.sort((a, b) => (a.key < b.key ? -1 : 1));
  return { total: files.length, ...counts, differing: differing.sort(), skipped };
}

/**
 * A batch that lost a race (another writer created or changed one of its files meanwhile) is done
 * again from fresh reads: on a database nothing of it was kept, and each file is judged anew.
 */
async function withRetryOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError) || attempt >= 5) throw error;
    }
  }
}

async function readOrUndefined(store: StorageBackend, locator: Locator): Promise<string | undefined> {
  try {
    return await store.read(locator);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** An export or import that cannot start: the folder is missing, not a memory root, or the store itself. */
export class StoreTransferError extends AgentMError {
  override readonly exitCode: number = EXIT_USAGE;
  constructor(message: string) {
    super(message, { code: 'ETRANSFER' });
  }
}

function sameFolder(a: string | undefined, b: string): boolean {
  return a !== undefined && resolve(a) === resolve(b);
}

/**
 * Writes the workspace's store into `folder` as a vault's memory root (the vault layout: `memory/`,
 * `desk/projects/…/_harness/PLAN.md`, `_meta/repos.json`), every note byte-identical, under the vault
 * lock of that folder (see `copyStore`; files that differ there are replaced, since an export is the
 * store's view). The folder is created when missing; it cannot be the store's own root.
 */
export async function exportStore(
  ws: WorkspaceContext,
  folder: string,
  options: CopyOptions = {},
): Promise<CopyReport> {
  if (sameFolder(ws.localRoot, folder))
    throw new StoreTransferError(`${folder} is the store itself: export to another folder`);
  const target = folderStore(resolve(folder), { lockRoot: ws.lockRoot });
  return copyStore(ws.backend, target, { replaceDiffering: true, ...options }, batchesInFlight({ localRoot: folder }));
}

/**
 * Loads a vault's memory root (`folder`, the one holding `memory/`, `desk/` or `_meta/`) into the
 * workspace's store (see `copyStore`): idempotent and resumable; files that differ in the store are kept
 * and listed unless `replaceDiffering`. Throws `StoreTransferError` for a folder that is missing, does
 * not look like a memory root, or is the store itself.
 */
export async function importStore(
  ws: WorkspaceContext,
  folder: string,
  options: CopyOptions = {},
): Promise<CopyReport> {
  const root = resolve(folder);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory())
    throw new StoreTransferError(
      `${folder} is not a folder: give the vault's memory root (the folder holding memory/ and desk/)`,
    );
  if (sameFolder(ws.localRoot, root)) throw new StoreTransferError(`${folder} is the store itself: nothing to import`);
  const tops = new Set([ws.layout.memorySpace, ...ws.layout.projectSpaces, '_meta'].map((p) => p.split('/')[0]!));
  if (![...tops].some((top) => statSync(resolve(root, top), { throwIfNoEntry: false })?.isDirectory()))
    throw new StoreTransferError(
      `${folder} does not look like a memory root (none of ${[...tops].join(', ')} is in it): give the folder that holds ` +
        "them — with Obsidian, the vault's agent folder (plugins.obsidian-vault.memory_root, e.g. <vault>/Agent)",
    );
  const source = folderStore(root, { lockRoot: ws.lockRoot, createRoot: false });
  return copyStore(source, ws.backend, options, batchesInFlight(ws));
}
