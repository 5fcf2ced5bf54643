/**
 * An in-memory BM25 inverted index over numbered slots. Term-at-a-time scoring into a dense
 * accumulator: a query costs the length of its terms' posting lists, whatever the collection size.
 * Removal tombstones a slot (document frequencies stay exact by skipping dead slots); writing a
 * snapshot leaves the dead slots out.
 *
 * Why not a library: see README "Recall" — MiniSearch, Orama and FlexSearch were measured on this
 * workload and missed the build and query goals by 3–10×, or return no scores.
 */
import {
  searchConcepts,
  SearchScratch,
  type Bm25Params,
  type Matches,
  type Pruning,
  type QueryConcept,
} from './bm25-search.js';
import { Column } from './columns.js';
import { BulkRuns, pageInTerm, postingValue, type PostingBlock, PostingStore } from './postings.js';
import { TermTable } from './term-table.js';

/** Okapi BM25 parameters (Robertson's defaults; recall passes the fitted ones, see ranking.ts). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export type { Bm25Params, Matches, Pruning, QueryConcept, QueryVariant } from './bm25-search.js';

/** Plain BM25 with Robertson's parameters and no field weights. */
export const PLAIN_BM25: Bm25Params = Object.freeze({ k1: BM25_K1, b: BM25_B, fields: [0, 0, 0, 0] });

/** What a snapshot restores a BM25 index from (see codec.ts). */
export interface Bm25Parts {
  readonly terms: TermTable;
  readonly block: PostingBlock;
  /** Slot → token count; every slot live. */
  readonly lengths: Uint32Array;
}

export class Bm25Index {
  readonly terms: TermTable;
  readonly postings: PostingStore;
  readonly #lengths: Column<Uint32Array>;
  /** Slot → 1 when live. */
  readonly #live: Column<Uint8Array>;
  slotCount = 0;
  liveCount = 0;
  deadCount = 0;
  totalLength = 0;
  readonly #scratch = new SearchScratch();
  /** Live document frequency by term id, while there are tombstones; cleared by any change. */
  readonly #liveDf = new Map<number, number>();
  /** Per-add scratch: term frequency and field flags by term id, and the ids seen in this document. */
  #tf = new Uint16Array(1024);
  #fields = new Uint8Array(1024);
  readonly #seen: number[] = [];
  /** Bulk mode: documents recorded as runs, inverted once at the end. */
  #bulk: BulkRuns | undefined;

  constructor(parts?: Bm25Parts) {
    this.terms = parts?.terms ?? new TermTable();
    this.postings = new PostingStore(parts?.block);
    this.#lengths = new Column(Uint32Array, parts?.lengths);
    const n = parts?.lengths.length ?? 0;
    this.#live = new Column(Uint8Array, new Uint8Array(Math.max(1024, n)).fill(1, 0, n));
    this.slotCount = this.liveCount = n;
    const lengths = this.#lengths.data;
    for (let i = 0; i < n; i++) this.totalLength += lengths[i]!;
  }

  get lengths(): Uint32Array {
    return this.#lengths.data;
  }

  get live(): Uint8Array {
    return this.#live.data;
  }

  /** Number of distinct terms ever indexed. */
  get termCount(): number {
    return this.terms.size;
  }

  get bulk(): boolean {
    return this.#bulk !== undefined;
  }

  /** The id of a term, interning it when new. */
  internTerm(term: string): number {
    return this.terms.intern(term);
  }

  /** Adds a document's tokens (see `tokenize`) under a fresh slot and returns the slot. */
  add(tokens: readonly string[]): number {
    for (const token of tokens) this.countTerm(this.terms.intern(token));
    return this.addCounted(tokens.length);
  }

  /** Counts one occurrence of a term (by id) in the text of the document being added; see `addCounted`. */
  countTerm(id: number): void {
    this.#room(id);
    const count = this.#tf[id]!;
    if (count === 0 && this.#fields[id] === 0) this.#seen.push(id);
    if (count < 65535) this.#tf[id] = count + 1;
  }

  /** Flags a term (by id) as in one of the fields (FIELD_*) of the document being added. */
  flagTerm(id: number, field: number): void {
    this.#room(id);
    if (this.#tf[id] === 0 && this.#fields[id] === 0) this.#seen.push(id);
    this.#fields[id]! |= field;
  }

  #room(id: number): void {
    if (id < this.#tf.length) return;
    let size = this.#tf.length * 2;
    while (size <= id) size *= 2;
    const tf = new Uint16Array(size);
    tf.set(this.#tf);
    this.#tf = tf;
    const fields = new Uint8Array(size);
    fields.set(this.#fields);
    this.#fields = fields;
  }

  /** Adds the document whose terms `countTerm` counted, `length` tokens long, under a fresh slot. */
  addCounted(length: number): number {
    const slot = this.#newSlot(length);
    const seen = this.#seen;
    const tf = this.#tf;
    const fields = this.#fields;
    const bulk = this.#bulk;
    for (let i = 0; i < seen.length; i++) {
      const id = seen[i]!;
      const value = postingValue(tf[id]!, fields[id]!);
      if (bulk) bulk.push(id, value);
      else this.postings.append(id, slot, value);
      tf[id] = 0;
      fields[id] = 0;
    }
    bulk?.endSlot();
    seen.length = 0;
    return slot;
  }

  /**
   * Adds a document whose terms were counted elsewhere (a read worker): `length` tokens, and the
   * `(ids[i], tfs[i])` pairs for i in `[start, end)`, each id translated to a term id by `map`.
   * Returns the new slot. Same postings as `add` of the same tokens.
   */
  addRuns(length: number, ids: Uint32Array, tfs: Uint16Array, start: number, end: number, map: Int32Array): number {
    const slot = this.#newSlot(length);
    const bulk = this.#bulk;
    if (bulk) {
      for (let i = start; i < end; i++) bulk.push(map[ids[i]!]!, tfs[i]!);
      bulk.endSlot();
    } else {
      for (let i = start; i < end; i++) this.postings.append(map[ids[i]!]!, slot, tfs[i]!);
    }
    return slot;
  }

  /**
   * Starts a bulk build into an empty index: documents are recorded as flat (term, tf) runs —
   * sequential writes — instead of being pushed onto 100 000 scattered posting lists, and inverted
   * by a counting sort in `endBulk()`. Search is not available until then.
   */
  beginBulk(): void {
    if (this.slotCount !== 0) throw new Error('beginBulk() needs an empty index');
    this.#bulk = new BulkRuns();
  }

  /** Inverts the bulk runs into the posting block (one contiguous pair of arrays). */
  endBulk(): void {
    const bulk = this.#bulk;
    if (!bulk) return;
    this.#bulk = undefined;
    this.postings.block = bulk.invert(this.terms.size);
  }

  /** Tombstones a slot; its postings are skipped until the next snapshot leaves them out. */
  remove(slot: number): void {
    const live = this.#live.data;
    if (slot < 0 || slot >= this.slotCount || live[slot] === 0) return;
    live[slot] = 0;
    this.#liveDf.clear();
    this.liveCount--;
    this.deadCount++;
    this.totalLength -= this.#lengths.data[slot]!;
  }

  /** Live entries of a term (its document frequency). */
  documentFrequency(id: number): number {
    if (this.deadCount === 0) return this.postings.length(id);
    // With tombstones, a term's live entries must be counted: once per term until the index changes
    // (a recall right after an update would otherwise read each common term's postings twice).
    let df = this.#liveDf.get(id);
    if (df === undefined) {
      df = 0;
      const live = this.#live.data;
      const { block, tails } = this.postings;
      pageInTerm(block, id);
      if (id < block.start.length - 1)
        for (let i = block.start[id]!; i < block.start[id + 1]!; i++) if (live[block.slots[i]!] !== 0) df++;
      const tail = tails.get(id);
      if (tail) for (let i = 0; i < tail.n; i++) if (live[tail.slots[i]!] !== 0) df++;
      this.#liveDf.set(id, df);
    }
    return df;
  }

  /** Calls `fn(slot, tf)` for every entry of a term (dead slots included), slots ascending. */
  forEachPosting(id: number, fn: (slot: number, tf: number) => void): void {
    const { block, tails } = this.postings;
    pageInTerm(block, id);
    if (id < block.start.length - 1)
      for (let i = block.start[id]!; i < block.start[id + 1]!; i++) fn(block.slots[i]!, block.tfs[i]!);
    const tail = tails.get(id);
    if (tail) for (let i = 0; i < tail.n; i++) fn(tail.slots[i]!, tail.tfs[i]!);
  }

  /**
   * BM25 scores of the live slots matching at least one of `terms` (each its own concept, no field
   * weights unless `params` says so): the plain form of `searchConcepts`.
   */
  search(terms: readonly string[], params: Bm25Params = PLAIN_BM25): Matches {
    const concepts = [...new Set(terms)].map((term) => ({ variants: [{ term, weight: 1 }], weight: 1, counted: true }));
    return searchConcepts(this, this.#scratch, concepts, params);
  }

  /** Scores a query of concepts (see bm25-search.ts; `prune`: only what can reach the ranking's best). */
  searchConcepts(concepts: readonly QueryConcept[], params: Bm25Params, prune?: Pruning): Matches {
    return searchConcepts(this, this.#scratch, concepts, params, prune);
  }

  #newSlot(length: number): number {
    this.#liveDf.clear();
    const slot = this.slotCount++;
    this.#lengths.set(slot, length);
    this.#live.set(slot, 1);
    this.liveCount++;
    this.totalLength += length;
    return slot;
  }
}
