import { docsView, type RankDoc, type RankView, type ScopeOptions } from '../documents/rank-contract.js';
import { recallScore, recencyOf, relevanceOf } from './score.js';

export interface RankOptions extends ScopeOptions {
  readonly k: number;
  /** Recency half-life of episodes (harness-log entries); of notes too unless `noteHalfLife` is given. */
  readonly halfLife: number;
  /** Recency half-life of notes (default: `halfLife`). */
  readonly noteHalfLife?: number | undefined;
  /** Relevance weight of an episode against a note (default 1). */
  readonly logWeight?: number | undefined;
  /** Relevance weight of a global note in a recall scoped to a project (default 1). */
  readonly globalWeight?: number | undefined;
  readonly wSem: number;
  readonly wRec: number;
  readonly lexicalShare: number;
}

export interface Ranked<D> {
  readonly doc: D;
  /** Relevance in [0, 1] (see `relevanceOf`). */
  readonly similarity: number;
  readonly recency: number;
  readonly score: number;
  /** BM25 score times the share of the query's words matched, before normalization (0: no words, or none matched). */
  readonly bm25: number;
  readonly cosine: number | undefined;
}

/** Lexical matches of a query: BM25 score by slot. `undefined` = no words in the query (rank by recency). */
export interface MatchSet {
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly count: number;
  /** Distinct query terms each match contains, and how many the query has (absent: not counted). */
  readonly matched?: Uint8Array | undefined;
  readonly terms?: number | undefined;
}

/**
 * Ranks documents for recall. Pure. Candidates are the lexical matches (when the query has words),
 * every in-scope document with a cosine (when the query has a vector), or every in-scope document
 * (no words, no vector: recency alone). A match's BM25 score is scaled by the share of the query's
 * distinct words it contains; relevance is that normalized by the best among the in-scope matches,
 * then weighted: an episode by `logWeight`, a global note by `globalWeight` when
 * the recall is scoped to a project. Recency decays with `noteHalfLife` for notes and `halfLife` for
 * episodes. Returns the top k by score, ties broken by the more recent update.
 */
export function rankDocuments<D extends RankDoc>(
  docs: RankView<D> | readonly (D | undefined)[],
  matches: MatchSet | undefined,
  cosines: ArrayLike<number> | undefined,
  options: RankOptions,
): Ranked<D>[] {
  const view = Array.isArray(docs) ? docsView(docs as readonly (D | undefined)[]) : (docs as RankView<D>);
  const ok = view.scope(options);
  // Candidates as parallel typed arrays (slot, raw BM25): no object per candidate.
  const capacity = (matches?.count ?? 0) + (!matches || cosines ? view.size : 0);
  const slots = new Int32Array(capacity);
  const raws = new Float64Array(capacity);
  let n = 0;
  let max = 0;
  let lexical: Uint8Array | undefined;
  if (matches) {
    for (let i = 0; i < matches.count; i++) {
      const slot = matches.slots[i]!;
      if (!ok(slot)) continue;
      // Coordination: a memory holding half of the query's words counts half its BM25 score, so a
      // fresh note matching one word does not outrank the one that matches them all.
      const coverage = matches.matched && matches.terms ? matches.matched[i]! / matches.terms : 1;
      const raw = matches.scores[i]! * coverage;
      slots[n] = slot;
      raws[n++] = raw;
      if (raw > max) max = raw;
    }
  }
  if (!matches || cosines) {
    if (matches) {
      lexical = new Uint8Array(view.size);
      for (let i = 0; i < n; i++) lexical[slots[i]!] = 1;
    }
    for (let slot = 0; slot < view.size; slot++) {
      if (lexical?.[slot] || !ok(slot)) continue;
      if (cosines && matches && !(cosines[slot]! > 0)) continue;
      slots[n] = slot;
      raws[n++] = 0;
    }
  }
  // Candidates hold their slot; only the k kept at the end are looked up (decoding a document for
  // every candidate that passed through the heap was a tenth of a recall).
  const heap = new TopK<Omit<Ranked<D>, 'doc'> & { slot: number; updatedMs: number }>(
    Math.max(0, options.k),
    (a, b) => a.score - b.score || a.updatedMs - b.updatedMs,
  );
  // Recency is at most 1: a candidate whose relevance cannot beat the k-th best even when brand new
  // is skipped before its recency (a pow) or its document is looked at.
  const recencyCeiling = Math.max(0, options.wRec);
  const logWeight = options.logWeight ?? 1;
  const globalWeight = options.project ? (options.globalWeight ?? 1) : 1;
  const noteHalfLife = options.noteHalfLife ?? options.halfLife;
  const wSem = options.wSem;
  for (let i = 0; i < n; i++) {
    // Lexical only, a weight never above 1: the unweighted relevance bounds the score, and most of a
    // common word's 100 000 matches are turned away on that bound before anything else is read.
    if (!cosines && max > 0 && !heap.admits(wSem * Math.min(1, raws[i]! / max) + recencyCeiling, Infinity)) continue;
    const slot = slots[i]!;
    const cos = cosines ? cosines[slot] : undefined;
    const episode = view.episode(slot);
    const weight = episode ? logWeight : view.global(slot) ? globalWeight : 1;
    const similarity =
      weight *
      relevanceOf(
        raws[i]!,
        max,
        cosines ? (cos !== undefined && Number.isFinite(cos) ? cos : 0) : undefined,
        options.lexicalShare,
      );
    if (!heap.admits(options.wSem * similarity + recencyCeiling, Number.POSITIVE_INFINITY)) continue;
    const updatedMs = view.updatedMs(slot);
    const recency = recencyOf(options.now - updatedMs, episode ? options.halfLife : noteHalfLife);
    const score = recallScore(similarity, recency, options.wSem, options.wRec);
    if (!heap.admits(score, updatedMs)) continue;
    heap.push({ slot, similarity, recency, score, bm25: raws[i]!, cosine: cos, updatedMs });
  }
  return heap.sorted().map(({ updatedMs: _, slot, ...ranked }) => ({ doc: view.doc(slot)!, ...ranked }));
}

/** A bounded min-heap keeping the k largest items by `compare`. */
class TopK<T extends { readonly score: number; readonly updatedMs: number }> {
  readonly #items: T[] = [];
  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  /** Whether an item of this score (and update time) would enter the heap; spares building losers. */
  admits(score: number, updatedMs: number): boolean {
    if (this.#items.length < this.k) return this.k > 0;
    const min = this.#items[0]!;
    return score > min.score || (score === min.score && updatedMs > min.updatedMs);
  }

  push(item: T): void {
    const items = this.#items;
    if (items.length < this.k) {
      items.push(item);
      this.#up(items.length - 1);
    } else if (this.k > 0 && this.compare(item, items[0]!) > 0) {
      items[0] = item;
      this.#down(0);
    }
  }

  sorted(): T[] {
    return [...this.#items].sort((a, b) => this.compare(b, a));
  }

  #up(i: number): void {
    const items = this.#items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(items[i]!, items[parent]!) >= 0) return;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  #down(i: number): void {
    const items = this.#items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < items.length && this.compare(items[l]!, items[min]!) < 0) min = l;
      if (r < items.length && this.compare(items[r]!, items[min]!) < 0) min = r;
      if (min === i) return;
      [items[i], items[min]] = [items[min]!, items[i]!];
      i = min;
    }
  }
}
