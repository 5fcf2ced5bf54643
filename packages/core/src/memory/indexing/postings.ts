import { pageIn, pageInAll } from './snapshot-pages.js';

/**
 * Postings without an object per term: one compressed-sparse-row block (every term's slots ascending,
 * back to back, with their term frequencies; `start[t]..start[t + 1]` is term t's run) — built by a
 * bulk inversion or viewed in a loaded snapshot's bytes — and, for the terms an update touched since, a
 * tail grown by doubling. Appending never copies the block, so the first update after a load costs
 * what it adds, not the size of the common terms' lists.
 */

/**
 * A posting's value: the term's frequency in the document's text (low 12 bits, saturating at 4095) and
 * the fields it appears in (high 4 bits, searchable.ts's FIELD_* flags).
 */
export const TF_MASK = 0xfff;
export const FIELD_SHIFT = 12;

/** The posting value of a term counted `tf` times in the text and flagged in `fields`. */
export function postingValue(tf: number, fields: number): number {
  return (tf > TF_MASK ? TF_MASK : tf) | (fields << FIELD_SHIFT);
}

const NONE32 = new Int32Array(1);
const NONE16 = new Uint16Array(0);
const NO_SLOTS = new Int32Array(0);

export interface PostingBlock {
  /** `start[t]..start[t + 1]`: term t's entries (length = terms in the block + 1). */
  readonly start: Int32Array;
  readonly slots: Int32Array;
  readonly tfs: Uint16Array;
}

/** A term's entries appended after the block (slots ascend, and all follow the block's). */
export interface Tail {
  slots: Int32Array;
  tfs: Uint16Array;
  n: number;
}

/**
 * Makes term `term`'s entries of a block readable (a loaded snapshot's block is paged: see
 * snapshot-pages.ts); a term past the block has none. Call before reading `start[term..term + 1]` or
 * the entries between.
 */
export function pageInTerm(block: PostingBlock, term: number): void {
  if (term >= block.start.length - 1) return;
  pageIn(block.start, term, term + 2);
  const from = block.start[term]!;
  const to = block.start[term + 1]!;
  pageIn(block.slots, from, to);
  pageIn(block.tfs, from, to);
}

/** Makes all of a block readable (to write it out). */
export function pageInBlock(block: PostingBlock): PostingBlock {
  pageInAll(block.start);
  pageInAll(block.slots);
  pageInAll(block.tfs);
  return block;
}

export const EMPTY_BLOCK: PostingBlock = { start: NONE32, slots: NO_SLOTS, tfs: NONE16 };

export class PostingStore {
  block: PostingBlock;
  readonly tails = new Map<number, Tail>();

  constructor(block: PostingBlock = EMPTY_BLOCK) {
    this.block = block;
  }

  /** Terms the block covers (later terms only have tails). */
  get blockTerms(): number {
    return this.block.start.length - 1;
  }

  /** Entries of a term in both parts. */
  length(term: number): number {
    const b = this.block;
    pageInTerm(b, term);
    const inBlock = term < b.start.length - 1 ? b.start[term + 1]! - b.start[term]! : 0;
    return inBlock + (this.tails.get(term)?.n ?? 0);
  }

  append(term: number, slot: number, tf: number): void {
    let tail = this.tails.get(term);
    if (!tail) this.tails.set(term, (tail = { slots: new Int32Array(4), tfs: new Uint16Array(4), n: 0 }));
    if (tail.n === tail.slots.length) {
      const slots = new Int32Array(tail.n * 2);
      slots.set(tail.slots);
      tail.slots = slots;
      const tfs = new Uint16Array(tail.n * 2);
      tfs.set(tail.tfs);
      tail.tfs = tfs;
    }
    tail.slots[tail.n] = slot;
    tail.tfs[tail.n++] = tf > 65535 ? 65535 : tf;
  }

  /** Total entries (both parts). */
  get total(): number {
    let n = this.block.slots.length;
    for (const tail of this.tails.values()) n += tail.n;
    return n;
  }
}

/**
 * The (term, tf) runs of documents added in a bulk build, in fixed-size chunks (growing never copies
 * what is there), inverted once by a counting sort into a PostingBlock.
 */
export class BulkRuns {
  static readonly CHUNK = 1 << 20;
  readonly #ids: Int32Array[] = [];
  readonly #tfs: Uint16Array[] = [];
  #n = 0;
  /** Run end (exclusive, over all runs) of each slot added, in slot order. */
  #ends = new Int32Array(1024);
  #slots = 0;

  push(term: number, tf: number): void {
    const chunk = this.#n >>> 20;
    if (chunk === this.#ids.length) {
      this.#ids.push(new Int32Array(BulkRuns.CHUNK));
      this.#tfs.push(new Uint16Array(BulkRuns.CHUNK));
    }
    const at = this.#n & (BulkRuns.CHUNK - 1);
    this.#ids[chunk]![at] = term;
    this.#tfs[chunk]![at] = tf > 65535 ? 65535 : tf;
    this.#n++;
  }

  /** Closes the current slot's run (slots are numbered 0, 1, … in the order of these calls). */
  endSlot(): void {
    if (this.#slots === this.#ends.length) {
      const ends = new Int32Array(this.#ends.length * 2);
      ends.set(this.#ends);
      this.#ends = ends;
    }
    this.#ends[this.#slots++] = this.#n;
  }

  /** Inverts the runs of `terms` distinct terms into a block, then drops them. */
  invert(terms: number): PostingBlock {
    const start = new Int32Array(terms + 1);
    const chunks = this.#ids;
    const n = this.#n;
    for (let i = 0; i < n; i++) start[chunks[i >>> 20]![i & (BulkRuns.CHUNK - 1)]! + 1]!++;
    for (let t = 0; t < terms; t++) start[t + 1]! += start[t]!;
    const slots = new Int32Array(n);
    const tfs = new Uint16Array(n);
    const cursor = start.slice(0, terms);
    let slot = 0;
    const ends = this.#ends;
    for (let i = 0; i < n; i++) {
      while (i >= ends[slot]!) slot++;
      const k = i & (BulkRuns.CHUNK - 1);
      const at = cursor[chunks[i >>> 20]![k]!]!++;
      slots[at] = slot;
      tfs[at] = this.#tfs[i >>> 20]![k]!;
    }
    this.#ids.length = 0;
    this.#tfs.length = 0;
    return { start, slots, tfs };
  }
}
