/**
 * Safe early termination for a query with common words (MaxScore, Turtle and Flood 1995). Concepts are
 * scored rarest first; before each, if no document that only the concepts left could match can reach
 * the ranking's best `keep` — what those concepts can add at most, times the most coverage they can
 * give and the most the ranking's other factors can lift a score, is below the `keep`-th best lower
 * bound already found — the rest are scored for the documents found so far only, by binary search in
 * their (ascending) posting lists, instead of reading every entry. The best `keep` and their scores are
 * exactly those of the full pass. Why: a prompt hook in a new process spent most of its answer scoring
 * the 100 000 entries of a word in nearly every note, which cannot decide which note comes first.
 */
import { addCredit, type ResolvedConcept, type ScoredIndex, type Scoring, type SearchScratch } from './bm25-query.js';
import { FIELD_SHIFT, pageInTerm, TF_MASK } from './postings.js';

/** What the ranking after the search needs exact, and how it scores (see rank.ts). */
export interface Pruning {
  /** How many in-scope matches the ranking reads (its heap: k plus its refinement margin). */
  readonly keep: number;
  /**
   * The least a document's relevance is weighed by (an episode's log weight, a global note's), 0 when
   * the ranking may not return it (out of scope).
   */
  readonly weight: (slot: number) => number;
  /** The most the ranking's other factors multiply a weighed relevance by (the recency prior: 1 + β). */
  readonly lift: number;
  /** The exponent on coverage (score = BM25 × coverage^γ). */
  readonly gamma: number;
}

/** Margin against rounding: prune only when the bound is below the threshold by more than this share. */
const MARGIN = 1e-9;
/** Prune only when the entries left to read are this many times the documents found (else reading is cheaper). */
const WORTH = 4;

/**
 * Whether concepts `from…` may be scored for the `count` documents found so far only (see the module
 * comment). Reads the scratch's accumulators; changes nothing.
 */
export function prunable(
  scratch: SearchScratch,
  count: number,
  resolved: readonly ResolvedConcept[],
  from: number,
  mass: number,
  prune: Pruning,
): boolean {
  if (count < prune.keep || mass <= 0) return false;
  let left = 0;
  let upper = 0;
  let credit = 0;
  for (let c = from; c < resolved.length; c++) {
    left += resolved[c]!.postings;
    upper += resolved[c]!.upper;
    credit += resolved[c]!.creditMax;
  }
  if (left < WORTH * count) return false;
  const bound = upper * coverageFactor(credit / mass, prune.gamma) * prune.lift;
  return bound < threshold(scratch, count, mass, prune) * (1 - MARGIN);
}

/** The `keep`-th best lower bound of a weighed score among the documents found (0 when fewer in scope). */
function threshold(scratch: SearchScratch, count: number, mass: number, prune: Pruning): number {
  const { at, acc, cover, extra, touched } = scratch;
  // The `keep` largest in a min-heap (its root the keep-th largest): no sort of every document found.
  const keep = prune.keep;
  const heap = new Float64Array(keep);
  let m = 0;
  for (let i = 0; i < count; i++) {
    const slot = touched[i]!;
    const w = prune.weight(slot);
    if (w <= 0) continue;
    const p = at[slot]! - 1;
    // What ranking multiplies by is coordination (coverage with synonyms at their weight).
    const low = acc[p]! * coverageFactor((cover[p]! + extra[p]!) / mass, prune.gamma) * w;
    if (m < keep) {
      let at = m++;
      while (at > 0 && heap[(at - 1) >> 1]! > low) {
        heap[at] = heap[(at - 1) >> 1]!;
        at = (at - 1) >> 1;
      }
      heap[at] = low;
    } else if (low > heap[0]!) {
      let at = 0;
      for (;;) {
        const l = 2 * at + 1;
        if (l >= keep) break;
        const c = l + 1 < keep && heap[l + 1]! < heap[l]! ? l + 1 : l;
        if (heap[c]! >= low) break;
        heap[at] = heap[c]!;
        at = c;
      }
      heap[at] = low;
    }
  }
  return m < keep ? 0 : heap[0]!;
}

function coverageFactor(coverage: number, gamma: number): number {
  const c = Math.min(1, coverage);
  return gamma === 0 ? 1 : gamma === 1 ? c : Math.pow(c, gamma);
}

/**
 * Adds concepts `from…` to the `count` documents found (and only to them), as the full pass would:
 * each concept's best variant, its coverage credit (and a content word's evidence). Returns the count
 * (unchanged: nothing new is found).
 */
export function scoreRest(
  index: ScoredIndex,
  scratch: SearchScratch,
  count: number,
  resolved: readonly ResolvedConcept[],
  from: number,
  scoring: Scoring,
): number {
  const { at, acc, touched } = scratch;
  const { lengths, avgLength, b, k1, boosts } = scoring;
  const { block, tails } = index.postings;
  const blockTerms = block.start.length - 1;
  const found = touched.slice(0, count).sort();
  for (let c = from; c < resolved.length; c++) {
    const concept = resolved[c]!;
    const runs = concept.variants.map((v) => {
      if (v.id < blockTerms) pageInTerm(block, v.id);
      return {
        weight: v.weight,
        synonym: v.synonym,
        factor: v.weight * v.idf * (k1 + 1),
        from: v.id < blockTerms ? block.start[v.id]! : 0,
        to: v.id < blockTerms ? block.start[v.id + 1]! : 0,
        tail: tails.get(v.id),
        tailFrom: 0,
      };
    });
    for (let i = 0; i < count; i++) {
      const slot = found[i]!;
      let best = 0;
      let bestWeight = 0;
      let bestTyped = 0;
      let any = false;
      for (const run of runs) {
        let at = lowerBound(block.slots, run.from, run.to, slot);
        run.from = at;
        let value = -1;
        if (at < run.to && block.slots[at] === slot) value = block.tfs[at]!;
        else if (run.tail) {
          at = lowerBound(run.tail.slots, run.tailFrom, run.tail.n, slot);
          run.tailFrom = at;
          if (at < run.tail.n && run.tail.slots[at] === slot) value = run.tail.tfs[at]!;
        }
        if (value < 0) continue;
        any = true;
        const norm = 1 - b + (b * lengths[slot]!) / avgLength;
        const t = (value & TF_MASK) * (norm > 0 ? 1 / norm : 0) + boosts[value >>> FIELD_SHIFT]!;
        const s = (run.factor * t) / (k1 + t);
        if (s > best) best = s;
        if (run.weight > bestWeight) bestWeight = run.weight;
        if (!run.synonym && run.weight > bestTyped) bestTyped = run.weight;
      }
      if (!any) continue;
      const p = at[slot]! - 1;
      acc[p] = acc[p]! + concept.weight * best;
      if (concept.counted) addCredit(scratch, p, concept, bestWeight, bestTyped);
    }
  }
  return count;
}

/** The first index in `from..to` whose slot is ≥ `slot` (slots ascend). */
function lowerBound(slots: Int32Array, from: number, to: number, slot: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid]! < slot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
