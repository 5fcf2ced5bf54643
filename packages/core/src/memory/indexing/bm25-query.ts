/**
 * What scoring a query reads and shares: the index as scoring sees it, the query's concepts, BM25F's
 * parameters and IDF, the per-index scratch, and each concept resolved against the index (its
 * variants' terms and IDFs, its IDF for coverage, and the most it can add to a score).
 */
import type { PostingStore } from './postings.js';
import type { TermTable } from './term-table.js';

/** What scoring reads of an index (Bm25Index implements it). */
export interface ScoredIndex {
  readonly liveCount: number;
  readonly slotCount: number;
  readonly totalLength: number;
  readonly lengths: Uint32Array;
  readonly live: Uint8Array;
  readonly postings: PostingStore;
  readonly terms: TermTable;
  documentFrequency(id: number): number;
}

/** One spelling of a query concept and its weight (1 for the word's own term). */
export interface QueryVariant {
  readonly term: string;
  readonly weight: number;
  /**
   * A synonym of the word rather than a spelling of it: it scores a document at most at the IDF of the
   * concept's own spellings (a rare synonym of a common word is no rarer a match), and counts toward
   * `coordination` only, never toward `coverage`, `evidence` or `words`.
   */
  readonly synonym?: boolean | undefined;
}

export interface QueryConcept {
  readonly variants: readonly QueryVariant[];
  /** The concept's weight in the score (1 for the user's words; feedback terms less). */
  readonly weight: number;
  /** Whether it counts toward coverage (the user's words do, feedback terms do not). */
  readonly counted: boolean;
  /**
   * Whether it is a content word, not a function word or chatter (default: when counted): what a match's
   * `evidence` and `words` count, for the injection floor.
   */
  readonly content?: boolean | undefined;
}

export interface Bm25Params {
  readonly k1: number;
  readonly b: number;
  /** Pseudo-frequency a term gains for being in each field, by FIELD_* bit order: title, slug, tags, headings. */
  readonly fields: readonly number[];
}

/** BM25's IDF (Lucene's form: never negative). */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Per-index scratch, reused across queries (a query allocates its results only). A document's sums live
 * in compact arrays, at the place `at` gives its slot (place + 1; 0: none yet), in the order documents
 * are first met: a query touches memory in proportion to the documents it matches, not to the index. Why:
 * a new process (a prompt hook) pays for every page of fresh memory it writes, and a dozen arrays of
 * 100 000 slots each, written at a few thousand scattered slots, were ~1 000 such pages.
 */
export class SearchScratch {
  /** Per slot: its place in the arrays below, plus one; 0 when the query has not met it. */
  at = new Int32Array(0);
  /** Places handed out (this query's). */
  placed = 0;
  acc = new Float64Array(0);
  cover = new Float64Array(0);
  /** Coverage credit from synonyms beyond what the user's words gave (coordination − coverage, unscaled). */
  extra = new Float64Array(0);
  /** IDF mass of the content words a document holds (the user's own spellings), and how many. */
  held = new Float64Array(0);
  words = new Uint8Array(0);
  best = new Float64Array(0);
  bestWeight = new Float32Array(0);
  /** The best weight among a concept's spellings (not its synonyms) a document holds. */
  bestTyped = new Float32Array(0);
  /** Whether the document is in `touched` yet. */
  listed = new Uint8Array(0);
  /** Slots in the order they were listed: the order of the matches. */
  touched = new Int32Array(0);
  /** Slots met by the concept being scored (several variants: its best one is added after). */
  conceptTouched = new Int32Array(0);

  /**
   * Room for `slots` slots and `places` documents met (at most the query's posting entries, at most the
   * slots). Arrays are replaced only when too small; they are zero wherever a query left them (see
   * `release`).
   */
  ensure(slots: number, places: number): void {
    if (this.at.length < slots) this.at = new Int32Array(slots * 2);
    if (this.acc.length >= places) return;
    const n = Math.max(places, this.acc.length * 2, 64);
    this.acc = new Float64Array(n);
    this.cover = new Float64Array(n);
    this.extra = new Float64Array(n);
    this.held = new Float64Array(n);
    this.words = new Uint8Array(n);
    this.best = new Float64Array(n);
    this.bestWeight = new Float32Array(n);
    this.bestTyped = new Float32Array(n);
    this.listed = new Uint8Array(n);
    this.touched = new Int32Array(n);
    this.conceptTouched = new Int32Array(n);
  }

  /** Zeroes what the query wrote for `slot` (listed, at `place`), for the next query. */
  release(slot: number, place: number): void {
    this.acc[place] = 0;
    this.cover[place] = 0;
    this.extra[place] = 0;
    this.held[place] = 0;
    this.words[place] = 0;
    this.listed[place] = 0;
    this.at[slot] = 0;
  }
}

/** Field pseudo-frequency of each of the 16 flag combinations. */
function fieldBoosts(fields: readonly number[]): Float64Array {
  const out = new Float64Array(16);
  for (let flags = 1; flags < 16; flags++)
    for (let f = 0; f < 4; f++) if (flags & (1 << f)) out[flags] = out[flags]! + (fields[f] ?? 0);
  return out;
}

/** The constants of one query's scoring. */
export interface Scoring {
  readonly lengths: Uint32Array;
  readonly avgLength: number;
  readonly b: number;
  readonly k1: number;
  readonly boosts: Float64Array;
}

/**
 * BM25F's constants over `index`: the length normalization `1 − b + b·length/avgLength` is computed per
 * entry read — a table of it for every slot would cost a new process more (a megabyte written at
 * 100 000 notes) than it saves.
 */
export function scoringOf(index: ScoredIndex, params: Bm25Params): Scoring {
  const n = index.liveCount;
  return {
    lengths: index.lengths,
    avgLength: n > 0 ? index.totalLength / n || 1 : 1,
    b: params.b,
    k1: params.k1,
    boosts: fieldBoosts(params.fields),
  };
}

/** A concept as the index holds it. */
export interface ResolvedConcept {
  /** The variants the index holds (term id, weight, IDF). */
  readonly variants: ReadonlyArray<{
    readonly id: number;
    readonly weight: number;
    readonly idf: number;
    readonly synonym: boolean;
  }>;
  readonly weight: number;
  readonly counted: boolean;
  /** Whether a match's evidence and words count it (a counted content word). */
  readonly content: boolean;
  /** Its IDF for coverage and evidence. */
  readonly conceptIdf: number;
  /** The most it can add to a document's score (BM25 saturates below `weight·idf·(k1 + 1)`). */
  readonly upper: number;
  /**
   * The most coordination credit it can give (its IDF times its best variant's weight, synonyms
   * included), 0 when uncounted.
   */
  readonly creditMax: number;
  /** Entries of its variants' posting lists: what scoring it in full reads. */
  readonly postings: number;
}

/**
 * The concepts the index holds, most valuable first (the highest `upper`; ties in query order) — the
 * order every document's score is summed in, pruned or not, so both give the same bits — with the
 * query's IDF mass (counted concepts, held or not), how many are counted, and how many the index holds.
 */
export function resolveConcepts(
  index: ScoredIndex,
  concepts: readonly QueryConcept[],
  k1: number,
): { resolved: ResolvedConcept[]; mass: number; counted: number; found: number; synonyms: boolean } {
  const n = index.liveCount;
  const resolved: Array<ResolvedConcept & { order: number }> = [];
  let mass = 0;
  let counted = 0;
  concepts.forEach((concept, order) => {
    // The concept's IDF (for coverage and evidence): its own term's, else that of the union of its
    // spellings (their document frequencies summed; synonyms are not spellings), else that of a word no
    // document holds.
    const variants: Array<{ id: number; weight: number; idf: number; synonym: boolean }> = [];
    let unionDf = 0;
    let ownDf = -1;
    let postings = 0;
    for (const v of concept.variants) {
      const id = index.terms.id(v.term);
      const df = id < 0 ? 0 : index.documentFrequency(id);
      if (v === concept.variants[0]) ownDf = df;
      if (df === 0) continue;
      const synonym = v.synonym === true;
      if (!synonym) unionDf += df;
      postings += index.postings.length(id);
      variants.push({ id, weight: v.weight, idf: idf(n, df), synonym });
    }
    const conceptIdf = ownDf > 0 ? idf(n, ownDf) : idf(n, Math.min(n, unionDf));
    // A synonym scores at most as the word would: a rare synonym of a common word is no rarer a match,
    // so a memory holding the user's own word is never outscored by one holding only its synonym, alike.
    for (const v of variants) if (v.synonym) v.idf = Math.min(v.idf, conceptIdf);
    if (concept.counted) {
      counted++;
      mass += conceptIdf;
    }
    if (variants.length === 0) return;
    const upper = concept.weight * Math.max(...variants.map((v) => v.weight * v.idf * (k1 + 1)));
    const creditMax = concept.counted ? conceptIdf * Math.max(...variants.map((v) => v.weight)) : 0;
    resolved.push({
      variants,
      weight: concept.weight,
      counted: concept.counted,
      content: concept.counted && concept.content !== false,
      conceptIdf,
      upper,
      creditMax,
      postings,
      order,
    });
  });
  resolved.sort((a, b) => b.upper - a.upper || a.order - b.order);
  const synonyms = resolved.some((c) => c.variants.some((v) => v.synonym));
  return { resolved, mass, counted, found: resolved.length, synonyms };
}

/**
 * A counted concept's coverage credit for a document (at `place`) whose best variant weight is `best`, `typed` the
 * best among the user's spellings (not synonyms): the spellings' share counts toward coverage and, for
 * a content word, toward the evidence and words the injection floor reads; what a synonym adds beyond
 * it, toward coordination only.
 */
export function addCredit(
  scratch: SearchScratch,
  place: number,
  concept: Pick<ResolvedConcept, 'conceptIdf' | 'content'>,
  best: number,
  typed: number,
): void {
  const conceptIdf = concept.conceptIdf;
  const own = conceptIdf * typed;
  if (own > 0) {
    scratch.cover[place] = scratch.cover[place]! + own;
    if (concept.content) {
      scratch.held[place] = scratch.held[place]! + own;
      scratch.words[place] = scratch.words[place]! + 1;
    }
  }
  if (best > typed) scratch.extra[place] = scratch.extra[place]! + conceptIdf * (best - typed);
}
