import { createHash } from 'node:crypto';
import { Postings } from './bm25.js';
import { IndexState, type FileEntry, type StoredDoc } from './index-state.js';

/**
 * The snapshot file format. Bump SCHEMA whenever the layout, the analyzer (tokenize.ts) or the
 * document model changes: an index of another schema is rebuilt, never misread.
 *
 *   "AGMIDX\n\0" | u32 schema | u32 header length | header JSON | postings | sha256 of all before
 *
 * Postings follow the header's term list: per term a varint count, then (slot delta, tf) varints.
 */
// 2: progress entries that are the harness's bookkeeping are no longer episodes (documents/bookkeeping.ts).
export const INDEX_SCHEMA_VERSION = 2;
const MAGIC = Buffer.from('AGMIDX\n\0', 'latin1');

type FileTuple = [key: string, mtimeMs: number, size: number, hash: string, docIds: string[] | 0];
type DocTuple = [
  id: string,
  /** 0 when the locator is the id (every note): a tenth of the header at 100 000 notes. */
  locator: string | 0,
  owner: string,
  kind: string,
  status: string,
  tags: readonly string[],
  alwaysLoad: 0 | 1,
  createdMs: number,
  updatedMs: number,
  title: string,
  preview: string,
  fingerprint: string,
  derivedFrom: readonly string[],
  confidence: number | null,
  length: number,
];

interface Header {
  readonly schema: number;
  readonly root: string;
  readonly snapshotId: string;
  readonly builtMs: number;
  readonly files: FileTuple[];
  readonly docs: DocTuple[];
  readonly terms: string[];
  /** Total postings, so a load decodes into two arrays instead of one pair per term. */
  readonly postingCount: number;
}

export interface SnapshotMeta {
  readonly root: string;
  readonly snapshotId: string;
  readonly builtMs: number;
}

/** Thrown by `decodeSnapshot`; the caller maps it to a rebuild. */
export class SnapshotDecodeError extends Error {
  constructor(
    readonly reason: 'corrupt' | 'outdated',
    message: string,
  ) {
    super(message);
  }
}

/** Serializes a compacted state (every slot live, slots 0..n-1). */
export function encodeSnapshot(state: IndexState, meta: SnapshotMeta): Buffer {
  state.compact();
  const files: FileTuple[] = [...state.files.values()].map((f) => [
    f.key,
    f.mtimeMs,
    f.size,
    f.hash,
    f.docIds.length === 1 && f.docIds[0] === f.key ? 0 : [...f.docIds],
  ]);
  const docs: DocTuple[] = [];
  for (let slot = 0; slot < state.bm25.slotCount; slot++) {
    const d = state.bySlot[slot]!;
    docs.push([
      d.id,
      d.locator === d.id ? 0 : d.locator,
      d.owner,
      d.kind,
      d.status,
      d.tags,
      d.alwaysLoad ? 1 : 0,
      d.createdMs,
      d.updatedMs,
      d.title,
      d.preview,
      d.fingerprint,
      d.derivedFrom,
      d.confidence ?? null,
      state.bm25.lengths[slot]!,
    ]);
  }
  const terms = state.bm25.termList;
  const postingCount = state.bm25.postings.reduce((n, p) => n + p.length, 0);
  const header = Buffer.from(
    JSON.stringify({ schema: INDEX_SCHEMA_VERSION, ...meta, files, docs, terms, postingCount } satisfies Header),
    'utf8',
  );
  const body = new VarintWriter(1 << 16);
  for (const p of state.bm25.postings) {
    body.write(p.length);
    let prev = 0;
    p.forEachSegment((slots, tfs, entries) => {
      for (let i = 0; i < entries; i++) {
        body.write(slots[i]! - prev);
        prev = slots[i]!;
        body.write(tfs[i]!);
      }
    });
  }
  const fixed = Buffer.alloc(8);
  fixed.writeUInt32LE(INDEX_SCHEMA_VERSION, 0);
  fixed.writeUInt32LE(header.length, 4);
  // One allocation for the whole file (a 100 000-note index is ~100 MB: no second copy for the checksum).
  const parts = [MAGIC, fixed, header, body.bytes()];
  const length = parts.reduce((n, p) => n + p.length, 0);
  const out = Buffer.allocUnsafe(length + 32);
  let at = 0;
  for (const part of parts) at += Buffer.from(part.buffer, part.byteOffset, part.length).copy(out, at);
  createHash('sha256').update(out.subarray(0, length)).digest().copy(out, length);
  return out;
}

/** Reads a snapshot; throws `SnapshotDecodeError` (corrupt or outdated) rather than returning a wrong index. */
export function decodeSnapshot(bytes: Buffer): { state: IndexState; meta: SnapshotMeta } {
  if (bytes.length < MAGIC.length + 8 + 32 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new SnapshotDecodeError('corrupt', 'not an AgentM index file');
  }
  const schema = bytes.readUInt32LE(MAGIC.length);
  if (schema !== INDEX_SCHEMA_VERSION)
    throw new SnapshotDecodeError('outdated', `schema ${schema}, this AgentM reads schema ${INDEX_SCHEMA_VERSION}`);
  const payload = bytes.subarray(0, bytes.length - 32);
  if (
    !createHash('sha256')
      .update(payload)
      .digest()
      .equals(bytes.subarray(bytes.length - 32))
  ) {
    throw new SnapshotDecodeError('corrupt', 'checksum mismatch (a torn or damaged file)');
  }
  const headerLength = bytes.readUInt32LE(MAGIC.length + 4);
  const headerStart = MAGIC.length + 8;
  let header: Header;
  try {
    header = JSON.parse(payload.subarray(headerStart, headerStart + headerLength).toString('utf8')) as Header;
  } catch (error) {
    throw new SnapshotDecodeError('corrupt', `unreadable header (${(error as Error).message})`);
  }
  const state = new IndexState();
  for (const [key, mtimeMs, size, hash, ids] of header.files)
    state.files.set(key, { key, mtimeMs, size, hash, docIds: ids === 0 ? [key] : ids } satisfies FileEntry);
  for (const t of header.docs) {
    const slot = state.bm25.addSlot(t[14]);
    const doc: StoredDoc = {
      id: t[0],
      locator: t[1] === 0 ? t[0] : t[1],
      owner: t[2],
      kind: t[3],
      status: t[4],
      tags: t[5],
      alwaysLoad: t[6] === 1,
      createdMs: t[7],
      updatedMs: t[8],
      title: t[9],
      preview: t[10],
      fingerprint: t[11],
      derivedFrom: t[12],
      confidence: t[13] ?? undefined,
      slot,
    };
    state.adopt(doc);
  }
  const reader = new VarintReader(payload, headerStart + headerLength);
  const total = header.postingCount;
  if (!Number.isInteger(total) || total < 0) throw new SnapshotDecodeError('corrupt', 'no posting count');
  const slots = new Int32Array(total);
  const tfs = new Uint16Array(total);
  let at = 0;
  for (const term of header.terms) {
    const n = reader.read();
    if (at + n > total) throw new SnapshotDecodeError('corrupt', 'more postings than the header says');
    const begin = at;
    let slot = 0;
    for (let i = 0; i < n; i++) {
      slot += reader.read();
      slots[at] = slot;
      tfs[at++] = reader.read();
    }
    const id = state.bm25.internTerm(term, 0);
    state.bm25.postings[id] = Postings.view(slots.subarray(begin, at), tfs.subarray(begin, at));
  }
  if (at !== total) throw new SnapshotDecodeError('corrupt', 'fewer postings than the header says');
  if (reader.offset !== payload.length) throw new SnapshotDecodeError('corrupt', 'postings do not match the header');
  return { state, meta: { root: header.root, snapshotId: header.snapshotId, builtMs: header.builtMs } };
}

class VarintWriter {
  #buf: Uint8Array;
  #n = 0;
  constructor(capacity: number) {
    this.#buf = new Uint8Array(capacity);
  }
  write(value: number): void {
    if (this.#n + 5 > this.#buf.length) {
      const next = new Uint8Array(this.#buf.length * 2);
      next.set(this.#buf);
      this.#buf = next;
    }
    let v = value >>> 0;
    while (v >= 0x80) {
      this.#buf[this.#n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#buf[this.#n++] = v;
  }
  bytes(): Buffer {
    return Buffer.from(this.#buf.buffer, this.#buf.byteOffset, this.#n);
  }
}

class VarintReader {
  constructor(
    private readonly buf: Uint8Array,
    public offset: number,
  ) {}
  read(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.offset >= this.buf.length) throw new SnapshotDecodeError('corrupt', 'postings end early');
      const byte = this.buf[this.offset++]!;
      result |= (byte & 0x7f) << shift;
      if (byte < 0x80) return result >>> 0;
      shift += 7;
      if (shift > 28) throw new SnapshotDecodeError('corrupt', 'bad varint');
    }
  }
}
