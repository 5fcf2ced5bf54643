/**
 * Recall scoring, pure (DESIGN §8; memQL's recallScore): `score = wSem·relevance + wRec·recency`,
 * `recency = 2^(−age/halfLife)` with age clamped at 0 (a future timestamp is "now"), and a halfLife
 * ≤ 0 disabling the recency term.
 */

export const RECALL_DEFAULTS = Object.freeze({
  k: 10,
  wSem: 0.7,
  wRec: 0.3,
  /** Recency half-life of episodes (harness-log entries): memQL's hour, in milliseconds. */
  halfLife: 3_600_000,
  /**
   * Recency half-life of notes: 30 days. Notes are dated by the day and kept for months; with the
   * hour, a note saved a minute ago and one from last month both scored ≈ 0 on recency.
   */
  noteHalfLife: 30 * 86_400_000,
  /**
   * Relevance weight of an episode against a note: a raw log entry that repeats a subject's words
   * yields to the note written about it, unless it matches clearly better.
   */
  logWeight: 0.8,
  /**
   * Relevance weight of a global note when recall is scoped to a project: on an equal match the
   * project's own note is the more specific answer.
   */
  globalWeight: 0.85,
  /** 0 = all history. */
  window: 0,
  /** Share of lexical relevance when vectors exist (the rest is cosine). */
  lexicalShare: 0.5,
});

/** 1 at age 0, 0.5 at one half-life, 0.25 at two; 0 when halfLife ≤ 0. */
export function recencyOf(ageMs: number, halfLifeMs: number): number {
  if (!(halfLifeMs > 0)) return 0;
  return Math.pow(2, -Math.max(0, ageMs) / halfLifeMs);
}

export function recallScore(relevance: number, recency: number, wSem: number, wRec: number): number {
  return wSem * relevance + wRec * recency;
}

/**
 * Relevance in [0, 1]: the BM25 score divided by the best BM25 score of the query among the
 * in-scope candidates, blended with the cosine (clamped to [0, 1]) when the query has a vector:
 * `lexicalShare·lexical + (1 − lexicalShare)·cosine`.
 */
export function relevanceOf(bm25: number, maxBm25: number, cosine: number | undefined, lexicalShare: number): number {
  const lexical = maxBm25 > 0 ? Math.min(1, Math.max(0, bm25 / maxBm25)) : 0;
  if (cosine === undefined) return lexical;
  const semantic = Math.min(1, Math.max(0, cosine));
  return lexicalShare * lexical + (1 - lexicalShare) * semantic;
}
