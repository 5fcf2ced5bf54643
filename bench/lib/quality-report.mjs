/**
 * The printed report of bench/recall-quality.mjs: tables of the main split's figures (the other split's
 * in brackets) and every goal beside its figure, met or missed.
 */
import { SOURCES } from './quality-sources.mjs';
import { pairedInterval } from './stats.mjs';

const f = (x) => (x === undefined ? '  —  ' : x.toFixed(3));
const met = (ok) => (ok ? 'met' : 'MISSED');
const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

/** Rows: every source's classes, then its overall; `all` last. */
function rows(summary) {
  const out = [];
  for (const source of SOURCES) {
    if (!summary[source]) continue;
    for (const cls of Object.keys(summary[source]).filter((c) => c !== 'overall')) out.push([source, cls]);
    out.push([source, 'overall']);
  }
  out.push(['all', 'overall']);
  return out;
}

function systems(result) {
  const r = result.references;
  return [
    ['AgentM', result.agentm.summary],
    ['FTS5 bm25', r.fts5],
    ['FTS5 scoped', r.scoped],
    ['recency', r.recency],
    ['random', r.random],
    ['oracle filter', r.oracle],
  ];
}

export function printQuality(main, side) {
  console.log(
    `sources: ${main.sources.map((s) => `${s.name} ${s.notes} notes (${s.documents} AgentM documents), ${s.queries} queries`).join('; ')}`,
  );
  const mainSystems = systems(main);
  const sideSystems = side ? systems(side) : undefined;
  for (const [metric, label] of [
    ['ndcg', 'nDCG@10'],
    ['mrr', 'MRR@10'],
    ['recall', 'Recall@10'],
  ]) {
    console.log(`\n${label}${side ? ' (dev)' : ''}`);
    console.log(
      `${'source / class'.padEnd(30)} ${'n'.padStart(4)}  ${mainSystems.map(([n]) => n.padEnd(side ? 17 : 14)).join('')}`,
    );
    for (const [source, cls] of rows(main.agentm.summary)) {
      if (metric !== 'ndcg' && cls !== 'overall') continue;
      const cells = mainSystems.map(([, s], i) => {
        const value = f(s[source]?.[cls]?.[metric]);
        const dev = sideSystems ? ` (${f(sideSystems[i][1][source]?.[cls]?.[metric])})` : '';
        return `${value}${dev}`.padEnd(side ? 17 : 14);
      });
      console.log(
        `${`${source}/${cls}`.padEnd(30)} ${String(main.agentm.summary[source][cls].n).padStart(4)}  ${cells.join('')}`,
      );
    }
  }
  const ours = main.agentm.summary;
  const fts = main.references.fts5;
  const lift = ours.all.overall.ndcg - fts.all.overall.ndcg;
  // With each shortfall, its 95 % paired bootstrap interval: whether other questions like these could
  // as well put AgentM above (the goal is read on the figure itself, not on the interval).
  // Without a shortfall, the narrowest margins are printed the same way: how close the goal is.
  const margin = ([s, c]) => ours[s][c].ndcg - fts[s][c].ndcg;
  const withInterval = ([s, c]) => {
    const [lo, hi] = pairedInterval(ours[s][c].ndcgs, fts[s][c].ndcgs);
    return `${s}/${c} (${signed(margin([s, c]))}, ${ours[s][c].n} queries, 95 % interval ${signed(lo)} … ${signed(hi)})`;
  };
  const lower = rows(ours)
    .filter((row) => margin(row) < 0)
    .map(withInterval);
  const narrowest = rows(ours)
    .filter((row) => margin(row) > 0)
    .sort((a, b) => margin(a) - margin(b))
    .slice(0, 3)
    .map(withInterval);
  const recency = main.references.recency.all.overall.ndcg;
  const random = main.references.random.all.overall.ndcg;
  console.log('\ngoals');
  console.log(`AgentM nDCG@10 − FTS5 bm25's, all queries: ${signed(lift)} (goal ≥ +0.100: ${met(lift >= 0.1)})`);
  console.log(
    `classes where AgentM's nDCG@10 is below FTS5's: ${lower.length === 0 ? 'none' : lower.join(', ')} (goal: none: ${met(lower.length === 0)})` +
      (lower.length === 0 && narrowest.length > 0 ? `; narrowest margins: ${narrowest.join(', ')}` : ''),
  );
  console.log(
    `recency alone: ${f(recency)}, random: ${f(random)} nDCG@10 over all queries (goal ≤ 0.300 each: ${met(recency <= 0.3 && random <= 0.3)})`,
  );
  for (const source of ['chat-turn', 'chat-session'])
    if (ours[source]) {
      const d = ours[source].overall.ndcg - fts[source].overall.ndcg;
      console.log(`${source}: AgentM − FTS5 ${signed(d)} (held-out conversation goal ≥ +0.030: ${met(d >= 0.03)})`);
    }
  if (ours.agent) {
    const worst = Object.keys(ours.agent)
      .map((c) => ours.agent[c].ndcg - fts.agent[c].ndcg)
      .reduce((a, b) => Math.min(a, b), 0);
    console.log(
      `agent notes: AgentM ${f(ours.agent.overall.ndcg)} (held-out agent-notes goal ≥ 0.750: ${met(ours.agent.overall.ndcg >= 0.75)}), ` +
        `worst class vs FTS5 ${signed(worst)} (goal ≥ −0.010: ${met(worst >= -0.01)})`,
    );
  }
  console.log(
    `bookkeeping entries in AgentM's top 10: ${main.agentm.bookkeeping} over ${main.agentm.queriesWithBookkeeping} queries (goal 0: ${met(main.agentm.bookkeeping === 0)}); ` +
      `queries returning a superseded note, conflict copy or inbox capture: AgentM ${ours.all.overall.forbidden}, FTS5 ${fts.all.overall.forbidden} (goal 0 for AgentM: ${met(ours.all.overall.forbidden === 0)})`,
  );
}

export function printInjection(main, side) {
  console.log(`\nprompt hook injection (memoriesToInject, k 5)${side ? ', dev in brackets' : ''}`);
  console.log(
    `${'source'.padEnd(14)} ${'unanswerable → nothing'.padEnd(26)}${'answerable → a right note'.padEnd(28)}${'still (of those reachable)'.padEnd(28)}${'injected relevant'.padEnd(20)}duplicates`,
  );
  for (const source of [...SOURCES, 'all']) {
    const m = main.injection[source];
    if (!m) continue;
    const d = side?.injection[source];
    const of = { silent: m.unanswerable, hit: m.answerable, still: m.reachable };
    const cell = (key, width) => `${f(m[key])}${d ? ` (${f(d[key])})` : ''} of ${of[key]}`.padEnd(width);
    console.log(
      `${source.padEnd(14)} ${cell('silent', 26)}${cell('hit', 28)}${cell('still', 28)}${`${f(m.precision)}${d ? ` (${f(d.precision)})` : ''}`.padEnd(20)}${m.duplicates}`,
    );
  }
  const all = main.injection.all;
  console.log(
    '("still": of the answerable prompts whose top 5 held a right note before the floor, those that keep one)',
  );
  console.log(
    `goals: unanswerable prompts that get nothing ${f(all.silent)} (≥ 0.900: ${met(all.silent >= 0.9)}); answerable ones that still get a right note ` +
      `${f(all.still)} (≥ 0.900: ${met(all.still >= 0.9)}); injections listing a memory or title twice ${all.duplicates} (goal 0: ${met(all.duplicates === 0)})`,
  );
}

export function printVariants(main, side, rm3) {
  console.log(`\nvariants (nDCG@10${side ? ', dev in brackets' : ''}); RM3 = ${JSON.stringify(rm3)}`);
  const base = main.agentm.summary;
  console.log(`${'variant'.padEnd(46)}${[...SOURCES, 'all'].map((s) => s.padEnd(20)).join('')}`);
  const line = (name, summary, dev) =>
    console.log(
      `${name.padEnd(46)}${[...SOURCES, 'all'].map((s) => `${f(summary[s]?.overall.ndcg)}${dev ? ` (${f(dev[s]?.overall.ndcg)})` : ''}`.padEnd(20)).join('')}`,
    );
  line('AgentM (lexical, as shipped)', base, side?.agentm.summary);
  for (const [name, summary] of Object.entries(main.variants)) line(name, summary, side?.variants[name]);
}
