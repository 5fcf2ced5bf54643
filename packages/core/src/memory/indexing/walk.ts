import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import { Locator } from '../../seam/locator.js';
import { isTempName } from '../../protocol/atomic-write.js';
import { recognizeConflictName } from '../../protocol/conflict-names.js';
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

/** What a walk saw besides the sources: conflict copies (surfaced, never indexed). */
export interface WalkResult {
  readonly files: SourceFile[];
  readonly conflictCopies: Locator[];
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
}

/** In-flight `info` calls during a walk: enough to keep the I/O thread pool busy. */
export const WALK_CONCURRENCY = 32;

/**
 * Walks the memory and projects spaces through the backend (`list` and `info` only, never the
 * filesystem), returning every note and progress file. Skips dot-directories, temp files
 * (`isTempName`) and sync-tool conflict copies (`recognizeConflictName`, with the sibling rule for
 * the ambiguous patterns, judged among the names of the same directory).
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
  const queue: Locator[] = (options.roots ?? sourceRoots(layout)).map((root) => new Locator(root));
  while (queue.length > 0) {
    const dir = queue.shift()!;
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
          deferred.push({ ...cls, locator: child, mtimeMs: Number.NaN, size: Number.NaN });
          continue;
        }
      }
      candidates.push(child);
    }
    const infos = await mapLimit(candidates, WALK_CONCURRENCY, async (child) => {
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
        if (shouldDescend(info.locator.key, layout)) queue.push(info.locator);
        continue;
      }
      const cls = classifySource(info.locator.key, layout);
      if (cls.role !== 'ignored') found.push({ ...cls, locator: info.locator, mtimeMs: info.mtimeMs, size: info.size });
    }
    files.push(...found);
    if (found.length > 0) onFiles?.(found);
  }
  return { files, conflictCopies };
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
