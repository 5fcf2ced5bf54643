#!/usr/bin/env node
// Fits the recall ranking's parameters (issue 19) on the DEV split of bench/recall-quality.mjs — never
// on test — and prints what it chose, for packages/core/src/memory/recall/ranking.ts and score.ts:
//   1. the lexical ranking (BM25 k1 and b, the title/slug/tags/headings weights, coverage, prefix,
//      synonym, irregular forms, the weight of names, phrase, the recency prior, revision decay, the episode and global-note weights): coordinate
//      ascent, two passes over a grid, maximizing the mean over the sources of nDCG@10 (each generator
//      counts the same, whatever its number of questions) less half the sum of the classes' shortfalls
//      against FTS5 on dev;
//   2. pseudo-relevance feedback (RM3): the best setting on dev, printed beside "off" (the bench judges
//      it on test);
//   3. reciprocal rank fusion's k, over the indexes with the bench's stand-in vectors;
//   4. the injection floor (content words held, their evidence, the share of the best): among the floors
//      that leave ≥ 93 % of unanswerable dev prompts empty-handed and ≥ 93 % of answerable ones with a
//      right note (a margin over the 90 % goals, for what test holds that dev did not), and no source
//      below 90 % on either, the one injecting the most right notes and fewest wrong (lib/fit-floor.mjs).
// Dev asks four times the default 20 questions a class of the agent, conversation and vocabulary sources
// (QUALITY_DEV_SCALE, lib/quality-sources.mjs; test is as large). Run: node bench/fit-recall.mjs (about 15 minutes on 2
// idle cores at QUALITY_DEV_SCALE=1). Same environment as the bench, and
// FIT_STAGES (default lexical,rm3,fusion,floor), FIT_START (a JSON point of the grid to start from,
// e.g. what an earlier run chose), FIT_PASSES (default 2) and FIT_ONLY (comma-separated names of the
// grid: search only those, the rest held where they start) to redo a part.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RANKING_DEFAULTS, RECALL_DEFAULTS } from '@agentm/core/memory';
import { fitFloor } from './lib/fit-floor.mjs';
import { closeSplit, prepareSplit, scoreAgentm, scoreReferences } from './lib/quality-run.mjs';
import { enabledSources } from './lib/quality-sources.mjs';

const GRID = {
  k1: [0.6, 0.9, 1.2, 1.6, 2.2],
  b: [0.3, 0.5, 0.65, 0.75, 0.9],
  'fields.0': [0, 0.5, 1, 2, 3, 5],
  'fields.1': [0, 0.5, 1, 2, 3, 5],
  'fields.2': [0, 0.5, 1, 2],
  'fields.3': [0, 0.5, 1, 2],
  coverage: [0, 0.5, 1, 1.5, 2, 3],
  prefix: [0, 0.2, 0.35, 0.5, 0.7],
  synonym: [0, 0.2, 0.35, 0.5, 0.7, 0.85],
  inflection: [0, 0.5, 0.85, 1],
  names: [1, 1.5, 2, 3, 4, 5],
  phrase: [0, 0.05, 0.1, 0.2, 0.3],
  recencyBoost: [0, 0.02, 0.05, 0.1, 0.2],
  revisionDecay: [0.3, 0.5, 0.7, 1],
  logWeight: [0.6, 0.7, 0.8, 0.9, 1],
  globalWeight: [0.6, 0.7, 0.85, 1],
};
const QUERY_LEVEL = new Set(['logWeight', 'globalWeight']);

/** Recall options of a point of the grid. */
function extraOf(point) {
  const ranking = { ...RANKING_DEFAULTS, fields: [...RANKING_DEFAULTS.fields] };
  const extra = { ranking };
  for (const [name, value] of Object.entries(point)) {
    if (name.startsWith('fields.')) ranking.fields[Number(name.slice(7))] = value;
    else if (QUERY_LEVEL.has(name)) extra[name] = value;
    else ranking[name] = value;
  }
  return extra;
}

/**
 * The mean over the sources of nDCG@10 (each generator counts the same), less half the sum of the dev
 * classes' shortfalls against FTS5 (the goal is no class below it, not only the mean above it).
 */
let fts5;
const SOURCES = enabledSources(); // QUALITY_SOURCES may leave some out
const objective = (summary) => {
  const mean = SOURCES.reduce((s, name) => s + summary[name].overall.ndcg, 0) / SOURCES.length;
  let shortfall = 0;
  if (fts5)
    for (const name of SOURCES)
      for (const cls of Object.keys(summary[name]))
        shortfall += Math.max(0, fts5[name][cls].ndcg - summary[name][cls].ndcg);
  return mean - 0.5 * shortfall;
};
const f = (x) => x.toFixed(4);

const dir = await mkdtemp(join(tmpdir(), 'agentm-fit-recall-'));
try {
  const stages = new Set((process.env.FIT_STAGES ?? 'lexical,rm3,fusion,floor').split(','));
  const sources = await prepareSplit(dir, 'dev', { hybrid: stages.has('fusion') });
  const refs = await scoreReferences(dir, sources);
  fts5 = refs.fts5;
  console.log(`dev split: ${sources.map((s) => `${s.name} ${s.queries.length} queries`).join(', ')}`);
  console.log(
    `FTS5 bm25 on dev: ${f(objective(refs.fts5))} (mean of the sources' nDCG@10; no shortfall against itself)`,
  );

  // 1. The lexical ranking.
  const point = {};
  for (const name of Object.keys(GRID))
    point[name] = name.startsWith('fields.')
      ? RANKING_DEFAULTS.fields[Number(name.slice(7))]
      : QUERY_LEVEL.has(name)
        ? RECALL_DEFAULTS[name]
        : RANKING_DEFAULTS[name];
  const score = async (p) => objective((await scoreAgentm(sources, { extra: extraOf(p) })).summary);
  Object.assign(point, JSON.parse(process.env.FIT_START ?? '{}'));
  let best = await score(point);
  console.log(`start ${f(best)} ${JSON.stringify(point)}`);
  const only = process.env.FIT_ONLY ? new Set(process.env.FIT_ONLY.split(',')) : undefined;
  for (const name of only ?? []) if (!(name in GRID)) throw new Error(`FIT_ONLY: ${name} is not in the grid`);
  for (let pass = 1; pass <= (stages.has('lexical') ? Number(process.env.FIT_PASSES ?? 2) : 0); pass++) {
    for (const [name, values] of Object.entries(GRID)) {
      if (only && !only.has(name)) continue;
      for (const value of values) {
        if (value === point[name]) continue;
        const trial = { ...point, [name]: value };
        const s = await score(trial);
        if (s > best + 1e-4) {
          best = s;
          point[name] = value;
        }
      }
      console.log(`pass ${pass} ${name.padEnd(14)} → ${String(point[name]).padEnd(5)} dev ${f(best)}`);
    }
  }
  const chosen = extraOf(point);
  console.log(`\nchosen ranking: ${JSON.stringify(chosen)}`);
  const detail = (await scoreAgentm(sources, { extra: chosen })).summary;
  for (const name of SOURCES)
    console.log(`  ${name.padEnd(14)} AgentM ${f(detail[name].overall.ndcg)}  FTS5 ${f(refs.fts5[name].overall.ndcg)}`);

  // 2. RM3.
  let rm3 = { score: best, setting: 'off' };
  for (const feedbackTerms of stages.has('rm3') ? [5, 10, 20] : [])
    for (const feedbackWeight of [0.2, 0.4])
      for (const feedbackDocs of [5, 10]) {
        const setting = { feedbackTerms, feedbackWeight, feedbackDocs };
        const s = objective(
          (await scoreAgentm(sources, { extra: { ...chosen, ranking: { ...chosen.ranking, ...setting } } })).summary,
        );
        console.log(`RM3 ${JSON.stringify(setting)} dev ${f(s)} (off ${f(best)})`);
        if (s > rm3.score) rm3 = { score: s, setting };
      }
  console.log(
    `RM3 best on dev: ${JSON.stringify(rm3.setting)} ${f(rm3.score)} (off ${f(best)}): the bench judges it on test`,
  );

  // 3. Reciprocal rank fusion's k (the hybrid indexes).
  let fusion = { k: chosen.ranking.fusionK, score: -1 };
  for (const fusionK of stages.has('fusion') ? [5, 10, 20, 40, 60, 100, 200] : []) {
    const s = objective(
      (await scoreAgentm(sources, { hybrid: true, extra: { ...chosen, ranking: { ...chosen.ranking, fusionK } } }))
        .summary,
    );
    console.log(`RRF k ${String(fusionK).padEnd(4)} dev ${f(s)}`);
    if (s > fusion.score) fusion = { k: fusionK, score: s };
  }
  console.log(`RRF k chosen: ${fusion.k}`);

  // 4. The injection floor: one recall per prompt, every floor of a grid applied to it (lib/fit-floor.mjs).
  if (stages.has('floor')) {
    const fit = await fitFloor(sources, chosen);
    console.log(
      `\ninjection floor chosen: ${JSON.stringify(fit.floor)}${fit.met ? '' : ' (no floor met the marks on dev: the best worst case)'}`,
    );
    const line = (name, m) =>
      console.log(
        `  ${name.padEnd(13)} unanswerable → nothing ${f(m.silent)} of ${m.unanswerable}, still ${f(m.still)} of ${m.reachable}, ` +
          `hit ${f(m.hit)}, injected relevant ${f(m.precision)}, duplicates ${m.duplicates}`,
      );
    for (const [name, m] of Object.entries(fit.bySource)) line(name, m);
    line('all (dev)', fit.all);
  }
  await closeSplit(sources);
} finally {
  await rm(dir, { recursive: true, force: true });
}
