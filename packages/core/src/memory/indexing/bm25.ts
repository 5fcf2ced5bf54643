/**
 * An in-memory BM25 inverted index over numbered slots. Term-at-a-time scoring into a dense
 * accumulator: a query costs the length of its terms' posting lists, whatever the collection size.
 * Removal tombstones a slot (document frequencies stay exact by skipping dead slots); `compacted()`
 * renumbers the live slots when the index is written out.
 *
 * Why not a library: see README "Recall" — MiniSearch, Orama and FlexSearch were measured on this
 * workload and missed the build and query goals by 3–10×, or return no scores.
 */

/** Okapi BM25 parameters (Robertson's defaults). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

const NO_SLOTS = new Int32Array(0);
const NO_TFS = new Uint16Array(0);

/**
 * A term's postings in two segments: an immutable base (a view into the arrays of a bulk build or a
 * loaded snapshot, shared by all terms) and an appended tail grown by doubling. Appending never
 * copies the base, so the first update after a load costs what the update adds, not the size of the
 * common terms' lists.
 */
export class Postings {
  baseSlots: Int32Array = NO_SLOTS;
  baseTfs: Uint16Array = NO_TFS;
  slots: Int32Array;
  tfs: Uint16Array;
  /** Entries used in the tail. */
  n = 0;
  constructor(capacity = 4) {
    this.slots = capacity > 0 ? new Int32Array(capacity) : NO_SLOTS;
    this.tfs = capacity > 0 ? new Uint16Array(capacity) : NO_TFS;
  }

  /** Postings whose base is a view of shared arrays. */
  static view(slots: Int32Array, tfs: Uint16Array): Postings {
    const p = new Postings(0);
    p.baseSlots = slots;
    p.baseTfs = tfs;
    return p;
  }

  /** Entries in both segments. */
  get length(): number {
    return this.baseSlots.length + this.n;
  }

  /** Calls `fn` with each segment's slots, tfs and entry count (base first: slots ascend throughout). */
  forEachSegment(fn: (slots: Int32Array, tfs: Uint16Array, count: number) => void): void {
    if (this.baseSlots.length > 0) fn(this.baseSlots, this.baseTfs, this.baseSlots.length);
    if (this.n > 0) fn(this.slots, this.tfs, this.n);
  }

  push(slot: number, tf: number): void {
    if (this.n === this.slots.length) {
      const slots = new Int32Array(Math.max(4, this.n * 2));
      slots.set(this.slots);
      this.slots = slots;
      const tfs = new Uint16Array(Math.max(4, this.n * 2));
      tfs.set(this.tfs);
      this.tfs = tfs;
    }
    this.slots[this.n] = slot;
    this.tfs[this.n] = tf > 65535 ? 65535 : tf;
    this.n++;
  }
}

const BULK_PLACEHOLDER = new Postings(0);

/** Scores of the matching slots of one query, unsorted. */
export interface Matches {
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly count: number;
}

export class Bm25Index {
  /** Term → id; ids index `postings` and `termList`. Interning turns two hash lookups per token into one. */
  readonly termIds = new Map<string, number>();
  readonly termList: string[] = [];
  readonly postings: Postings[] = [];
  /** Slot → token count (0 for a dead slot). */
  lengths = new Uint32Array(1024);
  /** Slot → 1 when live. */
  live = new Uint8Array(1024);
  slotCount = 0;
  liveCount = 0;
  deadCount = 0;
  totalLength = 0;
  #acc = new Float64Array(0);
  #touched = new Int32Array(0);
  /** Per-add scratch: term frequency by term id, and the ids seen in this document. */
  #tf = new Uint16Array(1024);
  #seen: number[] = [];
  /** Bulk mode: (term id, tf) per document appended to flat arrays, inverted once at the end. */
  #bulk: { ids: Int32Array; tfs: Uint16Array; n: number; docEnd: number[] } | undefined;

  /** Number of distinct terms ever indexed. */
  get termCount(): number {
    return this.termList.length;
  }

  /** The postings of a term, if it was ever indexed. */
  postingsOf(term: string): Postings | undefined {
    const id = this.termIds.get(term);
    return id === undefined ? undefined : this.postings[id];
  }

  /** The id of a term, interning it (with empty postings) when new. */
  internTerm(term: string, capacity = 4): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termList.length;
      this.termIds.set(term, id);
      this.termList.push(term);
      // In bulk mode every term gets a view at endBulk(); no arrays for it meanwhile.
      this.postings.push(this.#bulk ? BULK_PLACEHOLDER : new Postings(capacity));
      if (id >= this.#tf.length) {
        const tf = new Uint16Array(this.#tf.length * 2);
        tf.set(this.#tf);
        this.#tf = tf;
      }
    }
    return id;
  }

  /** Adds a document's tokens (see `tokenize`) under a fresh slot and returns the slot. */
  add(tokens: readonly string[]): number {
    const slot = this.#newSlot(tokens.length);
    const seen = this.#seen;
    const ids = this.termIds;
    let tf = this.#tf;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      let id = ids.get(token);
      if (id === undefined) {
        id = this.internTerm(token);
        tf = this.#tf;
      }
      const count = tf[id]!;
      if (count === 0) seen.push(id);
      if (count < 65535) tf[id] = count + 1;
    }
    const bulk = this.#bulk;
    if (bulk) {
      if (bulk.n + seen.length > bulk.ids.length) this.#growBulk(bulk.n + seen.length);
      const b = this.#bulk!;
      for (let i = 0; i < seen.length; i++) {
        const id = seen[i]!;
        b.ids[b.n] = id;
        b.tfs[b.n++] = tf[id]!;
        tf[id] = 0;
      }
      b.docEnd.push(b.n);
    } else {
      const postings = this.postings;
      for (let i = 0; i < seen.length; i++) {
        const id = seen[i]!;
        postings[id]!.push(slot, tf[id]!);
        tf[id] = 0;
      }
    }
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
      if (bulk.n + (end - start) > bulk.ids.length) this.#growBulk(bulk.n + (end - start));
      const b = this.#bulk!;
      for (let i = start; i < end; i++) {
        b.ids[b.n] = map[ids[i]!]!;
        b.tfs[b.n++] = tfs[i]!;
      }
      b.docEnd.push(b.n);
    } else {
      const postings = this.postings;
      for (let i = start; i < end; i++) postings[map[ids[i]!]!]!.push(slot, tfs[i]!);
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
    this.#bulk = { ids: new Int32Array(1 << 16), tfs: new Uint16Array(1 << 16), n: 0, docEnd: [] };
  }

  /** Inverts the bulk runs into one contiguous slots/tfs pair, viewed per term (no per-term arrays). */
  endBulk(): void {
    const bulk = this.#bulk;
    if (!bulk) return;
    this.#bulk = undefined;
    const terms = this.termList.length;
    const start = new Int32Array(terms + 1);
    for (let i = 0; i < bulk.n; i++) start[bulk.ids[i]! + 1]!++;
    for (let t = 0; t < terms; t++) start[t + 1]! += start[t]!;
    const slots = new Int32Array(bulk.n);
    const tfs = new Uint16Array(bulk.n);
    const cursor = start.slice(0, terms);
    let slot = 0;
    for (let i = 0; i < bulk.n; i++) {
      while (i >= bulk.docEnd[slot]!) slot++;
      const at = cursor[bulk.ids[i]!]!++;
      slots[at] = slot;
      tfs[at] = bulk.tfs[i]!;
    }
    for (let t = 0; t < terms; t++)
      this.postings[t] = Postings.view(
        slots.subarray(start[t]!, start[t + 1]!),
        tfs.subarray(start[t]!, start[t + 1]!),
      );
  }

  #growBulk(need: number): void {
    const bulk = this.#bulk!;
    let size = bulk.ids.length;
    while (size < need) size *= 2;
    const ids = new Int32Array(size);
    ids.set(bulk.ids.subarray(0, bulk.n));
    const tfs = new Uint16Array(size);
    tfs.set(bulk.tfs.subarray(0, bulk.n));
    this.#bulk = { ...bulk, ids, tfs };
  }

  /** Adds a slot with no postings (loading a snapshot adds postings per term afterwards). */
  addSlot(length: number): number {
    return this.#newSlot(length);
  }

  /** Tombstones a slot; its postings are skipped until the next compaction. */
  remove(slot: number): void {
    if (slot < 0 || slot >= this.slotCount || this.live[slot] === 0) return;
    this.live[slot] = 0;
    this.liveCount--;
    this.deadCount++;
    this.totalLength -= this.lengths[slot]!;
  }

  /** BM25 score of every live slot matching at least one of the (distinct) terms. */
  search(terms: readonly string[]): Matches {
    const n = this.liveCount;
    if (this.#acc.length < this.slotCount) {
      this.#acc = new Float64Array(this.slotCount * 2);
      this.#touched = new Int32Array(this.slotCount * 2);
    }
    const acc = this.#acc;
    const touched = this.#touched;
    const live = this.live;
    const lengths = this.lengths;
    let count = 0;
    const avg = n > 0 ? this.totalLength / n : 1;
    const k1 = BM25_K1;
    const norm0 = k1 * (1 - BM25_B);
    const norm1 = (k1 * BM25_B) / (avg || 1);
    for (const term of new Set(terms)) {
      const p = this.postingsOf(term);
      if (!p) continue;
      const df = this.deadCount === 0 ? p.length : countLive(p, live);
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      // Two plain loops, not forEachSegment: a closure would put `count` in a context slot.
      for (let segment = 0; segment < 2; segment++) {
        const slots = segment === 0 ? p.baseSlots : p.slots;
        const tfs = segment === 0 ? p.baseTfs : p.tfs;
        const entries = segment === 0 ? p.baseSlots.length : p.n;
        for (let i = 0; i < entries; i++) {
          const slot = slots[i]!;
          if (live[slot] === 0) continue;
          const tf = tfs[i]!;
          const s = (idf * tf * (k1 + 1)) / (tf + norm0 + norm1 * lengths[slot]!);
          if (acc[slot] === 0) touched[count++] = slot;
          acc[slot] = acc[slot]! + s;
        }
      }
    }
    const outSlots = new Int32Array(count);
    const outScores = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const slot = touched[i]!;
      outSlots[i] = slot;
      outScores[i] = acc[slot]!;
      acc[slot] = 0;
    }
    return { slots: outSlots, scores: outScores, count };
  }

  /**
   * A copy with only the live slots, renumbered in order, and only terms that still have postings;
   * `remap[old]` is the new slot or -1. Used before writing, so dead postings never reach the disk.
   */
  compacted(): { index: Bm25Index; remap: Int32Array } {
    const remap = new Int32Array(this.slotCount).fill(-1);
    const out = new Bm25Index();
    for (let slot = 0; slot < this.slotCount; slot++)
      if (this.live[slot]) remap[slot] = out.addSlot(this.lengths[slot]!);
    this.postings.forEach((p, id) => {
      let q: Postings | undefined;
      p.forEachSegment((slots, tfs, entries) => {
        for (let i = 0; i < entries; i++) {
          const to = remap[slots[i]!]!;
          if (to < 0) continue;
          q ??= out.postings[out.internTerm(this.termList[id]!, Math.max(4, p.length))]!;
          q.push(to, tfs[i]!);
        }
      });
    });
    return { index: out, remap };
  }

  #newSlot(length: number): number {
    if (this.slotCount === this.lengths.length) {
      const lengths = new Uint32Array(this.slotCount * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
      const live = new Uint8Array(this.slotCount * 2);
      live.set(this.live);
      this.live = live;
    }
    const slot = this.slotCount++;
    this.lengths[slot] = length;
    this.live[slot] = 1;
    this.liveCount++;
    this.totalLength += length;
    return slot;
  }
}

function countLive(p: Postings, live: Uint8Array): number {
  let df = 0;
  p.forEachSegment((slots, _tfs, entries) => {
    for (let i = 0; i < entries; i++) if (live[slots[i]!] !== 0) df++;
  });
  return df;
}
