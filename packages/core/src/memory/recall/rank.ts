import { docsView, type RankDoc, type RankView, type ScopeOptions } from '../documents/rank-contract.js';
import type { Pruning } from '../indexing/bm25.js';
import type { RankingParams, RecallFormula } from './ranking.js';
import { recallScore, recencyOf } from './score.js';
import { refineTop, type StageDoc } from './rank-stages.js';
import { TopK } from './top-k.js';

export interface RankOptions extends ScopeOptions {
  readonly k: number;
  /** Recency half-life of episodes (harness-log entries); of notes too unless `noteHalfLife` is given. */
  readonly halfLife: number;
  /** Recency half-life of notes (default: `halfLife`). */
  readonly noteHalfLife?: number | undefined;
  /** Relevance weight of an episode missing some of the query's words, against a note (default 1). */
  readonly logWeight?: number | undefined;
  /** Relevance weight of a global note in a recall scoped to a project (default 1). */
  readonly globalWeight?: number | undefined;
  /** `prior` (default): relevance with a bounded recency prior; `memql`: `wSem·relevance + wRec·recency`. */
  readonly formula?: RecallFormula | undefined;
  readonly wSem: number;
  readonly wRec: number;
  readonly params: RankingParams;
  /** The query's distinct terms in order (for the phrase credit); empty: no phrase credit. */
  readonly terms?: readonly string[] | undefined;
}

export interface Ranked<D> {
  readonly doc: D;
  /** Relevance in [0, 1]: the lexical (or fused) score over the best in-scope one, times its weight. */
  readonly similarity: number;
  readonly recency: number;
  readonly score: number;
  /** Field-aware BM25 times coverage^γ, before normalization (0: no words, or none matched). */
  readonly bm25: number;
  readonly cosine: number | undefined;
  /** Share of the query's IDF mass the memory matches (0 without words). */
  readonly coverage: number;
  /** IDF mass of the query's content words it holds, in units of the index's highest IDF (0 without words). */
  readonly evidence: number;
  /** How many of the query's content words it holds (0 without words). */
  readonly words: number;
}

/** Lexical matches of a query by slot. `undefined` = no words in the query (rank by recency). */
export interface MatchSet {
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly count: number;
  /** Share of the query's IDF mass each match covers (absent: every match covers it all). */
  readonly coverage?: Float64Array | undefined;
  /** The same with synonyms counted at their weight, for coordination (absent: `coverage`). */
  readonly coordination?: Float64Array | undefined;
  readonly evidence?: Float64Array | undefined;
  readonly words?: Uint8Array | undefined;
}

/** Candidates kept for the final stages (phrase credit, revisions) beyond the k returned. */
const REFINE_MARGIN = 20;
/** Coverage from which a match holds every word of the query (rounding aside). */
const FULL = 1 - 1e-9;
/** Depth of each list reciprocal rank fusion reads. */
const FUSION_DEPTH = 200;

/**
 * What `rankDocuments` will read of the lexical matches, for a search that skips the rest (see
 * indexing/bm25-prune.ts); undefined when every match may matter (memQL's formula lets recency lift any
 * match). With cosines, fusion reads the best FUSION_DEPTH by BM25 alone, unweighed.
 */
export function pruningFor<D>(
  view: RankView<D>,
  options: Omit<RankOptions, 'wSem' | 'wRec'> & { readonly formula?: RecallFormula | undefined },
  gamma: number,
  fused: boolean,
): Pruning | undefined {
  if (options.formula === 'memql') return undefined;
  const ok = view.scope(options);
  const keep = options.k + (options.terms && options.terms.length > 0 ? REFINE_MARGIN : 0);
  if (fused) return { keep: Math.max(keep, FUSION_DEPTH), weight: (slot) => (ok(slot) ? 1 : 0), lift: 1, gamma };
  const logWeight = options.logWeight ?? 1;
  const globalWeight = options.project ? (options.globalWeight ?? 1) : 1;
  return {
    keep,
    weight: (slot) => (!ok(slot) ? 0 : view.episode(slot) ? logWeight : view.global(slot) ? globalWeight : 1),
    lift: 1 + options.params.recencyBoost,
    gamma,
  };
}

/** Candidates as parallel typed arrays: no object per candidate (a common word has 100 000). */
interface Candidates {
  n: number;
  readonly slots: Int32Array;
  readonly relevance: Float64Array;
  readonly raw: Float64Array;
  readonly coverage: Float64Array;
  readonly evidence: Float64Array;
  readonly words: Uint8Array;
}

/**
 * Candidate arrays of at least `capacity`, from one of two pools (`lexical`, and `fused`, which holds
 * a lexical set while it builds its own) reused across queries: a query on a common word has 100 000
 * candidates, and six fresh arrays of them per recall were garbage a long session's memory peaked on.
 * rankDocuments is synchronous and keeps nothing of them, so one set per pool is enough.
 */
function candidates(capacity: number, pool: 'lexical' | 'fused' = 'lexical'): Candidates {
  let c = pools[pool];
  if (c === undefined || c.slots.length < capacity) {
    const size = Math.max(capacity, 1024);
    c = pools[pool] = {
      n: 0,
      slots: new Int32Array(size),
      relevance: new Float64Array(size),
      raw: new Float64Array(size),
      coverage: new Float64Array(size),
      evidence: new Float64Array(size),
      words: new Uint8Array(size),
    };
  }
  c.n = 0;
  return c;
}

const pools: { lexical?: Candidates; fused?: Candidates } = {};

/**
 * Ranks documents for recall. Pure (its candidate arrays are reused, never shared). Candidates are the lexical matches (when the query has words),
 * fused by reciprocal rank with every in-scope document that has a cosine (when the query has a
 * vector: no calibration of BM25 against cosines is needed), or every in-scope document (no words, no
 * vector: recency alone). A match's lexical score is its field-aware BM25 times coverage^γ (a memory
 * holding half of what the query asks counts for less than one holding all of it); relevance is that
 * over the best in-scope score, weighted: an episode by `logWeight` unless it holds every word of the
 * query (then the entry is an answer as a note is, and density decides between them), a global note by
 * `globalWeight` when the recall is scoped to a project. The score is relevance × (1 + β·recency) — recency orders
 * near-equal matches and never lifts a weak one over a clearly better one — or memQL's
 * `wSem·relevance + wRec·recency` (formula `memql`). The best k + 20 then get the phrase credit and
 * the revision rule (rank-stages.ts). Returns the top k by score, ties broken by the more recent update.
 */
export function rankDocuments<D extends RankDoc & StageDoc>(
  docs: RankView<D> | readonly (D | undefined)[],
  matches: MatchSet | undefined,
  cosines: ArrayLike<number> | undefined,
  options: RankOptions,
): Ranked<D>[] {
  const view = Array.isArray(docs) ? docsView(docs as readonly (D | undefined)[]) : (docs as RankView<D>);
  const ok = view.scope(options);
  const gamma = options.params.coverage;
  const c = cosines
    ? fused(view, ok, matches, cosines, options.params.fusionK, gamma)
    : lexical(view, ok, matches, gamma);
  const memql = options.formula === 'memql';
  const beta = memql ? 0 : options.params.recencyBoost;
  const keep = options.terms && options.terms.length > 0 ? options.k + REFINE_MARGIN : options.k;
  const heap = new TopK<Omit<Ranked<D>, 'doc'> & { slot: number; updatedMs: number }>(Math.max(0, keep));
  const logWeight = options.logWeight ?? 1;
  const globalWeight = options.project ? (options.globalWeight ?? 1) : 1;
  const noteHalfLife = options.noteHalfLife ?? options.halfLife;
  const noWords = !matches && !cosines;
  // Recency is at most 1: a candidate that cannot beat the k-th best even when brand new is skipped
  // before its recency (a pow) or its document is looked at.
  const ceiling = (relevance: number) =>
    noWords ? Infinity : memql ? options.wSem * relevance + Math.max(0, options.wRec) : relevance * (1 + beta);
  for (let i = 0; i < c.n; i++) {
    const slot = c.slots[i]!;
    if (!heap.admits(ceiling(c.relevance[i]!), Infinity)) continue;
    const episode = view.episode(slot);
    // An episode yields to notes (logWeight) unless it holds every word of the question.
    const weight = episode ? (c.coverage[i]! >= FULL ? 1 : logWeight) : view.global(slot) ? globalWeight : 1;
    const similarity = c.relevance[i]! * weight;
    if (!heap.admits(ceiling(similarity), Infinity)) continue;
    const updatedMs = view.updatedMs(slot);
    const recency = recencyOf(options.now - updatedMs, episode ? options.halfLife : noteHalfLife);
    const score = noWords
      ? memql
        ? recallScore(0, recency, options.wSem, options.wRec)
        : recency
      : memql
        ? recallScore(similarity, recency, options.wSem, options.wRec)
        : similarity * (1 + beta * recency);
    if (!heap.admits(score, updatedMs)) continue;
    heap.push({
      slot,
      similarity,
      recency,
      score,
      bm25: c.raw[i]!,
      cosine: cosines ? cosines[slot] : undefined,
      coverage: c.coverage[i]!,
      evidence: c.evidence[i]!,
      words: c.words[i]!,
      updatedMs,
    });
  }
  const top = heap.sorted().map(({ updatedMs: _, slot, ...ranked }) => ({ doc: view.doc(slot)!, ...ranked }));
  if (noWords || !options.terms || options.terms.length === 0) return top.slice(0, options.k);
  return refineTop(top, {
    terms: options.terms,
    phrase: options.params.phrase,
    revisionDecay: options.params.revisionDecay,
    rescore: (r, similarity) =>
      memql ? recallScore(similarity, r.recency, options.wSem, options.wRec) : similarity * (1 + beta * r.recency),
  }).slice(0, options.k);
}

/** The in-scope lexical matches (or every in-scope slot without words), relevance = score over the best. */
function lexical<D>(
  view: RankView<D>,
  ok: (slot: number) => boolean,
  matches: MatchSet | undefined,
  gamma: number,
): Candidates {
  if (!matches) {
    const out = candidates(view.size);
    for (let slot = 0; slot < view.size; slot++) if (ok(slot)) out.slots[out.n++] = slot;
    // Pooled arrays hold the last query's values: no words, no relevance.
    for (const a of [out.relevance, out.raw, out.coverage, out.evidence, out.words]) a.fill(0, 0, out.n);
    return out;
  }
  const out = candidates(matches.count);
  let max = 0;
  for (let i = 0; i < matches.count; i++) {
    const slot = matches.slots[i]!;
    if (!ok(slot)) continue;
    const coverage = matches.coverage ? matches.coverage[i]! : 1;
    // Coordination: a memory holding half of the query's IDF mass keeps 0.5^γ of its score (a synonym
    // holds its weight's share of the word's mass; `coverage`, what the floor reads, ignores it).
    const share = matches.coordination ? matches.coordination[i]! : coverage;
    const raw = matches.scores[i]! * (gamma === 0 ? 1 : gamma === 0.5 ? Math.sqrt(share) : Math.pow(share, gamma));
    if (!(raw > 0)) continue;
    const j = out.n++;
    out.slots[j] = slot;
    out.raw[j] = raw;
    out.coverage[j] = coverage;
    out.evidence[j] = matches.evidence ? matches.evidence[i]! : 0;
    out.words[j] = matches.words ? matches.words[i]! : 0;
    if (raw > max) max = raw;
  }
  for (let j = 0; j < out.n; j++) out.relevance[j] = Math.min(1, out.raw[j]! / max);
  return out;
}

/**
 * Reciprocal rank fusion of the lexical ranking and the cosine ranking (each read to FUSION_DEPTH):
 * `1/(k + lexical rank) + 1/(k + vector rank)`, relevance = that over the best fused score.
 */
function fused<D>(
  view: RankView<D>,
  ok: (slot: number) => boolean,
  matches: MatchSet | undefined,
  cosines: ArrayLike<number>,
  k: number,
  gamma: number,
): Candidates {
  const lex = matches ? lexical(view, ok, matches, gamma) : candidates(0);
  const byLex = new TopK<{ index: number; score: number; updatedMs: number }>(FUSION_DEPTH);
  for (let i = 0; i < lex.n; i++)
    if (byLex.admits(lex.raw[i]!, 0)) byLex.push({ index: i, score: lex.raw[i]!, updatedMs: 0 });
  const byVec = new TopK<{ slot: number; score: number; updatedMs: number }>(FUSION_DEPTH);
  for (let slot = 0; slot < view.size; slot++) {
    const cos = cosines[slot];
    // A cosine of 0 or less shares no meaning with the query: no candidate by meaning (only by words).
    if (cos === undefined || !Number.isFinite(cos) || cos <= 0 || !ok(slot)) continue;
    if (byVec.admits(cos, 0)) byVec.push({ slot, score: cos, updatedMs: 0 });
  }
  const fusedBy = new Map<number, { score: number; lexical: number }>();
  byLex
    .sorted()
    .forEach(({ index }, rank) => fusedBy.set(lex.slots[index]!, { score: 1 / (k + rank + 1), lexical: index }));
  byVec.sorted().forEach(({ slot }, rank) => {
    const entry = fusedBy.get(slot);
    if (entry) entry.score += 1 / (k + rank + 1);
    else fusedBy.set(slot, { score: 1 / (k + rank + 1), lexical: -1 });
  });
  let max = 0;
  for (const e of fusedBy.values()) if (e.score > max) max = e.score;
  const out = candidates(fusedBy.size, 'fused');
  for (const [slot, e] of fusedBy) {
    const j = out.n++;
    out.slots[j] = slot;
    out.relevance[j] = max > 0 ? e.score / max : 0;
    // Found by meaning alone: no lexical figures (pooled arrays hold the last query's).
    const lexical = e.lexical >= 0;
    out.raw[j] = lexical ? lex.raw[e.lexical]! : 0;
    out.coverage[j] = lexical ? lex.coverage[e.lexical]! : 0;
    out.evidence[j] = lexical ? lex.evidence[e.lexical]! : 0;
    out.words[j] = lexical ? lex.words[e.lexical]! : 0;
  }
  return out;
}
