/**
 * Fitting the injection floor (recall/ranking.ts#INJECTION_FLOOR) on the dev split: one recall per hook
 * prompt of every source, every floor of a grid applied to it, the figures taken per source. A floor is
 * acceptable when, over all dev prompts, ≥ 93 % of the unanswerable ones get nothing and ≥ 93 % of the
 * answerable ones whose right note was in the top 5 before the floor still get one (a margin over the
 * 90 % goals, for what test holds that dev did not), and no source with at least 10 prompts of a kind
 * falls below 90 % on it (the goals hold per held-out set, not only on the mix); among those, the one
 * injecting the most right notes and the fewest wrong ones wins ((hit + precision) / 2 over all prompts).
 * None acceptable: the floor whose worst source does best.
 */
import { memoriesToInject, recall } from '@agentm/core/memory';
import { injectionFigures } from './quality-metrics.mjs';
import { NOW } from './quality-sources.mjs';
import { keyOf } from './quality-systems.mjs';

export const FLOOR_GRID = {
  words: [1, 2, 3],
  evidence: [0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.2, 1.5],
  relative: [0, 0.3, 0.5, 0.6, 0.7],
};
const NONE = { words: 0, evidence: 0, relative: 0 };
/** Fewer prompts of a kind than this in a source: too few to hold that source to a per-source mark. */
const PER_SOURCE_MIN = 10;

/** The floors of the grid, each `{ words, evidence, relative }`. */
function* floors() {
  for (const words of FLOOR_GRID.words)
    for (const evidence of FLOOR_GRID.evidence)
      for (const relative of FLOOR_GRID.relative) yield { words, evidence, relative };
}

/** Worst per-source mark of a floor's figures: the least silent or still share among sources with enough prompts. */
function worstSource(bySource) {
  let worst = 1;
  for (const m of Object.values(bySource)) {
    if (m.unanswerable >= PER_SOURCE_MIN) worst = Math.min(worst, m.silent);
    if (m.reachable >= PER_SOURCE_MIN) worst = Math.min(worst, m.still);
  }
  return worst;
}

/**
 * Searches the floor over `sources` (a prepared dev split) with recall options `extra` (the chosen
 * ranking). Returns `{ floor, met, all, bySource }`: the floor chosen, whether it met the marks, and its
 * dev figures over all prompts and per source.
 */
export async function fitFloor(sources, extra = {}) {
  const runs = [];
  for (const s of sources) {
    const results = [];
    for (const p of s.prompts)
      results.push(await recall(s.index, { text: p.text, project: p.project, k: 25, now: NOW, ...extra }));
    runs.push({ name: s.name, prompts: s.prompts, results });
  }
  const inject = (results, floor) =>
    results.map((result) => {
      const kept = memoriesToInject(result.items, 5, floor, result.contentWords);
      return { keys: kept.map(keyOf), titles: kept.map((i) => i.title) };
    });
  const unfloored = runs.map((r) => inject(r.results, NONE));
  const allPrompts = runs.flatMap((r) => r.prompts);
  const allUnfloored = unfloored.flat();
  let best;
  let fallback;
  for (const floor of floors()) {
    const injected = runs.map((r) => inject(r.results, floor));
    const bySource = Object.fromEntries(
      runs.map((r, i) => [r.name, injectionFigures(r.prompts, injected[i], unfloored[i])]),
    );
    const all = injectionFigures(allPrompts, injected.flat(), allUnfloored);
    const worst = worstSource(bySource);
    const value = (all.hit + all.precision) / 2;
    const trial = { floor, all, bySource, worst, value };
    if (all.silent >= 0.93 && all.still >= 0.93 && worst >= 0.9 && (!best || value > best.value)) best = trial;
    const low = Math.min(worst, all.silent, all.still);
    if (!fallback || low > fallback.low || (low === fallback.low && value > fallback.value))
      fallback = { ...trial, low };
  }
  const pick = best ?? fallback;
  return { floor: pick.floor, met: best !== undefined, all: pick.all, bySource: pick.bySource };
}
