import { Column, StringRows } from './columns.js';
import { lookup, type PackedStrings } from './string-table.js';
import { nodeCrypto } from '../../write-protocol/content-hash.js';

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
  readonly keys: PackedStrings;
  /** The keys' hash table (see string-table.ts): a key's row without decoding the others. */
  readonly keyTable: Int32Array;
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
 * leaves a dead row. A loaded snapshot's keys are found through its hash table; rows added since, by
 * a Map: opening an index to recall decodes no key.
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
  readonly #frozen: FrozenFiles | undefined;
  /** Key → row, for the rows added since the snapshot. */
  readonly #added = new Map<string, number>();
  #count: number;

  constructor(frozen?: FrozenFiles) {
    this.#frozen = frozen;
    this.keys = new StringRows(frozen?.keys);
    this.mtime = new Column(Float64Array, frozen?.mtime);
    this.size = new Column(Float64Array, frozen?.size);
    this.hash = new Column(Uint8Array, frozen?.hash);
    this.firstSlot = new Column(Int32Array, frozen?.firstSlot);
    this.docCount = new Column(Int32Array, frozen?.docCount);
    this.rows = this.#count = this.keys.frozenCount;
    this.live = new Column(Uint8Array, new Uint8Array(Math.max(1024, this.rows)).fill(1, 0, this.rows));
  }

  /** The live row of a key, or undefined. */
  row(key: string): number | undefined {
    const added = this.#added.get(key);
    if (added !== undefined) return added;
    if (!this.#frozen) return undefined;
    const row = lookup(this.#frozen.keys, this.#frozen.keyTable, key);
    return row >= 0 && this.live.data[row] ? row : undefined;
  }

  /**
   * The live keys in folder `folder` (`""`: the root) — with `deep`, every key below it — without
   * decoding the others (see StringRows.withPrefix).
   */
  keysIn(folder: string, deep = false): string[] {
    const prefix = folder === '' ? '' : `${folder}/`;
    return this.keys.withPrefix(prefix, deep, (row) => this.live.data[row] === 1).map((row) => this.keys.get(row)!);
  }

  /**
   * The live rows directly in each folder of `folders` (`""`: the root), in one pass over the keys,
   * decoding none (see StringRows.byFolder).
   */
  rowsInFolders(folders: Iterable<string>): Map<string, number[]> {
    return this.keys.byFolder(new Set(folders), (row) => this.live.data[row] === 1);
  }

  /** Number of live files. */
  get count(): number {
    return this.#count;
  }

  /** Live rows, ascending. */
  liveRows(): Int32Array {
    const out = new Int32Array(this.#count);
    let n = 0;
    for (let row = 0; row < this.rows; row++) if (this.live.data[row]) out[n++] = row;
    return out;
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
    this.#added.set(key, row);
    this.#count++;
    return row;
  }

  /** Marks a row dead. */
  drop(row: number): void {
    if (!this.live.data[row]) return;
    this.live.data[row] = 0;
    this.#count--;
    if (row >= this.keys.frozenCount) {
      const key = this.keys.get(row)!;
      if (this.#added.get(key) === row) this.#added.delete(key);
    }
  }

  hashHex(row: number): string {
    return Buffer.from(this.hash.data.buffer, this.hash.data.byteOffset + row * 32, 32).toString('hex');
  }
}

/** A content hash as 32 bytes: sha256 hex as is; anything else (a label) by its own sha256. */
function hashBytes(hash: string): Uint8Array {
  return /^[0-9a-f]{64}$/.test(hash)
    ? Buffer.from(hash, 'hex')
    : nodeCrypto().createHash('sha256').update(hash).digest();
}
