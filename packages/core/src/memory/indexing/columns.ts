/**
 * Growable typed columns and interned symbol tables: the storage of the index's per-document and
 * per-file fields. A column may start as a view into a loaded snapshot's bytes (no copy); the first
 * append past its length copies it into a larger array of its own.
 */

import { isPaged, pageIn, pageInAll, pageInOne } from './snapshot-pages.js';

type Typed = Int32Array | Uint32Array | Float64Array | Uint8Array | Uint16Array;
type Ctor<T extends Typed> = { new (length: number): T };

export class Column<T extends Typed> {
  #data: T;
  /** Whether `#data` is a snapshot section not read whole yet (see snapshot-pages.ts). */
  #paged: boolean;
  constructor(
    private readonly make: Ctor<T>,
    initial?: T,
  ) {
    this.#data = initial ?? new make(1024);
    this.#paged = initial !== undefined && isPaged(initial);
  }
  /** The values (a column of a loaded snapshot is read whole the first time they are asked for). */
  get data(): T {
    if (this.#paged) {
      pageInAll(this.#data);
      this.#paged = false;
    }
    return this.#data;
  }
  /**
   * The value at `at`, reading only its page of a snapshot's column (a few documents decoded: a record's
   * fields, the few candidates that reach the ranking's heap) — `data[at]` reads the whole column.
   */
  at(at: number): number {
    if (this.#paged) pageInOne(this.#data, at);
    return this.#data[at]!;
  }
  /** Makes room for index `at` (amortized doubling). */
  ensure(at: number): T {
    const data = this.data;
    if (at >= data.length) {
      let size = Math.max(1024, data.length);
      while (size <= at) size *= 2;
      const grown = new this.make(size);
      grown.set(data as never);
      this.#data = grown;
    }
    return this.#data;
  }
  set(at: number, value: number): void {
    this.ensure(at)[at] = value;
  }
}

/** Strings interned to small ids (owners, kinds, statuses): a column holds the id. */
export class Symbols {
  readonly list: string[];
  readonly #ids = new Map<string, number>();
  constructor(list: readonly string[] = []) {
    this.list = [...list];
    this.list.forEach((s, i) => this.#ids.set(s, i));
  }
  intern(value: string): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.list.length;
      this.#ids.set(value, id);
      this.list.push(value);
    }
    return id;
  }
  /** The id of `value`, or −1 when it was never interned. */
  id(value: string): number {
    return this.#ids.get(value) ?? -1;
  }
}

/**
 * A sequence of strings kept as UTF-8 bytes (a loaded snapshot's, decoded on demand) followed by
 * strings appended since. Index `i` below `frozenCount` reads the bytes.
 */
export class StringRows {
  readonly #blob: Uint8Array | undefined;
  readonly #offsets: Uint32Array | undefined;
  readonly frozenCount: number;
  #added: (string | undefined)[] = [];

  constructor(frozen?: { blob: Uint8Array; offsets: Uint32Array }) {
    this.#blob = frozen?.blob;
    this.#offsets = frozen?.offsets;
    this.frozenCount = frozen ? frozen.offsets.length - 1 : 0;
  }

  get(i: number): string | undefined {
    if (i >= this.frozenCount) return this.#added[i - this.frozenCount];
    const [start, end] = this.#span(i);
    return utf8(this.#blob!, start, end);
  }

  /** Where frozen row `i`'s bytes are, paged in. */
  #span(i: number): [number, number] {
    pageIn(this.#offsets!, i, i + 2);
    const start = this.#offsets![i]!;
    const end = this.#offsets![i + 1]!;
    pageIn(this.#blob!, start, end);
    return [start, end];
  }

  /** Every frozen row paged in (a scan of them all). */
  #pageInAll(): void {
    if (this.#offsets) pageInAll(this.#offsets);
    if (this.#blob) pageInAll(this.#blob);
  }

  /** The row's text up to its first NUL (the id at the head of a document record), without decoding the rest. */
  head(i: number): string | undefined {
    if (i >= this.frozenCount) {
      const row = this.#added[i - this.frozenCount];
      const nul = row?.indexOf('\0') ?? -1;
      return nul < 0 ? row : row!.slice(0, nul);
    }
    const [start, end] = this.#span(i);
    const nul = this.#blob!.subarray(start, end).indexOf(0);
    return utf8(this.#blob!, start, nul < 0 ? end : start + nul);
  }

  /**
   * Indices of the rows `i` for which `keep(i)` holds that begin with `prefix` and, unless `deep`, have no
   * `/` after it. Frozen rows are matched on their bytes: only the matches are decoded (a folder's files
   * among 100 000 keys in a few milliseconds).
   */
  withPrefix(prefix: string, deep: boolean, keep: (i: number) => boolean): number[] {
    const out: number[] = [];
    const want = Buffer.from(prefix, 'utf8');
    this.#pageInAll();
    const blob = this.#blob;
    const offsets = this.#offsets;
    for (let i = 0; i < this.frozenCount; i++) {
      const start = offsets![i]!;
      const end = offsets![i + 1]!;
      if (end - start <= want.length) continue;
      let k = 0;
      while (k < want.length && blob![start + k] === want[k]) k++;
      if (k < want.length || !keep(i)) continue;
      if (!deep && blob!.subarray(start + want.length, end).includes(0x2f)) continue;
      out.push(i);
    }
    this.#added.forEach((row, j) => {
      const i = this.frozenCount + j;
      if (row === undefined || row.length <= prefix.length || !row.startsWith(prefix) || !keep(i)) return;
      if (deep || !row.includes('/', prefix.length)) out.push(i);
    });
    return out;
  }

  /**
   * The rows `i` for which `keep(i)` holds, by the folder they are directly in (the text before their last
   * `/`, `""` for none), for the folders of `folders` only: one pass over the rows, whatever the number
   * of folders. Frozen rows are matched on their bytes and only the matches decoded.
   */
  byFolder(folders: ReadonlySet<string>, keep: (i: number) => boolean): Map<string, number[]> {
    const out = new Map<string, number[]>([...folders].map((folder) => [folder, []]));
    if (folders.size === 0) return out;
    // A folder's UTF-8 bytes read as Latin-1: a string made from the bytes without decoding them.
    const wanted = new Map([...folders].map((folder) => [Buffer.from(folder, 'utf8').toString('latin1'), folder]));
    this.#pageInAll();
    const blob = this.#blob;
    const offsets = this.#offsets;
    if (blob !== undefined && offsets !== undefined) {
      const bytes = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
      for (let i = 0; i < this.frozenCount; i++) {
        const start = offsets[i]!;
        const slash = bytes.lastIndexOf(0x2f, offsets[i + 1]! - 1);
        const folder = wanted.get(slash < start ? '' : bytes.toString('latin1', start, slash));
        if (folder !== undefined && keep(i)) out.get(folder)!.push(i);
      }
    }
    this.#added.forEach((row, j) => {
      if (row === undefined) return;
      const slash = row.lastIndexOf('/');
      const rows = out.get(slash < 0 ? '' : row.slice(0, slash));
      if (rows !== undefined && keep(this.frozenCount + j)) rows.push(this.frozenCount + j);
    });
    return out;
  }

  set(i: number, value: string | undefined): void {
    if (i < this.frozenCount) throw new Error('a frozen row cannot change');
    this.#added[i - this.frozenCount] = value;
  }

  /**
   * Rows `indices` (ascending) packed as UTF-8 with offsets, the bytes produced in chunks of about
   * `chunk` bytes as they are consumed (a snapshot writes them one after the other: the records of
   * 100 000 notes are never all encoded in one buffer). Frozen rows are copied as bytes.
   */
  packed(indices: ArrayLike<number>, chunk = 1 << 20): PackedRows {
    const n = indices.length;
    const offsets = new Uint32Array(n + 1);
    this.#pageInAll();
    const frozen = this.#offsets;
    for (let k = 0; k < n; k++) {
      const i = indices[k]!;
      const size =
        i < this.frozenCount
          ? frozen![i + 1]! - frozen![i]!
          : Buffer.byteLength(this.#added[i - this.frozenCount] ?? '');
      offsets[k + 1] = offsets[k]! + size;
    }
    const blob = this.#blob;
    const all = n === this.frozenCount && n > 0 && indices[n - 1] === n - 1;
    const added = this.#added;
    const frozenCount = this.frozenCount;
    function* chunks(): Generator<Uint8Array> {
      // Every row of a loaded snapshot, none added: its bytes as they are.
      if (all) return yield blob!.subarray(0, offsets[n]!);
      for (let k = 0; k < n;) {
        const from = k;
        while (k < n && (k === from || offsets[k + 1]! - offsets[from]! <= chunk)) k++;
        const out = Buffer.allocUnsafe(offsets[k]! - offsets[from]!);
        for (let j = from; j < k; j++) {
          const i = indices[j]!;
          const at = offsets[j]! - offsets[from]!;
          if (i < frozenCount) out.set(blob!.subarray(frozen![i]!, frozen![i + 1]!), at);
          else out.write(added[i - frozenCount] ?? '', at, 'utf8');
        }
        yield out;
      }
    }
    return { offsets, byteLength: offsets[n]!, chunks };
  }
}

/** Rows packed for writing: their offsets, total size, and their bytes as chunks. */
export interface PackedRows {
  readonly offsets: Uint32Array;
  readonly byteLength: number;
  chunks(): Iterable<Uint8Array>;
}

const decoder = new TextDecoder();

function utf8(blob: Uint8Array, start: number, end: number): string {
  // Short ASCII rows (most ids and keys) decode faster by hand than through TextDecoder.
  if (end - start <= 64) {
    let ascii = true;
    for (let k = start; k < end; k++) if (blob[k]! >= 128) ascii = false;
    if (ascii) return String.fromCharCode(...blob.subarray(start, end));
  }
  return decoder.decode(blob.subarray(start, end));
}
