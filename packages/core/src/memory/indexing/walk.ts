import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import { isTempName } from '../../write-protocol/atomic-write.js';
import { recognizeConflictName } from '../../write-protocol/conflict-names.js';
import {
  classifySource,
  DEFAULT_LAYOUT,
  shouldDescend,
  sourceRoots,
  type MemoryLayout,
  type SourceClass,
} from '../documents/layout.js';

/** A source file found under the memory root, with what the index needs to tell whether it changed. */
export interface SourceFile extends SourceClass {
  readonly locator: Locator;
  readonly mtimeMs: number;
  readonly size: number;
}

/**
 * A source file, its fields named one by one. A walk keeps one per note until it is applied; built as an
 * object spread (`{ ...cls, locator, … }`, classifications of several shapes) each took ~900 bytes in
 * V8's generic copy: at 100 000 notes a full walk allocated 372 MB (now 272 MB), a session's heap kept
 * ~140 MB of it until a full collection (now ~70 MB), and its peak RSS was ~550 MB (now ~450 MB).
 */
export function sourceFile(cls: SourceClass, locator: Locator, mtimeMs: number, size: number): SourceFile {
  return { role: cls.role, owner: cls.owner, typeDir: cls.typeDir, alwaysLoad: cls.alwaysLoad, locator, mtimeMs, size };
}

/** A folder a walk listed, with its mtime from before the listing (NaN for a root that was absent). */
export interface WalkedFolder {
  readonly key: string;
  readonly mtimeMs: number;
}

/** What a walk saw besides the sources: conflict copies (surfaced, never indexed), the folders it listed. */
export interface WalkResult {
  readonly files: SourceFile[];
  readonly conflictCopies: Locator[];
  /**
   * Every folder listed, and the roots that were absent (mtime NaN), each with the mtime it had before it
   * was listed: an entry added or removed since changes it (see folder-check.ts).
   */
  readonly folders: readonly WalkedFolder[];
  /** Folders not walked because the walk had been there already (a link cycle, or a second link to it). */
  readonly skipped: readonly { readonly locator: Locator; readonly reason: string }[];
}

export interface WalkOptions {
  /**
   * Report Markdown files that classify as sources without calling `info` (their `mtimeMs` and
   * `size` are NaN): for a reader that stats the files itself (the cold build's read workers, which
   * also report a `.md` that turns out to be a directory).
   */
  readonly deferFileInfo?: boolean;
  /** Walk these directories instead of the layout's roots. */
  readonly roots?: readonly string[];
  /**
   * Folders walked before (an earlier walk's, by their stats with `identity`): a root or link that is one
   * of them — `memory/x → .` found new by a catch-up — is skipped as a cycle or an alias, not walked again.
   */
  readonly walkedBefore?: readonly Info[];
}

/** In-flight `info` calls during a walk: enough to keep the I/O thread pool busy. */
export const WALK_CONCURRENCY = 32;

/**
 * Walks the memory and projects spaces through the backend (`list` and `info` only, never the
 * filesystem), returning every note and progress file. Skips dot-directories, temp files
 * (`isTempName`) and sync-tool conflict copies (`recognizeConflictName`, with the sibling rule for
 * the ambiguous patterns, judged among the names of the same directory).
 *
 * Each folder is walked once: where the backend tells identities (`Info.identity`), a folder seen
 * before — through a link cycle such as `memory/x → .`, or a second link to it — is skipped and
 * reported in `skipped`. Folders reached through a link are walked last, so a folder both linked and
 * present is indexed under its real path.
 */
export async function walkSources(
  backend: StorageBackend,
  layout: MemoryLayout = DEFAULT_LAYOUT,
  /** Called with each directory's sources as soon as they are known (to start reading them early). */
  onFiles?: (files: readonly SourceFile[]) => void,
  options: WalkOptions = {},
): Promise<WalkResult> {
  const files: SourceFile[] = [];
  const conflictCopies: Locator[] = [];
  const skipped: { locator: Locator; reason: string }[] = [];
  const roots: Locator[] = (options.roots ?? sourceRoots(layout)).map((root) => new Locator(root));
  const folders = new FolderVisits(backend);
  for (const before of options.walkedBefore ?? []) folders.visit(before);
  const seeded = await folders.seed(roots);
  const queue: Locator[] = [];
  const listed = new Map<string, number>();
  for (const [i, root] of roots.entries()) {
    const { mtimeMs, seen } = seeded[i]!;
    if (seen === undefined) {
      queue.push(root);
      listed.set(root.key, mtimeMs);
    } else skipped.push({ locator: root, reason: `a link to ${seen}, walked already (a cycle or an alias)` });
  }
  const linked: Info[] = [];
  for (;;) {
    let dir = queue.shift();
    while (dir === undefined && linked.length > 0) {
      const link = linked.shift()!;
      const seen = folders.visit(link);
      if (seen === undefined) {
        dir = link.locator;
        listed.set(link.locator.key, link.mtimeMs);
      } else skipped.push({ locator: link.locator, reason: `a link to ${seen}, walked already (a cycle or an alias)` });
    }
    if (dir === undefined) break;
    const children = await backend.list(dir);
    const names = new Set(children.map((c) => c.name));
    const candidates: Locator[] = [];
    const deferred: SourceFile[] = [];
    for (const child of children) {
      const name = child.name;
      if (name.startsWith('.') || isTempName(name)) continue;
      if (recognizeConflictName(name, (original) => names.has(original))) {
        conflictCopies.push(child);
        continue;
      }
      if (options.deferFileInfo && /\.md$/i.test(name)) {
        const cls = classifySource(child.key, layout);
        if (cls.role !== 'ignored') {
          deferred.push(sourceFile(cls, child, Number.NaN, Number.NaN));
          continue;
        }
      }
      candidates.push(child);
    }
    const infos = backend.infoMany
      ? await backend.infoMany(candidates)
      : await mapLimit(candidates, WALK_CONCURRENCY, async (child) => {
          try {
            return await backend.info(child);
          } catch (error) {
            if (error instanceof NotFoundError) return undefined; // deleted while we walked
            throw error;
          }
        });
    const found: SourceFile[] = deferred;
    for (const info of infos) {
      if (!info) continue;
      if (info.isDir) {
        if (!shouldDescend(info.locator.key, layout)) continue;
        if (info.isLink) linked.push(info);
        else if (folders.visit(info) === undefined) {
          queue.push(info.locator);
          listed.set(info.locator.key, info.mtimeMs);
        } else skipped.push({ locator: info.locator, reason: 'a folder walked already under another name' });
        continue;
      }
      const cls = classifySource(info.locator.key, layout);
      if (cls.role !== 'ignored') found.push(sourceFile(cls, info.locator, info.mtimeMs, info.size));
    }
    files.push(...found);
    if (found.length > 0) onFiles?.(found);
  }
  const walked = [...listed].map(([key, mtimeMs]) => ({ key, mtimeMs }));
  return { files, conflictCopies, skipped, folders: walked };
}

/** The folders a walk has been in, by identity (for backends that report one). */
class FolderVisits {
  readonly #seen = new Map<string, string>();
  constructor(private readonly backend: StorageBackend) {}

  /**
   * Records the walk's roots, so a link back to one of them is recognized; returns their mtimes (NaN:
   * absent), and for a root visited before (see `WalkOptions.walkedBefore`) the key it was visited under.
   */
  async seed(roots: readonly Locator[]): Promise<Array<{ mtimeMs: number; seen?: string }>> {
    const out: Array<{ mtimeMs: number; seen?: string }> = [];
    for (const root of roots) {
      try {
        const info = await this.backend.info(root);
        const seen = this.visit(info);
        out.push({ mtimeMs: info.isDir ? info.mtimeMs : Number.NaN, ...(seen !== undefined ? { seen } : {}) });
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        out.push({ mtimeMs: Number.NaN });
      }
    }
    return out;
  }

  /** Marks a folder visited; returns the key it was first visited under when it was already. */
  visit(info: Info): string | undefined {
    if (info.identity === undefined) return undefined;
    const first = this.#seen.get(info.identity);
    if (first !== undefined) return first;
    this.#seen.set(info.identity, info.locator.key);
    return undefined;
  }
}

/** The walk's skipped folders as report warnings. */
export function walkWarnings(walk: Pick<WalkResult, 'skipped'>): string[] {
  return walk.skipped.map((s) => `skipped ${s.locator.key}: ${s.reason}`);
}

/** Whether one locator would be indexed by a walk, given the names beside it. */
export function isIndexableName(name: string, siblings: ReadonlySet<string>): boolean {
  return (
    !name.startsWith('.') && !isTempName(name) && recognizeConflictName(name, (o) => siblings.has(o)) === undefined
  );
}

/** `Promise.all(items.map(fn))` with at most `limit` calls in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
