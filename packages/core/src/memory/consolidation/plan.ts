import type { Belief, BeliefChange, BeliefDraft } from './belief-store.js';
import {
  decayedConfidence,
  elapsedWindows,
  mergeProvenance,
  reinforcedConfidence,
  shouldPrune,
  shouldReinforce,
  type ConsolidationConfig,
} from './decisions.js';

/** A belief the distiller proposes for one cluster. */
export interface Candidate {
  readonly statement: string;
  readonly kind: string;
  readonly confidence: number;
  /** The cluster's episode ids. */
  readonly episodeIds: readonly string[];
}

export type Action =
  | { readonly type: 'create'; readonly draft: BeliefDraft }
  | { readonly type: 'reinforce'; readonly belief: Belief; readonly change: BeliefChange; readonly similarity: number }
  | { readonly type: 'decay'; readonly belief: Belief; readonly change: BeliefChange }
  | { readonly type: 'prune'; readonly belief: Belief; readonly change: BeliefChange }
  | { readonly type: 'skip'; readonly candidate: Candidate; readonly reason: string };

const DAY_MS = 86_400_000;

/**
 * Decides what a consolidation run does. Pure. Per candidate, in order: skipped when its episodes are
 * all already in one belief's provenance (idempotent by provenance); else it reinforces the most
 * similar active belief when similarity ≥ dedupThreshold (confidence + bump capped at 1, count + 1,
 * last reinforced now, decay clock reset, provenance union) or creates a new belief. Candidates see the
 * beliefs earlier candidates created or reinforced. Then every active belief not touched in this run
 * decays by `decayPerInterval` per whole window not yet applied, and is pruned at or below the floor.
 */
export function planConsolidation(input: {
  readonly candidates: readonly Candidate[];
  readonly beliefs: readonly Belief[];
  readonly owner: string;
  readonly nowMs: number;
  readonly config: ConsolidationConfig;
  readonly similarity: (a: string, b: string) => number;
}): Action[] {
  const { config, nowMs } = input;
  const actions: Action[] = [];
  // Working set: the active beliefs as this run has left them; drafts have no id yet.
  const working: { belief: Belief | undefined; statement: string; derivedFrom: readonly string[]; index: number }[] =
    input.beliefs
      .filter((b) => b.status === 'active')
      .map((b) => ({ belief: b, statement: b.statement, derivedFrom: b.derivedFrom, index: -1 }));
  const touched = new Set<string>();

  for (const candidate of input.candidates) {
    if (working.some((w) => candidate.episodeIds.every((id) => w.derivedFrom.includes(id)))) {
      actions.push({ type: 'skip', candidate, reason: 'its episodes are already the evidence of a belief' });
      continue;
    }
    let best: (typeof working)[number] | undefined;
    let bestSim = -Infinity;
    for (const w of working) {
      const s = input.similarity(candidate.statement, w.statement);
      if (s > bestSim) {
        best = w;
        bestSim = s;
      }
    }
    if (best && shouldReinforce(bestSim, config.dedupThreshold, true)) {
      const derivedFrom = mergeProvenance(best.derivedFrom, candidate.episodeIds);
      if (best.belief) {
        const prior = actions.find(
          (a): a is Extract<Action, { type: 'reinforce' }> =>
            a.type === 'reinforce' && a.belief.id === best!.belief!.id,
        );
        const base = prior ? { ...best.belief, ...prior.change } : best.belief;
        const change: BeliefChange = {
          confidence: reinforcedConfidence(base.confidence, config.reinforceBump),
          reinforceCount: base.reinforceCount + 1,
          lastReinforcedMs: nowMs,
          decayWindows: 0,
          derivedFrom,
        };
        if (prior) actions.splice(actions.indexOf(prior), 1);
        actions.push({ type: 'reinforce', belief: best.belief, change, similarity: bestSim });
        touched.add(best.belief.id);
      } else {
        const draft = (actions[best.index] as Extract<Action, { type: 'create' }>).draft;
        actions[best.index] = {
          type: 'create',
          draft: {
            ...draft,
            confidence: reinforcedConfidence(draft.confidence, config.reinforceBump),
            reinforceCount: draft.reinforceCount + 1,
            derivedFrom,
          },
        };
      }
      best.derivedFrom = derivedFrom;
      continue;
    }
    const draft: BeliefDraft = {
      owner: input.owner,
      kind: candidate.kind,
      statement: candidate.statement,
      confidence: candidate.confidence,
      reinforceCount: 1,
      derivedFrom: mergeProvenance([], candidate.episodeIds),
      createdMs: nowMs,
    };
    actions.push({ type: 'create', draft });
    working.push({
      belief: undefined,
      statement: draft.statement,
      derivedFrom: draft.derivedFrom,
      index: actions.length - 1,
    });
  }

  for (const belief of input.beliefs) {
    if (belief.status !== 'active' || touched.has(belief.id)) continue;
    const windows = elapsedWindows(belief.lastReinforcedMs, nowMs, config.decayDays);
    const applied = Math.max(0, belief.decayWindows);
    if (windows <= applied) continue;
    // memQL's rule, with the clock moved past the windows already applied.
    const clock = belief.lastReinforcedMs + applied * config.decayDays * DAY_MS;
    const confidence = decayedConfidence(belief.confidence, clock, nowMs, config.decayDays, config.decayPerInterval);
    const change: BeliefChange = { confidence, decayWindows: windows };
    if (shouldPrune(confidence, config.pruneConfidence, true))
      actions.push({ type: 'prune', belief, change: { ...change, status: 'pruned' } });
    else actions.push({ type: 'decay', belief, change });
  }
  return actions;
}
