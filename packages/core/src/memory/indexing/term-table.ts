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
  /**
   * Every term id, ordered by its term (JavaScript string order): the terms that start with a prefix are
   * one run of it, found by two binary searches that read a few dozen terms (see `withPrefix`).
   */
  readonly order: Int32Array;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class TermTable {
  readonly #frozen: FrozenTerms | undefined;
  readonly #frozenCount: number;
  readonly #ids = new Map<string, number>();
  readonly #added: string[] = [];

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
    pageInAll(f.order);
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
   * The ids of the terms that start with `prefix` (at least 3 bytes) and are longer, in id order, or
   * undefined when there are more than `limit` of them (a prefix that common says nothing). The
   * snapshot's terms are found in its term order by two binary searches (a new process reads a few dozen
   * terms, not the dictionary); the terms added since are few and scanned.
   */
  withPrefix(prefix: string, limit: number): number[] | undefined {
    if (encoder.encode(prefix).length < 3) return undefined;
    const out: number[] = [];
    const f = this.#frozen;
    if (f && this.#frozenCount > 0) {
      const { order } = f;
      // The run of terms ≥ prefix that start with it: [lo, hi) of the order.
      const lo = this.#firstInOrder((t) => t >= prefix);
      const hi = this.#firstInOrder((t) => t >= prefix && !t.startsWith(prefix));
      pageIn(order, lo, hi);
      for (let j = lo; j < hi; j++) {
        const id = order[j]!;
        if (j === lo && this.term(id) === prefix) continue;
        if (out.push(id) > limit) return undefined;
      }
      out.sort((a, b) => a - b);
    }
    for (let i = 0; i < this.#added.length; i++) {
      const term = this.#added[i]!;
      if (term.length > prefix.length && term.startsWith(prefix) && out.push(this.#frozenCount + i) > limit)
        return undefined;
    }
    return out;
  }

  /** The first position of the snapshot's term order whose term passes `at` (false up to it, true from it). */
  #firstInOrder(at: (term: string) => boolean): number {
    const order = this.#frozen!.order;
    let lo = 0;
    let hi = this.#frozenCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      pageIn(order, mid, mid + 1);
      if (at(this.term(order[mid]!))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  #frozenId(term: string): number {
    return lookup(this.#frozen!, this.#frozen!.table, term);
  }
}

/** The frozen form of `terms` (ids in order): what a snapshot stores. */
export function freezeTerms(terms: readonly string[]): FrozenTerms {
  return { ...packStrings(terms), table: hashTable(terms), order: termOrder(terms) };
}

/** The ids of `terms` ordered by their term (see `FrozenTerms.order`); terms are distinct. */
function termOrder(terms: readonly string[]): Int32Array {
  const ids = new Map<string, number>();
  terms.forEach((t, id) => ids.set(t, id));
  // The engine's own sort of strings (no comparator called back) is several times faster than ids sorted
  // by a comparator that looks their terms up.
  const sorted = [...terms].sort();
  const order = new Int32Array(terms.length);
  sorted.forEach((t, i) => (order[i] = ids.get(t)!));
  return order;
}
