/**
 * Scoring a query over a Bm25Index: field-aware BM25 (BM25F with one saturation per term: the term's
 * frequency in the text, length-normalized, plus a fixed pseudo-frequency for each field it is in —
 * title, slug, tags, headings), term-at-a-time into dense accumulators. A query is a list of concepts
 * (a word of the query, or a feedback term), each with variants (the word's own term, the longer
 * terms it is a prefix of: `config` → configur, `auth` → authent, and its synonyms: `hang` → timeout);
 * a concept scores a document by its best variant, so a document never gains by holding several
 * spellings of one word. Beside the score, each match carries how much of the query it covers (the
 * share of the query's IDF mass it matches), how much it shares with it (that IDF mass in units of the
 * highest IDF this index can give), counting the content words only — not function words or chatter —
 * and how many content words that is: what a relevance floor needs to tell "about this" from "shares a
 * common word". Those count the words the user wrote (and their spellings) only: a synonym is a guess
 * at what they meant, so it ranks a memory (`coordination`) but never lifts it over the floor of what
 * a hook injects.
 */
import { prunable, scoreRest, type Pruning } from './bm25-prune.js';
import {
  addCredit,
  idf,
  resolveConcepts,
  scoringOf,
  type Bm25Params,
  type QueryConcept,
  type ScoredIndex,
  type SearchScratch,
} from './bm25-query.js';
import { FIELD_SHIFT, pageInTerm, TF_MASK } from './postings.js';

export { idf, SearchScratch } from './bm25-query.js';
export type { Bm25Params, QueryConcept, QueryVariant, ScoredIndex } from './bm25-query.js';
export type { Pruning } from './bm25-prune.js';

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
  /**
   * The IDF mass of the query's content words each match contains, in units of the highest IDF of this
   * index (two rare words shared ≈ 2; one common word ≈ 0.2): what it shares, whatever the query's length.
   */
  readonly evidence: Float64Array;
  /** How many of the query's content words each match contains. */
  readonly words: Uint8Array;
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
  evidence: new Float64Array(0),
  words: new Uint8Array(0),
  concepts: 0,
  found: 0,
};

/**
 * Scores `concepts` (at most the first 255) over the live documents of `index`. With `prune`, only the
 * matches that can reach the ranking's best `prune.keep` in scope are returned (see bm25-prune.ts): the
 * same best `keep`, with the same scores, as without it, at a fraction of the cost when a query holds a
 * word that most documents contain.
 */
export function searchConcepts(
  index: ScoredIndex,
  scratch: SearchScratch,
  concepts: readonly QueryConcept[],
  params: Bm25Params,
  prune?: Pruning,
): Matches {
  const n = index.liveCount;
  if (n === 0 || concepts.length === 0) return { ...EMPTY, concepts: concepts.filter((c) => c.counted).length };
  const scoring = scoringOf(index, params);
  const { lengths, avgLength, b, boosts, k1 } = scoring;
  const { resolved, mass, counted, found, synonyms } = resolveConcepts(index, concepts.slice(0, 255), k1);
  // Documents met: at most the entries of the posting lists scored, at most every slot.
  const entries = resolved.reduce((sum, c) => sum + c.postings, 0);
  scratch.ensure(index.slotCount, Math.min(index.slotCount, entries));
  const { at, acc, cover, extra, held, words, best, bestWeight, bestTyped, touched, conceptTouched, listed } = scratch;
  const live = index.live;
  const { block, tails } = index.postings;
  const blockTerms = block.start.length - 1;
  // The highest IDF a word can have here (a word in one document): evidence's unit.
  const idfMax = idf(n, 1);
  let count = 0;
  for (let c = 0; c < resolved.length; c++) {
    const concept = resolved[c]!;
    if (prune && c > 0 && prunable(scratch, count, resolved, c, mass, prune)) {
      count = scoreRest(index, scratch, count, resolved, c, scoring);
      break;
    }
    const { variants, conceptIdf, content } = concept;
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
          pageInTerm(block, v.id);
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
          // An empty body with b = 1 has no norm (0/0): it has no term frequency to scale either, so 0, never NaN.
          const norm = 1 - b + (b * lengths[slot]!) / avgLength;
          const t = (value & TF_MASK) * (norm > 0 ? 1 / norm : 0) + boosts[value >>> FIELD_SHIFT]!;
          const s = (weight * t) / (k1 + t);
          // The document's place, handed out when the query meets it first.
          let p = at[slot]! - 1;
          if (p < 0) {
            p = scratch.placed++;
            at[slot] = p + 1;
          }
          if (direct) {
            if (listed[p] === 0) {
              listed[p] = 1;
              touched[count++] = slot;
            }
            acc[p] = acc[p]! + concept.weight * s;
            if (credit > 0) {
              if (directSynonym) {
                extra[p] = extra[p]! + credit;
                continue;
              }
              cover[p] = cover[p]! + credit;
              if (content) {
                held[p] = held[p]! + credit;
                words[p] = words[p]! + 1;
              }
            }
            continue;
          }
          if (bestWeight[p] === 0) conceptTouched[touchedHere++] = slot;
          if (s > best[p]!) best[p] = s;
          if (v.weight > bestWeight[p]!) bestWeight[p] = v.weight;
          if (!v.synonym && v.weight > bestTyped[p]!) bestTyped[p] = v.weight;
        }
      }
    }
    for (let j = 0; j < touchedHere; j++) {
      const slot = conceptTouched[j]!;
      const p = at[slot]! - 1;
      if (listed[p] === 0) {
        listed[p] = 1;
        touched[count++] = slot;
      }
      acc[p] = acc[p]! + concept.weight * best[p]!;
      if (concept.counted) addCredit(scratch, p, concept, bestWeight[p]!, bestTyped[p]!);
      best[p] = 0;
      bestWeight[p] = 0;
      bestTyped[p] = 0;
    }
  }
  const outSlots = new Int32Array(count);
  const outScores = new Float64Array(count);
  const coverage = new Float64Array(count);
  const coordination = synonyms ? new Float64Array(count) : coverage;
  const evidence = new Float64Array(count);
  const matchedWords = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const slot = touched[i]!;
    const p = at[slot]! - 1;
    outSlots[i] = slot;
    outScores[i] = acc[p]!;
    coverage[i] = mass > 0 ? Math.min(1, cover[p]! / mass) : 0;
    if (synonyms) coordination[i] = mass > 0 ? Math.min(1, (cover[p]! + extra[p]!) / mass) : 0;
    evidence[i] = held[p]! / idfMax;
    matchedWords[i] = words[p]!;
    scratch.release(slot, p);
  }
  scratch.placed = 0;
  return {
    slots: outSlots,
    scores: outScores,
    count,
    coverage,
    coordination,
    evidence,
    words: matchedWords,
    concepts: counted,
    found,
  };
}
