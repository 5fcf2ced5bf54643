/**
 * Recall scoring, pure (DESIGN §8): `recency = 2^(−age/halfLife)` with age clamped at 0 (a future
 * timestamp is "now"), a halfLife ≤ 0 disabling it; memQL's `score = wSem·relevance + wRec·recency`
 * (formula `memql`; the default formula, `prior`, is in rank.ts).
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
   * Relevance weight of an episode against a note: a raw log entry that repeats some of a subject's
   * words yields to the note written about it, unless it matches clearly better. An entry holding
   * every word of the question is not weighed down (rank.ts).
   */
  logWeight: 0.7,
  /**
   * Relevance weight of a global note when recall is scoped to a project: on an equal match the
   * project's own note is the more specific answer.
   */
  globalWeight: 0.85,
  /** 0 = all history. */
  window: 0,
});

/** 1 at age 0, 0.5 at one half-life, 0.25 at two; 0 when halfLife ≤ 0. */
export function recencyOf(ageMs: number, halfLifeMs: number): number {
  if (!(halfLifeMs > 0)) return 0;
  return Math.pow(2, -Math.max(0, ageMs) / halfLifeMs);
}

export function recallScore(relevance: number, recency: number, wSem: number, wRec: number): number {
  return wSem * relevance + wRec * recency;
}
