/**
 * Running the recall-quality bench over one split: the vaults written and indexed once, then AgentM
 * (with any ranking overrides), the reference systems and the hook's injections scored against the
 * judgments. Shared by bench/recall-quality.mjs (which reports) and bench/fit-recall.mjs (which
 * searches the ranking's parameters on dev).
 */
import { injectionFigures, summarize } from './quality-metrics.mjs';
import { writeSources } from './quality-sources.mjs';
import {
  agentmLists,
  fts5Lists,
  injections,
  openAgentm,
  PLANTED_BOOKKEEPING,
  referenceLists,
} from './quality-systems.mjs';
import { standInEmbedder } from './quality-embedder.mjs';

/** Writes and indexes a split's vaults (`hybrid`: a second index with the bench embedder's vectors). */
export async function prepareSplit(dir, split, { hybrid = false } = {}) {
  const sources = writeSources(dir, split);
  for (const source of sources) {
    const lexical = await openAgentm(dir, source);
    source.index = lexical.index;
    source.documents = lexical.documents;
    if (hybrid) source.hybrid = (await openAgentm(dir, source, standInEmbedder)).index;
  }
  return sources;
}

export async function closeSplit(sources) {
  for (const s of sources) {
    await s.index.close?.();
    await s.hybrid?.close?.();
  }
}

/** Summaries `{ [source]: { [class | 'overall']: metrics } }` plus `all` (every query of every source). */
function summaries(sources, listsOf) {
  const out = {};
  const allQueries = [];
  const allLists = [];
  for (const s of sources) {
    const lists = listsOf(s);
    out[s.name] = summarize(s.queries, lists);
    allQueries.push(...s.queries.map((q) => ({ ...q, cls: `${s.name}/${q.cls}` })));
    allLists.push(...lists);
  }
  out.all = summarize(allQueries, allLists);
  return out;
}

/** AgentM's metrics (`extra`: recall options; `hybrid`: over the vector index), and its bookkeeping hits. */
export async function scoreAgentm(sources, { extra = {}, hybrid = false } = {}) {
  const lists = new Map();
  let bookkeeping = 0;
  let queriesWithBookkeeping = 0;
  for (const s of sources) {
    const { lists: l, episodes } = await agentmLists(hybrid ? s.hybrid : s.index, s.queries, extra);
    lists.set(s.name, l);
    for (const texts of episodes) {
      const hits = texts.filter((t) => PLANTED_BOOKKEEPING.test(t)).length;
      bookkeeping += hits;
      if (hits > 0) queriesWithBookkeeping++;
    }
  }
  return { summary: summaries(sources, (s) => lists.get(s.name)), bookkeeping, queriesWithBookkeeping };
}

/** The reference systems' metrics: FTS5 (plain and scoped), recency, random, oracle filter. */
export async function scoreReferences(dir, sources) {
  const lists = new Map();
  for (const s of sources)
    lists.set(s.name, { ...fts5Lists(dir, s, s.queries), ...(await referenceLists(s.index, s.queries)) });
  const of = (name) => summaries(sources, (s) => lists.get(s.name)[name]);
  return {
    fts5: of('plain'),
    scoped: of('scoped'),
    recency: of('recency'),
    random: of('random'),
    oracle: of('oracle'),
  };
}

/** The hook-injection figures per source and over all (`floor`, `extra`: overrides). */
export async function scoreInjection(sources, { floor, extra = {} } = {}) {
  const out = {};
  const all = { prompts: [], injected: [], unfloored: [] };
  const none = { words: 0, evidence: 0, relative: 0 };
  for (const s of sources) {
    const injected = await injections(s.index, s.prompts, { floor, extra });
    const unfloored = await injections(s.index, s.prompts, { floor: none, extra });
    out[s.name] = injectionFigures(s.prompts, injected, unfloored);
    all.prompts.push(...s.prompts);
    all.injected.push(...injected);
    all.unfloored.push(...unfloored);
  }
  out.all = injectionFigures(all.prompts, all.injected, all.unfloored);
  return out;
}
