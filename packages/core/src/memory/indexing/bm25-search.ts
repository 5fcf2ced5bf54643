/**
 * Scoring a query over a Bm25Index: field-aware BM25 (BM25F with one saturation per term: the term's
 * frequency in the text, length-normalized, plus a fixed pseudo-frequency for each field it is in —
 * title, slug, tags, headings), term-at-a-time into dense accumulators. A query is a list of concepts
 * (a word of the query, or a feedback term), each with variants (the word's own term, the longer
 * terms it is a prefix of: `config` → configur, `auth` → authent, and its synonyms: `hang` → timeout);
 * a concept scores a document by its best variant, so a document never gains by holding several
 * spellings of one word. Beside the score, each match carries how much of the query it covers (the
 * share of the query's IDF mass it matches), how much it shares with it (that IDF mass in units of the
 * highest IDF this index can give) and how specific its best match is (that word's IDF, in the same
 * unit): what a relevance floor needs to tell "about this" from "shares a common word". Those three
 * count the words the user wrote (and their spellings) only: a synonym is a guess at what they meant,
 * so it ranks a memory (`coordination`) but never lifts it over the floor of what a hook injects.
 */
import { FIELD_SHIFT, TF_MASK, type PostingStore } from './postings.js';
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
   * `coordination` only, never toward `coverage`, `evidence` or `specificity`.
   */
  readonly synonym?: boolean | undefined;
}

export interface QueryConcept {
  readonly variants: readonly QueryVariant[];
  /** The concept's weight in the score (1 for the user's words; feedback terms less). */
  readonly weight: number;
  /** Whether it counts toward coverage (the user's words do, feedback terms do not). */
  readonly counted: boolean;
}

export interface Bm25Params {
  readonly k1: number;
  readonly b: number;
  /** Pseudo-frequency a term gains for being in each field, by FIELD_* bit order: title, slug, tags, headings. */
  readonly fields: readonly number[];
}

/** Scores of the matching slots of one query, unsorted, with what a floor and a ranker need. */
export interface Matches {
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly count: number;
  /** Share of the query's IDF mass each match covers with the user's words (and their spellings), in [0, 1]. */
  readonly coverage: Float64Array;
  /**
   * The same share with synonyms counted at their weight: what ranking's coordination multiplies by.
   * The same array as `coverage` when the query has no synonym variant.
   */
  readonly coordination: Float64Array;
  /** IDF of the most specific word each match contains, over the highest IDF of this index, in [0, 1]. */
  readonly specificity: Float64Array;
  /**
   * The IDF mass of the query's words each match contains, in units of the highest IDF of this index
   * (two rare words shared ≈ 2; one common word ≈ 0.2): what it shares, whatever the query's length.
   */
  readonly evidence: Float64Array;
  /** The query's counted concepts, and how many the index holds at all. */
  readonly concepts: number;
  readonly found: number;
}

const EMPTY: Matches = {
  slots: new Int32Array(0),
  scores: new Float64Array(0),
  count: 0,
  coverage: new Float64Array(0),
  coordination: new Float64Array(0),
  specificity: new Float64Array(0),
  evidence: new Float64Array(0),
  concepts: 0,
  found: 0,
};

/** BM25's IDF (Lucene's form: never negative). */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** Per-index scratch, grown with the index and reused across queries (a query allocates its results only). */
export class SearchScratch {
  acc = new Float64Array(0);
  cover = new Float64Array(0);
  /** Coverage credit from synonyms beyond what the user's words gave (coordination − coverage, unscaled). */
  extra = new Float64Array(0);
  spec = new Float64Array(0);
  best = new Float64Array(0);
  bestWeight = new Float32Array(0);
  bestTyped = new Float32Array(0);
  touched = new Int32Array(0);
  conceptTouched = new Int32Array(0);
  seen = new Uint8Array(0);
  norms = new Float64Array(0);
  normsKey = '';

  ensure(size: number): void {
    if (this.acc.length >= size) return;
    const n = size * 2;
    this.acc = new Float64Array(n);
    this.cover = new Float64Array(n);
    this.extra = new Float64Array(n);
    this.spec = new Float64Array(n);
    this.best = new Float64Array(n);
    this.bestWeight = new Float32Array(n);
    this.bestTyped = new Float32Array(n);
    this.touched = new Int32Array(n);
    this.conceptTouched = new Int32Array(n);
    this.seen = new Uint8Array(n);
  }
}

/**
 * Per slot, the inverse of BM25's length normalization `1 / (1 − b + b·length/avgLength)`, recomputed
 * only when the collection or `b` changed since the last query.
 */
function inverseNorms(index: ScoredIndex, scratch: SearchScratch, b: number): Float64Array {
  const key = `${index.slotCount}:${index.liveCount}:${index.totalLength}:${b}`;
  if (scratch.normsKey !== key || scratch.norms.length < index.slotCount) {
    const avg = index.liveCount > 0 ? index.totalLength / index.liveCount || 1 : 1;
    if (scratch.norms.length < index.slotCount) scratch.norms = new Float64Array(index.slotCount * 2);
    const lengths = index.lengths;
    // An empty body with b = 1 has no norm (0/0): it has no term frequency to scale either, so 0, never NaN.
    for (let slot = 0; slot < index.slotCount; slot++) {
      const norm = 1 - b + (b * lengths[slot]!) / avg;
      scratch.norms[slot] = norm > 0 ? 1 / norm : 0;
    }
    scratch.normsKey = key;
  }
  return scratch.norms;
}

/** Field pseudo-frequency of each of the 16 flag combinations. */
function fieldBoosts(fields: readonly number[]): Float64Array {
  const out = new Float64Array(16);
  for (let flags = 1; flags < 16; flags++)
    for (let f = 0; f < 4; f++) if (flags & (1 << f)) out[flags] = out[flags]! + (fields[f] ?? 0);
  return out;
}

/** Scores `concepts` (at most the first 255) over the live documents of `index`. */
export function searchConcepts(
  index: ScoredIndex,
  scratch: SearchScratch,
  concepts: readonly QueryConcept[],
  params: Bm25Params,
): Matches {
  const n = index.liveCount;
  if (n === 0 || concepts.length === 0) return { ...EMPTY, concepts: concepts.filter((c) => c.counted).length };
  scratch.ensure(index.slotCount);
  const { acc, cover, extra, spec, best, bestWeight, bestTyped, touched, conceptTouched, seen } = scratch;
  const live = index.live;
  const norms = inverseNorms(index, scratch, params.b);
  const boosts = fieldBoosts(params.fields);
  const k1 = params.k1;
  const { block, tails } = index.postings;
  const blockTerms = block.start.length - 1;
  // The highest IDF a word can have here (a word in one document): specificity's scale.
  const idfMax = idf(n, 1);
  let count = 0;
  let found = 0;
  let mass = 0;
  let counted = 0;
  let synonyms = false;
  for (const concept of concepts.slice(0, 255)) {
    // The concept's IDF (for coverage and specificity): its own term's, else that of the union of its
    // spellings (their document frequencies summed; synonyms are not spellings), else that of a word
    // no document holds.
    const variants: Array<{ id: number; weight: number; idf: number; synonym: boolean }> = [];
    let unionDf = 0;
    let ownDf = -1;
    for (const v of concept.variants) {
      const id = index.terms.id(v.term);
      const df = id < 0 ? 0 : index.documentFrequency(id);
      if (v === concept.variants[0]) ownDf = df;
      if (df === 0) continue;
      const synonym = v.synonym === true;
      if (!synonym) unionDf += df;
      variants.push({ id, weight: v.weight, idf: idf(n, df), synonym });
    }
    const conceptIdf = ownDf > 0 ? idf(n, ownDf) : idf(n, Math.min(n, unionDf));
    // A synonym scores at most as the word would: a rare synonym of a common word is no rarer a match,
    // so a memory holding the user's own word is never outscored by one holding only its synonym, alike.
    for (const v of variants)
      if (v.synonym) {
        synonyms = true;
        v.idf = Math.min(v.idf, conceptIdf);
      }
    if (concept.counted) {
      counted++;
      mass += conceptIdf;
    }
    if (variants.length === 0) continue;
    found++;
    let touchedHere = 0;
    // One variant (most words): its score is the concept's, added straight in (no best-of pass).
    const direct = variants.length === 1;
    const credit = concept.counted ? conceptIdf * variants[0]!.weight : 0;
    const directSynonym = variants[0]!.synonym;
    for (const v of variants) {
      const weight = v.weight * v.idf * (k1 + 1);
      const tail = tails.get(v.id);
      // Two plain loops, not a callback: a closure would put the counters in a context slot.
      for (let segment = 0; segment < 2; segment++) {
        let slots: Int32Array;
        let tfs: Uint16Array;
        let from: number;
        let to: number;
        if (segment === 0) {
          if (v.id >= blockTerms) continue;
          ({ slots, tfs } = block);
          from = block.start[v.id]!;
          to = block.start[v.id + 1]!;
        } else {
          if (!tail) continue;
          ({ slots, tfs } = tail);
          from = 0;
          to = tail.n;
        }
        for (let i = from; i < to; i++) {
          const slot = slots[i]!;
          if (live[slot] === 0) continue;
          const value = tfs[i]!;
          const t = (value & TF_MASK) * norms[slot]! + boosts[value >>> FIELD_SHIFT]!;
          const s = (weight * t) / (k1 + t);
          if (direct) {
            if (seen[slot] === 0) {
              seen[slot] = 1;
              touched[count++] = slot;
            }
            acc[slot] = acc[slot]! + concept.weight * s;
            if (credit > 0) {
              if (directSynonym) {
                extra[slot] = extra[slot]! + credit;
                continue;
              }
              cover[slot] = cover[slot]! + credit;
              if (credit > spec[slot]!) spec[slot] = credit;
            }
            continue;
          }
          if (bestWeight[slot] === 0) conceptTouched[touchedHere++] = slot;
          if (s > best[slot]!) best[slot] = s;
          if (v.weight > bestWeight[slot]!) bestWeight[slot] = v.weight;
          if (!v.synonym && v.weight > bestTyped[slot]!) bestTyped[slot] = v.weight;
        }
      }
    }
    for (let j = 0; j < touchedHere; j++) {
      const slot = conceptTouched[j]!;
      if (seen[slot] === 0) {
        seen[slot] = 1;
        touched[count++] = slot;
      }
      acc[slot] = acc[slot]! + concept.weight * best[slot]!;
      if (concept.counted) {
        const credit = conceptIdf * bestTyped[slot]!;
        if (credit > 0) {
          cover[slot] = cover[slot]! + credit;
          if (credit > spec[slot]!) spec[slot] = credit;
        }
        // What a synonym adds beyond the user's own spellings: ranking's coordination only.
        if (bestWeight[slot]! > bestTyped[slot]!)
          extra[slot] = extra[slot]! + conceptIdf * (bestWeight[slot]! - bestTyped[slot]!);
      }
      best[slot] = 0;
      bestWeight[slot] = 0;
      bestTyped[slot] = 0;
    }
  }
  const outSlots = new Int32Array(count);
  const outScores = new Float64Array(count);
  const coverage = new Float64Array(count);
  const coordination = synonyms ? new Float64Array(count) : coverage;
  const specificity = new Float64Array(count);
  const evidence = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const slot = touched[i]!;
    outSlots[i] = slot;
    outScores[i] = acc[slot]!;
    coverage[i] = mass > 0 ? Math.min(1, cover[slot]! / mass) : 0;
    if (synonyms) coordination[i] = mass > 0 ? Math.min(1, (cover[slot]! + extra[slot]!) / mass) : 0;
    specificity[i] = Math.min(1, spec[slot]! / idfMax);
    evidence[i] = cover[slot]! / idfMax;
    acc[slot] = 0;
    cover[slot] = 0;
    extra[slot] = 0;
    spec[slot] = 0;
    seen[slot] = 0;
  }
  return {
    slots: outSlots,
    scores: outScores,
    count,
    coverage,
    coordination,
    specificity,
    evidence,
    concepts: counted,
    found,
  };
}
