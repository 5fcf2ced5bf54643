/**
 * The index's term dictionary: term ↔ id. Terms of a loaded snapshot stay in the snapshot's bytes (a
 * UTF-8 blob, offsets and an open-addressing hash table written with it), so opening an index decodes
 * none of them: a query hashes its few terms and compares bytes. Terms added since (an update, a build)
 * live in a Map beside them, with ids after the snapshot's.
 */
import { pageIn, pageInAll } from './snapshot-pages.js';
import { hashTable, lookup, packStrings } from './string-table.js';

/** The snapshot part of a term table (see `TermTable.frozen`). */
export interface FrozenTerms {
  /** UTF-8 bytes of every term, back to back. */
  readonly blob: Uint8Array;
  /** `offsets[id]..offsets[id + 1]` are term `id`'s bytes. */
  readonly offsets: Uint32Array;
  /** The terms' hash table (see string-table.ts). */
  readonly table: Int32Array;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class TermTable {
  readonly #frozen: FrozenTerms | undefined;
  readonly #frozenCount: number;
  readonly #ids = new Map<string, number>();
  readonly #added: string[] = [];
  #byPrefix: { start: Int32Array; ids: Int32Array } | undefined;

  constructor(frozen?: FrozenTerms) {
    this.#frozen = frozen;
    this.#frozenCount = frozen ? frozen.offsets.length - 1 : 0;
  }

  /** Number of terms (ids are `0..size − 1`). */
  get size(): number {
    return this.#frozenCount + this.#added.length;
  }

  /** The snapshot terms when no term was added since, else undefined. */
  frozen(): FrozenTerms | undefined {
    if (this.#added.length > 0 || !this.#frozen) return undefined;
    const f = this.#frozen;
    pageInAll(f.blob);
    pageInAll(f.offsets);
    pageInAll(f.table);
    return f;
  }

  /** The id of `term`, or −1. */
  id(term: string): number {
    const added = this.#ids.get(term);
    if (added !== undefined) return added;
    return this.#frozen ? this.#frozenId(term) : -1;
  }

  /** The id of `term`, adding it when new. */
  intern(term: string): number {
    let id = this.id(term);
    if (id < 0) {
      id = this.size;
      this.#ids.set(term, id);
      this.#added.push(term);
    }
    return id;
  }

  /** The term of an id. */
  term(id: number): string {
    if (id >= this.#frozenCount) return this.#added[id - this.#frozenCount]!;
    const f = this.#frozen!;
    pageIn(f.offsets, id, id + 2);
    pageIn(f.blob, f.offsets[id]!, f.offsets[id + 1]!);
    return decoder.decode(f.blob.subarray(f.offsets[id]!, f.offsets[id + 1]!));
  }

  /**
   * The ids of the terms that start with `prefix` (at least 3 characters) and are longer, or undefined
   * when there are more than `limit` of them (a prefix that common says nothing). The snapshot's terms
   * are grouped by their first two bytes once, on the first call (a counting sort: two passes over the
   * offsets, a few milliseconds for 300 000 terms); the terms added since are few and scanned.
   */
  withPrefix(prefix: string, limit: number): number[] | undefined {
    const want = encoder.encode(prefix);
    if (want.length < 3) return undefined;
    const out: number[] = [];
    const f = this.#frozen;
    if (f) {
      const { blob, offsets } = f;
      const { start, ids } = this.#buckets();
      const key = (want[0]! << 8) | want[1]!;
      for (let j = start[key]!; j < start[key + 1]!; j++) {
        const id = ids[j]!;
        const at = offsets[id]!;
        if (offsets[id + 1]! - at <= want.length) continue;
        let k = 2;
        while (k < want.length && blob[at + k] === want[k]) k++;
        if (k === want.length && out.push(id) > limit) return undefined;
      }
    }
    for (let i = 0; i < this.#added.length; i++) {
      const term = this.#added[i]!;
      if (term.length > prefix.length && term.startsWith(prefix) && out.push(this.#frozenCount + i) > limit)
        return undefined;
    }
    return out;
  }

  /** The snapshot's term ids grouped by their first two bytes: `ids[start[k]..start[k + 1]]` (terms of 2+ bytes). */
  #buckets(): { start: Int32Array; ids: Int32Array } {
    if (this.#byPrefix) return this.#byPrefix;
    const { blob, offsets } = this.#frozen!;
    pageInAll(offsets);
    pageInAll(blob);
    const start = new Int32Array(65537);
    const keyOf = (id: number) => {
      const at = offsets[id]!;
      return offsets[id + 1]! - at < 2 ? -1 : (blob[at]! << 8) | blob[at + 1]!;
    };
    for (let id = 0; id < this.#frozenCount; id++) {
      const key = keyOf(id);
      if (key >= 0) start[key + 1]!++;
    }
    for (let k = 0; k < 65536; k++) start[k + 1]! += start[k]!;
    const ids = new Int32Array(start[65536]!);
    const cursor = start.slice(0, 65536);
    for (let id = 0; id < this.#frozenCount; id++) {
      const key = keyOf(id);
      if (key >= 0) ids[cursor[key]!++] = id;
    }
    return (this.#byPrefix = { start, ids });
  }

  #frozenId(term: string): number {
    return lookup(this.#frozen!, this.#frozen!.table, term);
  }
}

/** The frozen form of `terms` (ids in order): what a snapshot stores. */
export function freezeTerms(terms: readonly string[]): FrozenTerms {
  return { ...packStrings(terms), table: hashTable(terms) };
}
