import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import type { IndexDocument, ToDocument } from '../documents/document.js';
import { classifySource, type MemoryLayout } from '../documents/layout.js';
import { documentsOf, type DocumentLimits } from '../documents/source-documents.js';
import { ALWAYS_LOAD, encodeRecord, FOREIGN_ID, ownId, SUPERSEDES } from './doc-store.js';
import { previewOf, searchableParts, type DocColumns } from './index-state.js';
import { TermScanner } from './term-scanner.js';

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
  readonly #files = { keys: [] as string[], status: [] as number[], nums: [] as number[], hashes: [] as Buffer[] };
  readonly #docEnd: number[] = [];
  readonly #errors: Record<number, string> = {};
  readonly #docs = {
    records: [] as string[],
    owners: [] as string[],
    kinds: [] as string[],
    statuses: [] as string[],
    nums: [] as number[],
    flags: [] as number[],
    lengths: [] as number[],
    runEnd: [] as number[],
  };
  #ids = new Uint32Array(4096);
  #tfs = new Uint16Array(4096);
  #n = 0;
  /** Scratch: term frequency by term id in the document being prepared, and the ids it has. */
  #tf = new Uint16Array(1024);
  readonly #seen: number[] = [];
  readonly #count = (id: number) => {
    let tf = this.#tf;
    if (id >= tf.length) {
      const grown = new Uint16Array(Math.max(tf.length * 2, id + 1));
      grown.set(tf);
      this.#tf = tf = grown;
    }
    const count = tf[id]!;
    if (count === 0) this.#seen.push(id);
    if (count < 65535) tf[id] = count + 1;
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
    for (const d of docs) this.#prepare(d.locator ? d : { ...d, locator: key });
    const hash = createHash('sha256').update(bytes && isUtf8(bytes) ? bytes : text);
    this.#file(key, FILE_OK, info.mtimeMs, info.size, hash.digest());
  }

  addMissing(key: string): void {
    this.#file(key, FILE_MISSING, 0, 0);
  }

  addDir(key: string): void {
    this.#file(key, FILE_DIR, 0, 0);
  }

  #file(key: string, status: number, mtimeMs: number, size: number, hash?: Buffer): void {
    const f = this.#files;
    f.keys.push(key);
    f.status.push(status);
    f.nums.push(mtimeMs, size);
    f.hashes.push(hash ?? Buffer.alloc(32));
    this.#docEnd.push(this.#docs.records.length);
  }

  #prepare(d: IndexDocument): void {
    const scanner = this.#dict.scanner;
    let length = 0;
    for (const part of searchableParts(d)) length += scanner.scan(part, this.#count);
    const seen = this.#seen;
    const tf = this.#tf;
    if (this.#n + seen.length > this.#ids.length) this.#grow(this.#n + seen.length);
    for (let i = 0; i < seen.length; i++) {
      const id = seen[i]!;
      this.#ids[this.#n] = id;
      this.#tfs[this.#n++] = tf[id]!;
      tf[id] = 0;
    }
    seen.length = 0;
    const docs = this.#docs;
    docs.records.push(encodeRecord(d, previewOf(d.text)));
    docs.owners.push(d.owner);
    docs.kinds.push(d.kind);
    docs.statuses.push(d.status);
    docs.nums.push(d.createdMs, d.updatedMs, d.confidence ?? Number.NaN);
    docs.flags.push((d.alwaysLoad ? ALWAYS_LOAD : 0) | (d.supersedes ? SUPERSEDES : 0) | (ownId(d) ? 0 : FOREIGN_ID));
    docs.lengths.push(length);
    docs.runEnd.push(this.#n);
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
    const nums = Float64Array.from(d.nums);
    const fileNums = Float64Array.from(f.nums);
    const hash = new Uint8Array(f.hashes.length * 32);
    f.hashes.forEach((h, i) => hash.set(h, i * 32));
    return {
      termBase: this.#termBase,
      newTerms,
      ids: this.#ids.slice(0, this.#n),
      tfs: this.#tfs.slice(0, this.#n),
      files: {
        keys: f.keys,
        status: Uint8Array.from(f.status),
        mtime: fileNums.filter((_, i) => i % 2 === 0),
        size: fileNums.filter((_, i) => i % 2 === 1),
        hash,
        docEnd: Uint32Array.from(this.#docEnd),
        errors: this.#errors,
      },
      docs: {
        records: d.records,
        owners: d.owners,
        kinds: d.kinds,
        statuses: d.statuses,
        created: nums.filter((_, i) => i % 3 === 0),
        updated: nums.filter((_, i) => i % 3 === 1),
        confidence: nums.filter((_, i) => i % 3 === 2),
        flags: Uint8Array.from(d.flags),
        lengths: Uint32Array.from(d.lengths),
        runEnd: Uint32Array.from(d.runEnd),
      },
    };
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
