import { ProviderError, ProviderRestingError } from '../../providers/errors.js';
import { MemoryArgumentError } from '../errors.js';
import type { IndexState, StoredDoc } from '../indexing/index-state.js';
import type { VectorCache } from '../indexing/vectors.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import { pruningFor, rankDocuments, type Ranked } from './rank.js';
import { cosine } from '../similarity.js';
import { RECALL_DEFAULTS } from './score.js';
import { makeSnippet } from './snippet.js';
import { rankingParams, type RankingParams, type RecallFormula } from './ranking.js';
import { isFunctionTerm } from './function-words.js';
import { feedbackConcepts, nameTerms, queryConcepts, queryWords } from './query-plan.js';

/** A recall request. Durations and `now` are milliseconds. */
export interface RecallQuery {
  /** Free text; empty or absent ranks by recency alone. */
  readonly text?: string | undefined;
  /** Project slug (its notes + global notes); undefined = every project. */
  readonly project?: string | undefined;
  /** Results wanted (default 10). */
  readonly k?: number | undefined;
  /** Only memories updated within this many ms (default 0 = all history). */
  readonly window?: number | undefined;
  /** Recency half-life of episodes (harness-log entries) in ms (default 1 h, memQL's). */
  readonly halfLife?: number | undefined;
  /** Recency half-life of notes in ms (default 30 days; config `memory.recall.note_half_life`). */
  readonly noteHalfLife?: number | undefined;
  /**
   * `prior` (default): relevance first, recency a bounded prior that only orders near-equal matches;
   * `memql`: memQL's `wSem·relevance + wRec·recency`, for "what just happened" (config
   * `memory.recall.formula`).
   */
  readonly formula?: RecallFormula | undefined;
  /** Weights of memQL's formula (used by `formula: 'memql'`). */
  readonly wSem?: number | undefined;
  readonly wRec?: number | undefined;
  /** Only these kinds (note types, record kinds, `episode`). */
  readonly kinds?: readonly string[] | undefined;
  /** Ranking parameters other than the defaults (ranking.ts): what the fitting script searches. */
  readonly ranking?: Partial<RankingParams> | undefined;
  /** Relevance weight of an episode against a note, in [0, 1] (default RECALL_DEFAULTS.logWeight). */
  readonly logWeight?: number | undefined;
  /** Relevance weight of a global note in a project-scoped recall, in [0, 1] (default RECALL_DEFAULTS.globalWeight). */
  readonly globalWeight?: number | undefined;
  readonly now?: number | undefined;
}

export interface RecallItem {
  readonly id: string;
  /** Locator key of the note (or the progress file of an episode). */
  readonly locator: string;
  readonly owner: string;
  readonly kind: string;
  readonly title: string;
  readonly snippet: string;
  readonly tags: readonly string[];
  readonly alwaysLoad: boolean;
  readonly createdMs: number;
  readonly updatedMs: number;
  readonly confidence?: number | undefined;
  /** Relevance in [0, 1]. */
  readonly similarity: number;
  readonly recency: number;
  readonly score: number;
  /** Share of the query's IDF mass this memory matches, in [0, 1] (0 without words). */
  readonly coverage: number;
  /**
   * How much it shares with the query: the IDF mass of the query's content words (not function words
   * or chatter) it holds, in units of the index's highest IDF (≈ 1 per rare word, far less per common
   * one), whatever the query's length.
   */
  readonly evidence: number;
  /** How many of the query's content words it holds. */
  readonly words: number;
}

export interface RecallResult {
  readonly items: RecallItem[];
  /** `hybrid` (BM25 and cosine, fused by rank), `lexical` (BM25), or `recency` (no words in the query). */
  readonly mode: 'hybrid' | 'lexical' | 'recency';
  /** Degradations (a provider that failed): recall still answered, lexically. */
  readonly warnings: string[];
  /**
   * Content words of the query (not function words or chatter, known to the vault or not): what the
   * injection floor asks a memory to hold two of, or the one there is (see `memoriesToInject`).
   */
  readonly contentWords?: number | undefined;
  /** The process that answered, when a recall server did (`agentm mcp, pid 123`); absent: this one. */
  readonly servedBy?: string | undefined;
}

/** What recall reads: the index state, and optionally its vectors and the provider for the query. */
export interface RecallSource {
  readonly state: IndexState;
  readonly vectors?: VectorCache | undefined;
  readonly embedder?: EmbeddingProvider | undefined;
}

/**
 * Recalls memories: field-aware BM25 over the index (fused by reciprocal rank with cosine when an
 * embedding provider and vectors exist), relevance first with recency as a bounded prior (or memQL's
 * `wSem·relevance + wRec·2^(−age/halfLife)` with `formula: 'memql'`; see rankDocuments), scoped to the
 * project plus global notes, never returning pruned, superseded or inbox notes, or a note another live
 * note supersedes. A provider error, timeout or malformed answer degrades to lexical recall with a
 * warning in the result; it is never thrown. Throws `MemoryArgumentError` for invalid options.
 */
export async function recall(source: RecallSource, query: RecallQuery): Promise<RecallResult> {
  const options = resolveOptions(query);
  const text = (query.text ?? '').trim();
  const terms = queryWords(text);
  const warnings: string[] = [];
  const state = source.state;
  let cosines: Float64Array | undefined;
  if (text !== '' && source.embedder && source.vectors && source.vectors.vectors.size > 0) {
    try {
      const [vector] = await source.embedder.embed([text]);
      if (!vector || vector.length !== source.vectors.dimensions) {
        warnings.push(
          `query embedding from ${source.embedder.id} has ${vector?.length ?? 0} dimensions, the index ${source.vectors.dimensions}: recalled lexically; run \`agentm reindex --full\``,
        );
      } else {
        cosines = cosinesBySlot(state, source.vectors, vector);
      }
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // A failure shown once already (the endpoint is resting): lexical, without telling again.
      if (!(error instanceof ProviderRestingError)) warnings.push(`${error.message} — recalled lexically`);
    }
  }
  const params = options.params;
  const bm25 = { k1: params.k1, b: params.b, fields: params.fields };
  let concepts =
    terms.length > 0
      ? queryConcepts(terms, state.bm25, params, undefined, params.names !== 1 ? nameTerms(text) : undefined)
      : [];
  const view = state.rankView();
  const prune = pruningFor(view, { ...options, terms }, params.coverage, cosines !== undefined);
  let matches = concepts.length > 0 ? state.bm25.searchConcepts(concepts, bm25, prune) : undefined;
  if (matches && params.feedbackTerms > 0) {
    // RM3: the best first-pass matches lend their words to a second pass.
    const first = rankDocuments(view, matches, undefined, {
      ...options,
      k: params.feedbackDocs,
      terms: [],
    });
    const feedback = feedbackConcepts(
      first.map((r) => ({ text: `${r.doc.title}\n${r.doc.preview}`, score: r.score })),
      terms,
      state.bm25,
      params,
    );
    if (feedback.length > 0) {
      concepts = [...concepts, ...feedback];
      matches = state.bm25.searchConcepts(concepts, bm25, prune);
    }
  }
  const ranked = rankDocuments(view, matches, cosines, { ...options, terms });
  return {
    items: ranked.map((r) => toItem(r, terms)),
    contentWords: terms.filter((t) => !isFunctionTerm(t)).length,
    mode: cosines ? 'hybrid' : terms.length > 0 ? 'lexical' : 'recency',
    warnings,
  };
}

function cosinesBySlot(state: IndexState, vectors: VectorCache, query: Float32Array): Float64Array {
  const out = new Float64Array(state.bm25.slotCount).fill(Number.NaN);
  for (const slot of state.liveSlots()) {
    const v = vectors.get(state.store.doc(slot).fingerprint);
    if (v) out[slot] = cosine(query, v);
  }
  return out;
}

function toItem(r: Ranked<StoredDoc>, terms: readonly string[]): RecallItem {
  const d = r.doc;
  return {
    id: d.id,
    locator: d.locator,
    owner: d.owner,
    kind: d.kind,
    title: d.title,
    snippet: makeSnippet(d.preview, terms),
    tags: d.tags,
    alwaysLoad: d.alwaysLoad,
    createdMs: d.createdMs,
    updatedMs: d.updatedMs,
    confidence: d.confidence,
    similarity: r.similarity,
    recency: r.recency,
    score: r.score,
    coverage: r.coverage,
    evidence: r.evidence,
    words: r.words,
  };
}

function resolveOptions(q: RecallQuery) {
  const k = q.k ?? RECALL_DEFAULTS.k;
  if (!Number.isInteger(k) || k <= 0)
    throw new MemoryArgumentError(`recall: k must be a positive integer, got ${String(q.k)}`);
  const window = q.window ?? RECALL_DEFAULTS.window;
  if (!Number.isFinite(window) || window < 0)
    throw new MemoryArgumentError(`recall: window must be ≥ 0 ms (0 = all history), got ${String(q.window)}`);
  const halfLife = q.halfLife ?? RECALL_DEFAULTS.halfLife;
  if (!Number.isFinite(halfLife) || halfLife < 0)
    throw new MemoryArgumentError(`recall: halfLife must be ≥ 0 ms (0 disables recency), got ${String(q.halfLife)}`);
  const noteHalfLife = q.noteHalfLife ?? RECALL_DEFAULTS.noteHalfLife;
  if (!Number.isFinite(noteHalfLife) || noteHalfLife < 0)
    throw new MemoryArgumentError(
      `recall: noteHalfLife must be ≥ 0 ms (0 disables recency), got ${String(q.noteHalfLife)}`,
    );
  const numeric = (name: string, value: number | undefined, fallback: number) => {
    const v = value ?? fallback;
    if (!Number.isFinite(v))
      throw new MemoryArgumentError(`recall: ${name} must be a finite number, got ${String(value)}`);
    return v;
  };
  const share = (name: string, value: number | undefined, fallback: number) => {
    const v = numeric(name, value, fallback);
    if (v < 0 || v > 1) throw new MemoryArgumentError(`recall: ${name} must be in [0, 1], got ${v}`);
    return v;
  };
  const formula = q.formula ?? 'prior';
  if (formula !== 'prior' && formula !== 'memql')
    throw new MemoryArgumentError(`recall: formula must be "prior" or "memql", got ${JSON.stringify(q.formula)}`);
  return {
    project: q.project,
    kinds: q.kinds,
    k,
    window,
    halfLife,
    noteHalfLife,
    logWeight: share('logWeight', q.logWeight, RECALL_DEFAULTS.logWeight),
    globalWeight: share('globalWeight', q.globalWeight, RECALL_DEFAULTS.globalWeight),
    wSem: numeric('wSem', q.wSem, RECALL_DEFAULTS.wSem),
    wRec: numeric('wRec', q.wRec, RECALL_DEFAULTS.wRec),
    formula,
    params: rankingParams(q.ranking),
    now: numeric('now', q.now, Date.now()),
  };
}
