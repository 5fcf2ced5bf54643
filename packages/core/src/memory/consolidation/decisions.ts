/**
 * The pure consolidation decisions, exactly memQL's (`harness_consolidation`, memql-behaviour §3.2).
 * Time is epoch milliseconds; windows are exact durations (no calendar or DST logic).
 */

export interface ConsolidationConfig {
  /** Similarity at or above which a candidate reinforces an active belief instead of creating one. */
  readonly dedupThreshold: number;
  /** Unreinforced grace window, in days. */
  readonly decayDays: number;
  /** Confidence lost per whole elapsed window. */
  readonly decayPerInterval: number;
  /** Active beliefs at or below this confidence are pruned (never deleted). */
  readonly pruneConfidence: number;
  /** Confidence gained per reinforcement. */
  readonly reinforceBump: number;
  /** Confidence of a new belief when the distiller gives none. */
  readonly defaultConfidence: number;
  /** Similarity at or above which an episode joins a cluster. */
  readonly clusterThreshold: number;
  /** The extractive distiller needs this many episodes in a cluster to call it stable. */
  readonly minClusterSize: number;
  /** Episodes consolidated per run at most (the oldest first); the rest wait for the next run. */
  readonly batchMax: number;
  /** Kind of a belief the distiller does not type. */
  readonly defaultKind: string;
}

export const CONSOLIDATION_DEFAULTS: ConsolidationConfig = Object.freeze({
  dedupThreshold: 0.86,
  decayDays: 30,
  decayPerInterval: 0.1,
  pruneConfidence: 0.15,
  reinforceBump: 0.15,
  defaultConfidence: 0.5,
  clusterThreshold: 0.5,
  minClusterSize: 2,
  batchMax: 500,
  defaultKind: 'reference',
});

const DAY_MS = 86_400_000;

/**
 * Clamps to [0, 1], rounding away binary noise (0.25 − 0.1 is 0.15000000000000002 in floating point,
 * which would escape an at-floor prune) to 9 decimals.
 */
export function clampConfidence(c: number): number {
  const r = Math.round(c * 1e9) / 1e9;
  return r > 1 ? 1 : r < 0 ? 0 : r;
}

/** Reinforce only an active match, when its similarity reaches the threshold (at-threshold reinforces). */
export function shouldReinforce(bestSimilarity: number, threshold: number, matchActive: boolean): boolean {
  return matchActive && bestSimilarity >= threshold;
}

export function reinforcedConfidence(prior: number, bump: number): number {
  return clampConfidence(prior + bump);
}

/** Whole decay windows between `lastReinforcedMs` and `nowMs` (0 when decay is off or the clock is ahead). */
export function elapsedWindows(lastReinforcedMs: number, nowMs: number, decayDays: number): number {
  if (decayDays <= 0) return 0;
  const age = nowMs - lastReinforcedMs;
  return age <= 0 ? 0 : Math.floor(age / (decayDays * DAY_MS));
}

/** memQL's ConsolidationDecayedConfidence: linear in whole windows; inside the first window, unchanged. */
export function decayedConfidence(
  prior: number,
  lastReinforcedMs: number,
  nowMs: number,
  decayDays: number,
  perInterval: number,
): number {
  const intervals = elapsedWindows(lastReinforcedMs, nowMs, decayDays);
  return intervals <= 0 ? clampConfidence(prior) : clampConfidence(prior - intervals * perInterval);
}

/** Prune an active belief at or below the floor (memQL's Go helper uses ≤); a pruned one stays as it is. */
export function shouldPrune(confidence: number, floor: number, active: boolean): boolean {
  return active && confidence <= floor;
}

/** Ordered union: existing first, first-seen order, duplicates and empty strings dropped. */
export function mergeProvenance(existing: readonly string[], incoming: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const id of [...existing, ...incoming]) {
    if (id === '' || seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

/** max(prior, batch times): never moves backwards; an empty or all-older batch keeps the prior. */
export function nextWatermark(priorMs: number, batchMs: readonly number[]): number {
  let next = priorMs;
  for (const t of batchMs) if (t > next) next = t;
  return next;
}
