import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import { contentHash } from '../../protocol/content-hash.js';
import type { IndexDocument, ToDocument } from '../documents/document.js';
import { classifySource, type MemoryLayout } from '../documents/layout.js';
import { documentsOf } from '../documents/source-documents.js';
import { previewOf, searchableText, type StoredDoc } from './index-state.js';
import { tokenize } from './tokenize.js';

/** A document ready to be adopted by the index: its stored fields (no slot yet) and where its term runs are. */
export interface PreparedDoc {
  readonly doc: Omit<StoredDoc, 'slot'>;
  /** Token count (the BM25 document length). */
  readonly length: number;
  /** `[runStart, runEnd)` in the batch's `ids`/`tfs`. */
  readonly runStart: number;
  readonly runEnd: number;
}

export type PreparedFile =
  | {
      readonly key: string;
      readonly status: 'ok';
      readonly mtimeMs: number;
      readonly size: number;
      readonly hash: string;
      readonly docs: readonly PreparedDoc[];
      readonly error?: string;
    }
  | { readonly key: string; readonly status: 'missing' }
  /** A `.md` name that is a directory (the walk did not stat it): to be walked. */
  | { readonly key: string; readonly status: 'dir' };

/**
 * One batch of files read, mapped and tokenized, with the terms counted per document: what a read
 * worker sends back. Term ids are the worker's own (a dictionary it keeps for its whole life); the
 * batch carries only the terms first seen in it (`newTerms`, ids `termBase`, `termBase + 1`, …), so
 * the main thread interns each distinct term once per worker. `ids[i]` is a term id, `tfs[i]` its
 * frequency in its document. Compact and transferable.
 */
export interface PreparedBatch {
  readonly files: readonly PreparedFile[];
  readonly termBase: number;
  readonly newTerms: readonly string[];
  readonly ids: Uint32Array;
  readonly tfs: Uint16Array;
}

/** A worker's term dictionary (term → its id), shared by its batches in the order they are built. */
export type TermDictionary = Map<string, number>;

/** Accumulates prepared files into a batch. */
export class BatchBuilder {
  readonly files: PreparedFile[] = [];
  readonly #dict: TermDictionary;
  readonly #termBase: number;
  readonly #newTerms: string[] = [];
  #ids = new Uint32Array(4096);
  #tfs = new Uint16Array(4096);
  #n = 0;
  /** Scratch: term frequency by term id in the document being prepared, and the ids it has. */
  #tf: Uint16Array;
  readonly #seen: number[] = [];

  /** Builds against `dictionary` (a worker's, kept across batches; default: a fresh one). */
  constructor(dictionary: TermDictionary = new Map()) {
    this.#dict = dictionary;
    this.#termBase = dictionary.size;
    this.#tf = new Uint16Array(Math.max(1024, dictionary.size * 2));
  }

  /** Maps and tokenizes one file's text; a mapper that throws gives a file with no documents and the error. */
  addText(
    key: string,
    text: string,
    info: { mtimeMs: number; size: number },
    layout: MemoryLayout,
    toDocument: ToDocument,
  ): void {
    const locator = new Locator(key);
    let docs: IndexDocument[];
    let error: string | undefined;
    try {
      const full: Info = { locator, isDir: false, size: info.size, mtimeMs: info.mtimeMs };
      docs = documentsOf(classifySource(key, layout), locator, text, full, toDocument);
    } catch (e) {
      docs = [];
      error = (e as Error).message ?? String(e);
    }
    const prepared = docs.map((d) => this.#prepare(d));
    this.files.push({
      key,
      status: 'ok',
      mtimeMs: info.mtimeMs,
      size: info.size,
      hash: contentHash(text),
      docs: prepared,
      ...(error !== undefined ? { error } : {}),
    });
  }

  addMissing(key: string): void {
    this.files.push({ key, status: 'missing' });
  }

  addDir(key: string): void {
    this.files.push({ key, status: 'dir' });
  }

  #prepare(d: IndexDocument): PreparedDoc {
    const tokens = tokenize(searchableText(d));
    const dict = this.#dict;
    const seen = this.#seen;
    let tf = this.#tf;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      let id = dict.get(token);
      if (id === undefined) {
        dict.set(token, (id = dict.size));
        this.#newTerms.push(token);
        if (id >= tf.length) {
          const grown = new Uint16Array(tf.length * 2);
          grown.set(tf);
          this.#tf = tf = grown;
        }
      }
      const count = tf[id]!;
      if (count === 0) seen.push(id);
      if (count < 65535) tf[id] = count + 1;
    }
    const runStart = this.#n;
    if (this.#n + seen.length > this.#ids.length) this.#grow(this.#n + seen.length);
    for (let i = 0; i < seen.length; i++) {
      const id = seen[i]!;
      this.#ids[this.#n] = id;
      this.#tfs[this.#n++] = tf[id]!;
      tf[id] = 0;
    }
    seen.length = 0;
    const { text, ...rest } = d;
    return { doc: { ...rest, preview: previewOf(text) }, length: tokens.length, runStart, runEnd: this.#n };
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
    return {
      files: this.files,
      termBase: this.#termBase,
      newTerms: this.#newTerms,
      ids: this.#ids.slice(0, this.#n),
      tfs: this.#tfs.slice(0, this.#n),
    };
  }
}
