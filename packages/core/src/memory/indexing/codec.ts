import { endianness } from 'node:os';
import type { PackedRows } from './columns.js';
import type { FrozenDocs } from './doc-store.js';
import type { FrozenFiles } from './file-table.js';
import { IndexState } from './index-state.js';
import { compactParts, type CompactParts } from './snapshot-parts.js';
import { marksFromJson, type SourceMarks } from './source-marks.js';
import { pageIn, SnapshotFile } from './snapshot-pages.js';
import type { FrozenTerms } from './term-table.js';
import { TermTable } from './term-table.js';
import { nodeCrypto } from '../../write-protocol/content-hash.js';

/**
 * The snapshot file format. Bump SCHEMA whenever the layout, the analyzer (tokenize.ts, the searchable
 * fields) or the document model changes: an index of another schema is rebuilt, never misread.
 *
 *   "AGMIDX\n\0" | u32 schema | u32 header length | header JSON | sections | sha256 of all before
 *
 * The header (small: counts, symbol tables, section offsets) is the only thing parsed on load. The
 * sections are typed arrays in the machine's byte order, each 8-byte aligned, so a loaded index is the
 * file's bytes viewed in place: opening it decodes no document, term or posting.
 */
// 2: progress entries that are the harness's bookkeeping are no longer episodes (documents/bookkeeping.ts).
// 3: typed sections opened in place (columns, term and file tables), searchable file names.
// 4: Porter stemming and camel-case identifiers split (tokenize.ts); postings carry field flags (title,
//    slug, tags, headings) beside the text's term frequency; a made-up title is no field.
// 5: source marks (change-log cursor, folder mtimes, last walk) in the header and `marks` journal ops.
// 6: the terms' order (`terms.order`), for prefix matches without reading the whole dictionary.
// 7: the stemmer is the `porter2` package (Snowball English, as before; it stems a handful of words the
//    earlier package got wrong, e.g. naysayer → naysay, and keeps Snowball's invariant `howe`).
export const INDEX_SCHEMA_VERSION = 7;
const MAGIC = Buffer.from('AGMIDX\n\0', 'latin1');
const PREFIX = MAGIC.length + 8;

/** Section name → [offset from the first section, byte length]. */
type SectionTable = Record<string, [number, number]>;

interface Header {
  readonly schema: number;
  readonly endianness: string;
  readonly root: string;
  readonly snapshotId: string;
  readonly builtMs: number;
  readonly docs: number;
  readonly files: number;
  readonly terms: number;
  readonly owners: readonly string[];
  readonly kinds: readonly string[];
  readonly statuses: readonly string[];
  readonly sections: SectionTable;
  readonly marks?: unknown;
}

export interface SnapshotMeta {
  readonly root: string;
  readonly snapshotId: string;
  readonly builtMs: number;
  /** What the index knew of its sources when the snapshot was written. */
  readonly marks?: SourceMarks | undefined;
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

/** A section's bytes: an array's, or rows encoded as they are written. */
type SectionData = Uint8Array | PackedRows;

/**
 * Serializes a state, leaving dead slots, replaced files and unused terms out, as chunks to write one
 * after the other, produced as they are consumed: the arrays are written from where they are, the
 * records encoded a chunk at a time, never all in one buffer. The last chunk is the checksum. What
 * the state may still change in place is captured here, before the first chunk is asked for.
 */
export function encodeSnapshot(state: IndexState, meta: SnapshotMeta): Iterable<Uint8Array> {
  const parts = compactParts(state);
  const sections: [string, SectionData][] = [
    ['docs.owner', bytes(parts.docs.owner)],
    ['docs.kind', bytes(parts.docs.kind)],
    ['docs.status', bytes(parts.docs.status)],
    ['docs.created', bytes(parts.docs.created)],
    ['docs.updated', bytes(parts.docs.updated)],
    ['docs.confidence', bytes(parts.docs.confidence)],
    ['docs.length', bytes(parts.lengths)],
    ['docs.flags', parts.docs.flags],
    ['docs.recordOffsets', bytes(parts.docs.records.offsets)],
    ['docs.records', parts.docs.records],
    ['files.mtime', bytes(parts.files.mtime)],
    ['files.size', bytes(parts.files.size)],
    ['files.firstSlot', bytes(parts.files.firstSlot)],
    ['files.docCount', bytes(parts.files.docCount)],
    ['files.hash', parts.files.hash],
    ['files.keyOffsets', bytes(parts.files.keys.offsets)],
    ['files.keys', parts.files.keys],
    ['files.keyTable', bytes(parts.files.keyTable)],
    ['terms.offsets', bytes(parts.terms.offsets)],
    ['terms.blob', parts.terms.blob],
    ['terms.table', bytes(parts.terms.table)],
    ['terms.order', bytes(parts.terms.order)],
    ['postings.start', bytes(parts.block.start)],
    ['postings.slots', bytes(parts.block.slots)],
    ['postings.tfs', bytes(parts.block.tfs)],
  ];
  const table: SectionTable = {};
  let at = 0;
  for (const [name, data] of sections) {
    table[name] = [at, data.byteLength];
    at = align8(at + data.byteLength);
  }
  const header: Header = {
    schema: INDEX_SCHEMA_VERSION,
    endianness: endianness(),
    ...meta,
    docs: parts.lengths.length,
    files: parts.files.mtime.length,
    terms: parts.terms.offsets.length - 1,
    owners: parts.docs.owners,
    kinds: parts.docs.kinds,
    statuses: parts.docs.statuses,
    sections: table,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headLength = align8(PREFIX + json.length);
  const head = Buffer.alloc(headLength);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(INDEX_SCHEMA_VERSION, MAGIC.length);
  head.writeUInt32LE(json.length, MAGIC.length + 4);
  json.copy(head, PREFIX);
  return chunks(head, sections);
}

function* chunks(head: Uint8Array, sections: readonly [string, SectionData][]): Generator<Uint8Array> {
  const hash = nodeCrypto().createHash('sha256');
  const emit = (chunk: Uint8Array) => (hash.update(chunk), chunk);
  yield emit(head);
  for (const [, data] of sections) {
    // ArrayBuffer.isView, not instanceof: a test environment (happy-dom) may bring its own Uint8Array.
    if (ArrayBuffer.isView(data)) yield emit(data);
    else for (const chunk of data.chunks()) yield emit(chunk);
    const pad = align8(data.byteLength) - data.byteLength;
    if (pad > 0) yield emit(new Uint8Array(pad));
  }
  yield hash.digest();
}

/**
 * Reads a snapshot held whole in memory; throws `SnapshotDecodeError` (corrupt or outdated) rather than
 * returning a wrong index. `verify: false` skips the checksum of the whole file and keeps the structural
 * checks (magic, schema, header, every section in bounds and the counts agreeing).
 */
export function decodeSnapshot(
  file: Uint8Array,
  options: { readonly verify?: boolean } = {},
): { state: IndexState; meta: SnapshotMeta } {
  // Typed views need 8-byte alignment: a pooled small Buffer may not have it (Buffer.alloc never pools).
  const data =
    file.byteOffset % 8 === 0
      ? Buffer.from(file.buffer, file.byteOffset, file.byteLength)
      : Buffer.alloc(file.byteLength).fill(file);
  const head = readHead(data, data.length);
  const end = data.length - 32;
  if (
    options.verify !== false &&
    !nodeCrypto().createHash('sha256').update(data.subarray(0, end)).digest().equals(data.subarray(end))
  )
    throw new SnapshotDecodeError('corrupt', 'checksum mismatch (a torn or damaged file)');
  return assemble(head, end, (position, length) => data.subarray(position, position + length));
}

/**
 * Opens the snapshot file at `path` without reading its sections: they are paged in as recall touches
 * them (see snapshot-pages.ts). The checks are `decodeSnapshot`'s; the checksum (unless `verify:
 * false`, an answer's open, where the background refresh verifies the file whole) is computed by
 * streaming the file through one small buffer, so verifying costs no memory the size of the index.
 * `uncounted`: the sections' memory is not counted by V8 (a short-lived process's; see `SnapshotFile`).
 * Throws `SnapshotDecodeError`, or the file system's error (ENOENT when there is no snapshot).
 */
export function openSnapshot(
  path: string,
  options: { readonly verify?: boolean; readonly uncounted?: boolean } = {},
): { state: IndexState; meta: SnapshotMeta } {
  const file = new SnapshotFile(path, options.uncounted === true);
  try {
    const size = file.size;
    const first = Buffer.alloc(Math.min(size, HEAD_BYTES));
    file.read(first, 0, first.length, 0);
    let headBytes: Buffer = first;
    if (size >= PREFIX && first.subarray(0, MAGIC.length).equals(MAGIC)) {
      const want = Math.min(size, PREFIX + first.readUInt32LE(MAGIC.length + 4));
      if (want > first.length) {
        headBytes = Buffer.alloc(want);
        file.read(headBytes, 0, want, 0);
      }
    }
    const head = readHead(headBytes, size);
    const end = size - 32;
    if (options.verify !== false) verifyStreaming(file, end);
    file.region(head.base, Math.max(head.base, end));
    return assemble(head, end, (position, length) => file.section(position, length), file);
  } catch (error) {
    file.close();
    throw error;
  }
}

/** The first read of a snapshot: the prefix and, in all but huge vaults, the whole header. */
const HEAD_BYTES = 64 * 1024;

/** The checksum of bytes `0..end` against the 32 after them, read 4 MiB at a time. */
function verifyStreaming(file: SnapshotFile, end: number): void {
  const hash = nodeCrypto().createHash('sha256');
  // 4 MiB: reading 1 MiB at a time cost as much as hashing (page-cache copies in small reads), 16 MiB more.
  const chunk = Buffer.allocUnsafe(Math.min(end, 4 << 20));
  for (let at = 0; at < end; at += chunk.length) {
    const n = Math.min(chunk.length, end - at);
    file.read(chunk, 0, n, at);
    hash.update(chunk.subarray(0, n));
  }
  const stored = Buffer.alloc(32);
  file.read(stored, 0, 32, end);
  if (!hash.digest().equals(stored))
    throw new SnapshotDecodeError('corrupt', 'checksum mismatch (a torn or damaged file)');
}

interface Head {
  readonly header: Header;
  /** Where the first section starts in the file. */
  readonly base: number;
}

/** Magic, schema, header and byte order, from the file's first bytes (`size`: the whole file's). */
function readHead(data: Buffer, size: number): Head {
  if (size < PREFIX + 32 || data.length < PREFIX || !data.subarray(0, MAGIC.length).equals(MAGIC))
    throw new SnapshotDecodeError('corrupt', 'not an AgentM index file');
  const schema = data.readUInt32LE(MAGIC.length);
  if (schema !== INDEX_SCHEMA_VERSION)
    throw new SnapshotDecodeError('outdated', `schema ${schema}, this AgentM reads schema ${INDEX_SCHEMA_VERSION}`);
  const jsonLength = data.readUInt32LE(MAGIC.length + 4);
  if (PREFIX + jsonLength > data.length) throw new SnapshotDecodeError('corrupt', 'the header runs past the file');
  let header: Header;
  try {
    header = JSON.parse(data.toString('utf8', PREFIX, PREFIX + jsonLength)) as Header;
  } catch (error) {
    throw new SnapshotDecodeError('corrupt', `unreadable header (${(error as Error).message})`);
  }
  if (header.endianness !== endianness())
    throw new SnapshotDecodeError('outdated', `written on a ${header.endianness} machine, this one is ${endianness()}`);
  return { header, base: align8(PREFIX + jsonLength) };
}

/**
 * The state over the sections `bytesAt(position, length)` gives (views of a whole file, or paged
 * sections of an open one), every section checked against the file's bounds and the header's counts.
 */
function assemble(
  { header, base }: Head,
  end: number,
  bytesAt: (position: number, length: number) => Uint8Array,
  file?: SnapshotFile,
): { state: IndexState; meta: SnapshotMeta } {
  const view = <T>(
    name: string,
    make: (buffer: ArrayBufferLike, offset: number, length: number) => T,
    size: number,
  ): T => {
    const entry = header.sections?.[name];
    if (!entry) throw new SnapshotDecodeError('corrupt', `no ${name} section`);
    const [offset, length] = entry;
    if (base + offset + length > end || length % size !== 0 || (base + offset) % size !== 0)
      throw new SnapshotDecodeError('corrupt', `the ${name} section is out of bounds`);
    const bytes = bytesAt(base + offset, length);
    return make(bytes.buffer, bytes.byteOffset, length / size);
  };
  const i32 = (name: string) => view(name, (b, o, n) => new Int32Array(b, o, n), 4);
  const u32 = (name: string) => view(name, (b, o, n) => new Uint32Array(b, o, n), 4);
  const f64 = (name: string) => view(name, (b, o, n) => new Float64Array(b, o, n), 8);
  const u16 = (name: string) => view(name, (b, o, n) => new Uint16Array(b, o, n), 2);
  const u8 = (name: string) => view(name, (b, o, n) => new Uint8Array(b, o, n), 1);
  const docs: FrozenDocs = {
    owners: header.owners,
    kinds: header.kinds,
    statuses: header.statuses,
    owner: i32('docs.owner'),
    kind: i32('docs.kind'),
    status: i32('docs.status'),
    flags: u8('docs.flags'),
    created: f64('docs.created'),
    updated: f64('docs.updated'),
    confidence: f64('docs.confidence'),
    records: { blob: u8('docs.records'), offsets: u32('docs.recordOffsets') },
  };
  const files: FrozenFiles = {
    keys: { blob: u8('files.keys'), offsets: u32('files.keyOffsets') },
    keyTable: i32('files.keyTable'),
    mtime: f64('files.mtime'),
    size: f64('files.size'),
    hash: u8('files.hash'),
    firstSlot: i32('files.firstSlot'),
    docCount: i32('files.docCount'),
  };
  const terms: FrozenTerms = {
    blob: u8('terms.blob'),
    offsets: u32('terms.offsets'),
    table: i32('terms.table'),
    order: i32('terms.order'),
  };
  const block = { start: i32('postings.start'), slots: i32('postings.slots'), tfs: u16('postings.tfs') };
  const lengths = u32('docs.length');
  check(header, docs, files, terms, block, lengths);
  const state = new IndexState({ bm25: { terms: new TermTable(terms), block, lengths }, docs, files, file });
  const marks = marksFromJson(header.marks);
  return { state, meta: { root: header.root, snapshotId: header.snapshotId, builtMs: header.builtMs, marks } };
}

/** Counts that must agree (the checksum catches damage; this catches a writer's mistake). */
function check(
  header: Header,
  docs: FrozenDocs,
  files: FrozenFiles,
  terms: FrozenTerms,
  block: CompactParts['block'],
  lengths: Uint32Array,
): void {
  const n = header.docs;
  pageIn(docs.records.offsets, n, n + 1);
  pageIn(block.start, header.terms, header.terms + 1);
  const ok =
    [docs.owner, docs.kind, docs.status, docs.flags, docs.created, docs.updated, docs.confidence, lengths].every(
      (c) => c.length === n,
    ) &&
    docs.records.offsets.length === n + 1 &&
    docs.records.offsets[n] === docs.records.blob.length &&
    [files.mtime, files.size, files.firstSlot, files.docCount].every((c) => c.length === header.files) &&
    files.hash.length === header.files * 32 &&
    files.keys.offsets.length === header.files + 1 &&
    (files.keyTable.length & (files.keyTable.length - 1)) === 0 &&
    files.keyTable.length > header.files &&
    terms.offsets.length === header.terms + 1 &&
    terms.order.length === header.terms &&
    block.start.length === header.terms + 1 &&
    block.start[header.terms] === block.slots.length &&
    block.tfs.length === block.slots.length &&
    (terms.table.length & (terms.table.length - 1)) === 0 &&
    terms.table.length > header.terms;
  if (!ok) throw new SnapshotDecodeError('corrupt', 'the sections do not match the header');
}

function bytes(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
