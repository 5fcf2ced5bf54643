import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import type { PackedRows } from './columns.js';
import type { FrozenDocs } from './doc-store.js';
import type { FrozenFiles } from './file-table.js';
import { IndexState } from './index-state.js';
import { compactParts, type CompactParts } from './snapshot-parts.js';
import type { FrozenTerms } from './term-table.js';
import { TermTable } from './term-table.js';

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
export const INDEX_SCHEMA_VERSION = 4;
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
  const hash = createHash('sha256');
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

/** Reads a snapshot; throws `SnapshotDecodeError` (corrupt or outdated) rather than returning a wrong index. */
export function decodeSnapshot(file: Uint8Array): { state: IndexState; meta: SnapshotMeta } {
  // Typed views need 8-byte alignment: a pooled small Buffer may not have it (Buffer.alloc never pools).
  const data =
    file.byteOffset % 8 === 0
      ? Buffer.from(file.buffer, file.byteOffset, file.byteLength)
      : Buffer.alloc(file.byteLength).fill(file);
  if (data.length < PREFIX + 32 || !data.subarray(0, MAGIC.length).equals(MAGIC))
    throw new SnapshotDecodeError('corrupt', 'not an AgentM index file');
  const schema = data.readUInt32LE(MAGIC.length);
  if (schema !== INDEX_SCHEMA_VERSION)
    throw new SnapshotDecodeError('outdated', `schema ${schema}, this AgentM reads schema ${INDEX_SCHEMA_VERSION}`);
  const end = data.length - 32;
  if (!createHash('sha256').update(data.subarray(0, end)).digest().equals(data.subarray(end)))
    throw new SnapshotDecodeError('corrupt', 'checksum mismatch (a torn or damaged file)');
  const jsonLength = data.readUInt32LE(MAGIC.length + 4);
  let header: Header;
  try {
    header = JSON.parse(data.toString('utf8', PREFIX, PREFIX + jsonLength)) as Header;
  } catch (error) {
    throw new SnapshotDecodeError('corrupt', `unreadable header (${(error as Error).message})`);
  }
  if (header.endianness !== endianness())
    throw new SnapshotDecodeError('outdated', `written on a ${header.endianness} machine, this one is ${endianness()}`);
  const base = align8(PREFIX + jsonLength);
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
    return make(data.buffer, data.byteOffset + base + offset, length / size);
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
  const terms: FrozenTerms = { blob: u8('terms.blob'), offsets: u32('terms.offsets'), table: i32('terms.table') };
  const block = { start: i32('postings.start'), slots: i32('postings.slots'), tfs: u16('postings.tfs') };
  const lengths = u32('docs.length');
  check(header, docs, files, terms, block, lengths);
  const state = new IndexState({ bm25: { terms: new TermTable(terms), block, lengths }, docs, files });
  return { state, meta: { root: header.root, snapshotId: header.snapshotId, builtMs: header.builtMs } };
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
