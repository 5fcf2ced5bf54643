import type { IndexDocument } from '../documents/document.js';
import type { FileEntry } from './index-state.js';

/**
 * Changes made since the last snapshot, so a one-note update writes a few kilobytes instead of the
 * whole index. The journal names the snapshot it extends: a journal left beside a newer snapshot
 * (a crash between writing the snapshot and clearing the journal) is ignored, its changes being in
 * the snapshot already.
 */
export type JournalOp =
  | { readonly op: 'put'; readonly file: Omit<FileEntry, 'docIds'>; readonly docs: readonly IndexDocument[] }
  | { readonly op: 'touch'; readonly key: string; readonly mtimeMs: number }
  | { readonly op: 'del'; readonly key: string };

export interface Journal {
  readonly schema: number;
  readonly snapshotId: string;
  readonly ops: readonly JournalOp[];
}

/** Parses a journal; undefined when it is unreadable or not shaped like one (then it is discarded). */
export function parseJournal(text: string, schema: number): Journal | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const j = value as Partial<Journal> | null;
  if (!j || typeof j !== 'object' || j.schema !== schema || typeof j.snapshotId !== 'string' || !Array.isArray(j.ops)) return undefined;
  return j as Journal;
}

/** Rough size of an op in the journal file, to decide when to fold the journal into a snapshot. */
export function opWeight(op: JournalOp): number {
  if (op.op !== 'put') return 64;
  return 200 + op.docs.reduce((n, d) => n + d.text.length + d.title.length + 200, 0);
}
