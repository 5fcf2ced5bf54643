import type { IndexDocument } from '../documents/document.js';
import type { FileEntry } from './index-state.js';
import type { MarksDelta } from './source-marks.js';
import { contentHash } from '../../write-protocol/content-hash.js';

/**
 * Changes made since the last snapshot, so a one-note update appends a few kilobytes instead of
 * rewriting the whole index. Format: a header line `{"schema","snapshotId"}`, then one line per op,
 * `<16 hex: lineSum(json)>\t<json>` (journals written before 30 November 2026: the first 16 hex of
 * sha256(json), still read). A journal whose header names another snapshot (a crash
 * between writing a snapshot and clearing the journal) is ignored: its changes are in the snapshot.
 * A line that fails its checksum (a torn append) ends the journal there: the changes after it are
 * found again by the next refresh, whose walk sees mtimes the index does not know.
 */
export type JournalOp =
  | { readonly op: 'put'; readonly file: Omit<FileEntry, 'docIds'>; readonly docs: readonly IndexDocument[] }
  | { readonly op: 'touch'; readonly key: string; readonly mtimeMs: number }
  | { readonly op: 'del'; readonly key: string }
  /** What the index now knows of its sources (see source-marks.ts), written after the changes it follows. */
  | { readonly op: 'marks'; readonly marks: MarksDelta };

export interface ParsedJournal {
  readonly snapshotId: string;
  readonly ops: readonly JournalOp[];
  /** False when a torn or damaged line was dropped (the file should be rewritten before appending). */
  readonly clean: boolean;
}

/**
 * A line's checksum, which finds a torn or damaged append: 64-bit FNV-1a (two 32-bit lanes) over the
 * JSON's UTF-16 code units. Not sha256: the journal is device-local and only AgentM writes it, so there is
 * no forger to resist, and every answer verifies every line — sha256 made an answer load Node's crypto
 * (~7 ms) and hash a line of folder marks (8 KB at 10 000 notes) before it could answer. Written here
 * rather than taken from a library: ten lines, and zlib's crc32 costs a module load as well.
 */
export function lineSum(json: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** The checksum of journals written before `lineSum`: read, never written. */
const legacySum = (json: string) => contentHash(json).slice(0, 16);

export function journalHeader(schema: number, snapshotId: string): string {
  return `${JSON.stringify({ schema, snapshotId })}\n`;
}

export function journalLines(ops: readonly JournalOp[]): string {
  return ops
    .map((op) => {
      const json = JSON.stringify(op);
      return `${lineSum(json)}\t${json}\n`;
    })
    .join('');
}

/** Parses a journal; undefined when its header is unreadable or of another schema. */
export function parseJournal(text: string, schema: number): ParsedJournal | undefined {
  const lines = text.split('\n');
  let header: { schema?: unknown; snapshotId?: unknown };
  try {
    header = JSON.parse(lines[0] ?? '') as typeof header;
  } catch {
    return undefined;
  }
  if (header?.schema !== schema || typeof header.snapshotId !== 'string') return undefined;
  const ops: JournalOp[] = [];
  let clean = true;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '' && i === lines.length - 1) break;
    const tab = line.indexOf('\t');
    const json = line.slice(tab + 1);
    const given = line.slice(0, 16);
    if (tab !== 16 || (lineSum(json) !== given && legacySum(json) !== given)) {
      clean = false;
      break;
    }
    ops.push(JSON.parse(json) as JournalOp);
  }
  return { snapshotId: header.snapshotId, ops, clean };
}

/** Rough size of an op in the journal file, to decide when to fold the journal into a snapshot. */
export function opWeight(op: JournalOp): number {
  if (op.op === 'marks') return 64 + 48 * Object.keys(op.marks.folders ?? {}).length;
  if (op.op !== 'put') return 64;
  return 200 + op.docs.reduce((n, d) => n + d.text.length + d.title.length + 200, 0);
}
