/**
 * An in-memory BM25 inverted index over numbered slots. Term-at-a-time scoring into a dense
 * accumulator: a query costs the length of its terms' posting lists, whatever the collection size.
 * Removal tombstones a slot (document frequencies stay exact by skipping dead slots); writing a
 * snapshot leaves the dead slots out.
 *
 * Why not a library: see README "Recall" — MiniSearch, Orama and FlexSearch were measured on this
 * workload and missed the build and query goals by 3–10×, or return no scores.
 */
import { Column } from './columns.js';
import { BulkRuns, type PostingBlock, PostingStore } from './postings.js';
import { TermTable } from './term-table.js';

/** Okapi BM25 parameters (Robertson's defaults). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Scores of the matching slots of one query, unsorted. */
export interface Matches {
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly count: number;
  /** How many of the query's distinct terms each slot contains. */
  readonly matched: Uint8Array;
  /** The query's distinct terms found in the index (of its first 255). */
  readonly terms: number;
}

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
  #acc = new Float64Array(0);
  #hits = new Uint8Array(0);
  #norms = new Float64Array(0);
  #normsKey = '';
  /** Live document frequency by term id, while there are tombstones; cleared by any change. */
  readonly #liveDf = new Map<number, number>();
  #touched = new Int32Array(0);
  /** Per-add scratch: term frequency by term id, and the ids seen in this document. */
  #tf = new Uint16Array(1024);
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
    for (let i = 0; i < n; i++) this.totalLength += parts!.lengths[i]!;
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

  /** Counts one occurrence of a term (by id) for the document being added; see `addCounted`. */
  countTerm(id: number): void {
    let tf = this.#tf;
    if (id >= tf.length) {
      let size = tf.length * 2;
      while (size <= id) size *= 2;
      const grown = new Uint16Array(size);
      grown.set(tf);
      this.#tf = tf = grown;
    }
    const count = tf[id]!;
    if (count === 0) this.#seen.push(id);
    if (count < 65535) tf[id] = count + 1;
  }

  /** Adds the document whose terms `countTerm` counted, `length` tokens long, under a fresh slot. */
  addCounted(length: number): number {
    const slot = this.#newSlot(length);
    const seen = this.#seen;
    const tf = this.#tf;
    const bulk = this.#bulk;
    for (let i = 0; i < seen.length; i++) {
      const id = seen[i]!;
      if (bulk) bulk.push(id, tf[id]!);
      else this.postings.append(id, slot, tf[id]!);
      tf[id] = 0;
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
    if (id < block.start.length - 1)
      for (let i = block.start[id]!; i < block.start[id + 1]!; i++) fn(block.slots[i]!, block.tfs[i]!);
    const tail = tails.get(id);
    if (tail) for (let i = 0; i < tail.n; i++) fn(tail.slots[i]!, tail.tfs[i]!);
  }

  /**
   * BM25 score of every live slot matching at least one of the (distinct) terms, and how many of
   * them each contains (at most the first 255 distinct terms are searched).
   */
  search(terms: readonly string[]): Matches {
    const n = this.liveCount;
    if (this.#acc.length < this.slotCount) {
      this.#acc = new Float64Array(this.slotCount * 2);
      this.#hits = new Uint8Array(this.slotCount * 2);
      this.#touched = new Int32Array(this.slotCount * 2);
    }
    const acc = this.#acc;
    const hits = this.#hits;
    const touched = this.#touched;
    const live = this.#live.data;
    const norms = this.#lengthNorms();
    const { block, tails } = this.postings;
    const blockTerms = block.start.length - 1;
    const k1 = BM25_K1;
    let count = 0;
    let found = 0;
    for (const term of [...new Set(terms)].slice(0, 255)) {
      const id = this.terms.id(term);
      if (id < 0) continue;
      const df = this.documentFrequency(id);
      if (df === 0) continue;
      found++;
      const weight = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (k1 + 1);
      const tail = tails.get(id);
      // Two plain loops, not forEachPosting: a closure would put `count` in a context slot.
      for (let segment = 0; segment < 2; segment++) {
        let slots: Int32Array;
        let tfs: Uint16Array;
        let from: number;
        let to: number;
        if (segment === 0) {
          if (id >= blockTerms) continue;
          ({ slots, tfs } = block);
          from = block.start[id]!;
          to = block.start[id + 1]!;
        } else {
          if (!tail) continue;
          ({ slots, tfs } = tail);
          from = 0;
          to = tail.n;
        }
        for (let i = from; i < to; i++) {
          const slot = slots[i]!;
          if (live[slot] === 0) continue;
          const tf = tfs[i]!;
          if (hits[slot] === 0) touched[count++] = slot;
          acc[slot] = acc[slot]! + (weight * tf) / (tf + norms[slot]!);
          hits[slot]!++;
        }
      }
    }
    const outSlots = new Int32Array(count);
    const outScores = new Float64Array(count);
    const matched = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const slot = touched[i]!;
      outSlots[i] = slot;
      outScores[i] = acc[slot]!;
      matched[i] = hits[slot]!;
      acc[slot] = 0;
      hits[slot] = 0;
    }
    return { slots: outSlots, scores: outScores, count, matched, terms: found };
  }

  /**
   * Per slot, BM25's length normalization `k1·(1 − b + b·length/avgLength)`, recomputed only when the
   * collection changed since the last query (a posting then costs one read instead of three).
   */
  #lengthNorms(): Float64Array {
    const key = `${this.slotCount}:${this.liveCount}:${this.totalLength}`;
    if (this.#normsKey !== key || this.#norms.length < this.slotCount) {
      const avg = this.liveCount > 0 ? this.totalLength / this.liveCount : 1;
      const norm0 = BM25_K1 * (1 - BM25_B);
      const norm1 = (BM25_K1 * BM25_B) / (avg || 1);
      if (this.#norms.length < this.slotCount) this.#norms = new Float64Array(this.slotCount * 2);
      const lengths = this.#lengths.data;
      for (let slot = 0; slot < this.slotCount; slot++) this.#norms[slot] = norm0 + norm1 * lengths[slot]!;
      this.#normsKey = key;
    }
    return this.#norms;
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
