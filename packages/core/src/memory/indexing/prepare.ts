import { isUtf8 } from 'node:buffer';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import type { IndexDocument, ToDocument } from '../documents/document.js';
import { classifySource, type MemoryLayout } from '../documents/layout.js';
import { documentsOf, type DocumentLimits } from '../documents/source-documents.js';
import { Column } from './columns.js';
import { ALWAYS_LOAD, encodeRecord, FOREIGN_ID, ownId, SUPERSEDES } from './doc-store.js';
import type { DocColumns } from './index-state.js';
import { postingValue } from './postings.js';
import { previewOf, searchableFields } from './searchable.js';
import { TermScanner } from './term-scanner.js';
import { nodeCrypto } from '../../write-protocol/content-hash.js';

/** File status in a batch. */
export const FILE_OK = 0;
/** Gone since the walk listed it. */
export const FILE_MISSING = 1;
/** A `.md` name that is a directory (the walk did not stat it): to be walked. */
export const FILE_DIR = 2;

/**
 * One batch of files read, mapped and tokenized, with the terms counted per document: what a read
 * worker sends back, as a few arrays (structured cloning an object per document cost as much as
 * reading it). Term ids are the worker's own (a dictionary it keeps for its whole life); the batch
 * carries only the terms first seen in it (`newTerms`, ids `termBase`, `termBase + 1`, …), so the
 * main thread interns each distinct term once per worker. `ids[j]` is a term id, `tfs[j]` its
 * frequency in its document; document i's pairs are `runEnd[i − 1]..runEnd[i]`.
 */
export interface PreparedBatch {
  readonly termBase: number;
  readonly newTerms: readonly string[];
  readonly ids: Uint32Array;
  readonly tfs: Uint16Array;
  readonly files: {
    readonly keys: readonly string[];
    /** FILE_OK, FILE_MISSING or FILE_DIR. */
    readonly status: Uint8Array;
    readonly mtime: Float64Array;
    readonly size: Float64Array;
    /** sha256 of each file's text, 32 bytes each. */
    readonly hash: Uint8Array;
    /** File f's documents are `docEnd[f − 1]..docEnd[f]`. */
    readonly docEnd: Uint32Array;
    /** A mapper's error by file index. */
    readonly errors: Readonly<Record<number, string>>;
  };
  readonly docs: DocColumns & {
    /** Token count of each document (its BM25 length). */
    readonly lengths: Uint32Array;
    readonly runEnd: Uint32Array;
  };
}

/** A worker's term dictionary, kept across its batches: term → id, and the scanner's surface cache. */
export class TermDictionary {
  readonly ids = new Map<string, number>();
  /** Terms added since the last batch was built. */
  fresh: string[] = [];
  readonly scanner = new TermScanner((term) => {
    let id = this.ids.get(term);
    if (id === undefined) {
      this.ids.set(term, (id = this.ids.size));
      this.fresh.push(term);
    }
    return id;
  });
}

/** Accumulates prepared files into a batch. */
export class BatchBuilder {
  readonly #dict: TermDictionary;
  readonly #termBase: number;
  readonly #files = {
    keys: [] as string[],
    status: new Grow(Uint8Array),
    mtime: new Grow(Float64Array),
    size: new Grow(Float64Array),
    hash: new Grow(Uint8Array),
    docEnd: new Grow(Uint32Array),
  };
  readonly #errors: Record<number, string> = {};
  // Typed from the start: JS arrays of these numbers changed element kinds and deoptimized the loop.
  readonly #docs = {
    records: [] as string[],
    owners: [] as string[],
    kinds: [] as string[],
    statuses: [] as string[],
    created: new Grow(Float64Array),
    updated: new Grow(Float64Array),
    confidence: new Grow(Float64Array),
    flags: new Grow(Uint8Array),
    lengths: new Grow(Uint32Array),
    runEnd: new Grow(Uint32Array),
  };
  #ids = new Uint32Array(4096);
  #tfs = new Uint16Array(4096);
  #n = 0;
  /** Scratch: term frequency and field flags by term id in the document being prepared, and the ids it has. */
  #tf = new Uint16Array(1024);
  #flags = new Uint8Array(1024);
  /** The field being scanned (its FIELD_* flag). */
  #field = 0;
  readonly #seen: number[] = [];
  #room(id: number): void {
    if (id < this.#tf.length) return;
    const size = Math.max(this.#tf.length * 2, id + 1);
    const tf = new Uint16Array(size);
    tf.set(this.#tf);
    this.#tf = tf;
    const flags = new Uint8Array(size);
    flags.set(this.#flags);
    this.#flags = flags;
  }
  readonly #count = (id: number) => {
    this.#room(id);
    const count = this.#tf[id]!;
    if (count === 0 && this.#flags[id] === 0) this.#seen.push(id);
    if (count < 65535) this.#tf[id] = count + 1;
  };
  readonly #mark = (id: number) => {
    this.#room(id);
    if (this.#tf[id] === 0 && this.#flags[id] === 0) this.#seen.push(id);
    this.#flags[id]! |= this.#field;
  };

  /** Builds against `dictionary` (a worker's, kept across batches; default: a fresh one). */
  constructor(dictionary: TermDictionary = new TermDictionary()) {
    this.#dict = dictionary;
    this.#termBase = dictionary.ids.size - dictionary.fresh.length;
  }

  /**
   * Maps and tokenizes one file's text; a mapper that throws gives a file with no documents and the
   * error. `bytes`, when given, are the bytes the text was decoded from: valid UTF-8 is hashed as is
   * (the same sha256 as the text's, without encoding it again).
   */
  addText(
    key: string,
    text: string,
    info: { mtimeMs: number; size: number },
    layout: MemoryLayout,
    toDocument: ToDocument,
    limits?: DocumentLimits,
    bytes?: Uint8Array,
  ): void {
    const locator = new Locator(key);
    let docs: IndexDocument[];
    try {
      const full: Info = { locator, isDir: false, size: info.size, mtimeMs: info.mtimeMs };
      docs = documentsOf(classifySource(key, layout), locator, text, full, toDocument, limits);
    } catch (e) {
      docs = [];
      this.#errors[this.#files.keys.length] = (e as Error).message ?? String(e);
    }
    for (const d of docs) this.#prepare(d.locator ? d : { ...d, locator: key }, text);
    const hash = nodeCrypto()
      .createHash('sha256')
      .update(bytes && isUtf8(bytes) ? bytes : text);
    this.#file(key, FILE_OK, info.mtimeMs, info.size, hash.digest());
  }

  addMissing(key: string): void {
    this.#file(key, FILE_MISSING, 0, 0);
  }

  addDir(key: string): void {
    this.#file(key, FILE_DIR, 0, 0);
  }

  #file(key: string, status: number, mtimeMs: number, size: number, hash?: Uint8Array): void {
    const f = this.#files;
    const i = f.keys.length;
    f.keys.push(key);
    f.status.set(i, status);
    f.mtime.set(i, mtimeMs);
    f.size.set(i, size);
    if (hash) f.hash.ensure(i * 32 + 31).set(hash, i * 32);
    else f.hash.ensure(i * 32 + 31).fill(0, i * 32, i * 32 + 32);
    f.docEnd.set(i, this.#docs.records.length);
  }

  /**
   * Counts a document's terms into a run: its text's terms counted, its fields' terms flagged.
   * `source`: the file's text, of which a note's text is usually the tail.
   */
  #prepare(d: IndexDocument, source: string): void {
    const scanner = this.#dict.scanner;
    for (const [field, text] of searchableFields(d)) {
      this.#field = field;
      scanner.scan(text, this.#mark);
    }
    // The body is scanned in the file's own text when it is its tail (a note's is): same terms.
    const body = d.text;
    const length =
      source.length > body.length && source.endsWith(body)
        ? scanner.scan(source, this.#count, source.length - body.length)
        : scanner.scan(body, this.#count);
    const seen = this.#seen;
    const tf = this.#tf;
    const flags = this.#flags;
    if (this.#n + seen.length > this.#ids.length) this.#grow(this.#n + seen.length);
    for (let i = 0; i < seen.length; i++) {
      const id = seen[i]!;
      this.#ids[this.#n] = id;
      this.#tfs[this.#n++] = postingValue(tf[id]!, flags[id]!);
      tf[id] = 0;
      flags[id] = 0;
    }
    seen.length = 0;
    const docs = this.#docs;
    const i = docs.records.length;
    docs.records.push(encodeRecord(d, previewOf(d.text)));
    docs.owners.push(d.owner);
    docs.kinds.push(d.kind);
    docs.statuses.push(d.status);
    docs.created.set(i, d.createdMs);
    docs.updated.set(i, d.updatedMs);
    docs.confidence.set(i, d.confidence ?? Number.NaN);
    docs.flags.set(i, (d.alwaysLoad ? ALWAYS_LOAD : 0) | (d.supersedes ? SUPERSEDES : 0) | (ownId(d) ? 0 : FOREIGN_ID));
    docs.lengths.set(i, length);
    docs.runEnd.set(i, this.#n);
  }

  #grow(need: number): void {
    let size = this.#ids.length;
    while (size < need) size *= 2;
    const ids = new Uint32Array(size);
    ids.set(this.#ids.subarray(0, this.#n));
    const tfs = new Uint16Array(size);
    tfs.set(this.#tfs.subarray(0, this.#n));
    this.#ids = ids;
    this.#tfs = tfs;
  }

  build(): PreparedBatch {
    const newTerms = this.#dict.fresh;
    this.#dict.fresh = [];
    const f = this.#files;
    const d = this.#docs;
    const files = f.keys.length;
    const docs = d.records.length;
    return {
      termBase: this.#termBase,
      newTerms,
      ids: this.#ids.slice(0, this.#n),
      tfs: this.#tfs.slice(0, this.#n),
      files: {
        keys: f.keys,
        status: f.status.take(files),
        mtime: f.mtime.take(files),
        size: f.size.take(files),
        hash: f.hash.take(files * 32),
        docEnd: f.docEnd.take(files),
        errors: this.#errors,
      },
      docs: {
        records: d.records,
        owners: d.owners,
        kinds: d.kinds,
        statuses: d.statuses,
        created: d.created.take(docs),
        updated: d.updated.take(docs),
        confidence: d.confidence.take(docs),
        flags: d.flags.take(docs),
        lengths: d.lengths.take(docs),
        runEnd: d.runEnd.take(docs),
      },
    };
  }
}

/** A growable typed array whose first `n` entries are taken at the end (a copy of exactly that length). */
class Grow<T extends Uint8Array | Uint32Array | Float64Array> extends Column<T> {
  take(n: number): T {
    return this.data.slice(0, n) as T;
  }
}

/** The typed arrays of a batch, to transfer rather than copy when posting it. */
export function batchTransferables(batch: PreparedBatch): ArrayBuffer[] {
  const { ids, tfs, files, docs } = batch;
  return [
    ids,
    tfs,
    files.status,
    files.mtime,
    files.size,
    files.hash,
    files.docEnd,
    docs.created,
    docs.updated,
    docs.confidence,
    docs.flags,
    docs.lengths,
    docs.runEnd,
  ].map((a) => a.buffer as ArrayBuffer);
}
