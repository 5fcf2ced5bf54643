import { createHash } from 'node:crypto';
import { Column, StringRows } from './columns.js';

/** What the index remembers of a source file, to tell next time whether it changed. */
export interface FileEntry {
  readonly key: string;
  readonly mtimeMs: number;
  readonly size: number;
  /** sha256 of the bytes read; an mtime change with the same hash re-indexes nothing. */
  readonly hash: string;
  /** Ids of the documents the file produced (empty for a file that maps to nothing). */
  readonly docIds: readonly string[];
}

/** What a snapshot restores a FileTable from (every row live). */
export interface FrozenFiles {
  readonly keys: { blob: Uint8Array; offsets: Uint32Array };
  readonly mtime: Float64Array;
  readonly size: Float64Array;
  /** 32 bytes per file. */
  readonly hash: Uint8Array;
  readonly firstSlot: Int32Array;
  readonly docCount: Int32Array;
}

/**
 * The source files as rows: key, mtime, size, content hash and the run of slots their documents took
 * (a file's documents are always added together, so they are consecutive). A replaced or deleted file
 * leaves a dead row. The key → row map is built on first use: opening an index to recall never needs it.
 */
export class FileTable {
  readonly keys: StringRows;
  readonly mtime: Column<Float64Array>;
  readonly size: Column<Float64Array>;
  readonly hash: Column<Uint8Array>;
  readonly firstSlot: Column<Int32Array>;
  readonly docCount: Column<Int32Array>;
  readonly live: Column<Uint8Array>;
  rows: number;
  #byKey: Map<string, number> | undefined;

  constructor(frozen?: FrozenFiles) {
    this.keys = new StringRows(frozen?.keys);
    this.mtime = new Column(Float64Array, frozen?.mtime);
    this.size = new Column(Float64Array, frozen?.size);
    this.hash = new Column(Uint8Array, frozen?.hash);
    this.firstSlot = new Column(Int32Array, frozen?.firstSlot);
    this.docCount = new Column(Int32Array, frozen?.docCount);
    this.rows = this.keys.frozenCount;
    this.live = new Column(Uint8Array, new Uint8Array(Math.max(1024, this.rows)).fill(1, 0, this.rows));
  }

  /** Key → live row. */
  get byKey(): Map<string, number> {
    if (!this.#byKey) {
      this.#byKey = new Map();
      for (let row = 0; row < this.rows; row++) if (this.live.data[row]) this.#byKey.set(this.keys.get(row)!, row);
    }
    return this.#byKey;
  }

  /** Number of live files. */
  get count(): number {
    return this.byKey.size;
  }

  /** Appends a live row for `key` (the caller has removed the previous one). */
  add(
    key: string,
    mtimeMs: number,
    size: number,
    hash: string | Uint8Array,
    firstSlot: number,
    docCount: number,
  ): number {
    const row = this.rows++;
    this.keys.set(row, key);
    this.mtime.set(row, mtimeMs);
    this.size.set(row, size);
    const bytes = typeof hash === 'string' ? hashBytes(hash) : hash;
    this.hash.ensure(row * 32 + 31).set(bytes, row * 32);
    this.firstSlot.set(row, firstSlot);
    this.docCount.set(row, docCount);
    this.live.set(row, 1);
    this.byKey.set(key, row);
    return row;
  }

  /** Marks a row dead and forgets its key. */
  drop(row: number): void {
    this.live.data[row] = 0;
    this.byKey.delete(this.keys.get(row)!);
  }

  hashHex(row: number): string {
    return Buffer.from(this.hash.data.buffer, this.hash.data.byteOffset + row * 32, 32).toString('hex');
  }
}

/** A content hash as 32 bytes: sha256 hex as is; anything else (a label) by its own sha256. */
function hashBytes(hash: string): Uint8Array {
  return /^[0-9a-f]{64}$/.test(hash) ? Buffer.from(hash, 'hex') : createHash('sha256').update(hash).digest();
}
