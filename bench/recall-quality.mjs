#!/usr/bin/env node
// Recall quality benchmark (issue 19 §1): does AgentM put the right memory first on questions it was
// not tuned to? Four sources of notes and questions, each from its own generator (bench/lib/
// quality-sources.mjs): agent notes with plans and progress logs, a long multi-session conversation
// (one note per turn, and one per session), and questions worded unlike their notes (synonyms,
// inflections, abbreviations, code identifiers). Two splits from different seeds: every weight and
// threshold of the ranking was fitted on dev (bench/fit-recall.mjs prints what it chose); this bench
// reports test, dev beside it. Per class and overall, MRR@10, nDCG@10 and Recall@10 of
//   AgentM        recall() over its index (lexical), k = 10
//   FTS5 bm25     SQLite FTS5 as Basic Memory ranks (bench/lib/fts5.mjs); FTS5 scoped: with AgentM's scope
//   recency       AgentM's candidates newest first      random   the same in a seeded random order
//   oracle filter the same candidates, only the judged-relevant, best first (what reordering could reach)
// then what the prompt hook injects (unanswerable prompts that get nothing, answerable ones that still
// get a right note, share of injected memories that are relevant, duplicates), hybrid recall with a
// deterministic stand-in embedder (reciprocal rank fusion), and pseudo-relevance feedback (RM3) on and
// off. Every figure is printed beside its goal.
// Environment: QUALITY_NOTES (agent background notes, default 3000), QUALITY_PER_CLASS (20),
// QUALITY_CHATS (6), QUALITY_HYBRID (1: build the vector indexes too), QUALITY_SPLITS (dev,test).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INJECTION_FLOOR, RANKING_DEFAULTS } from '@agentm/core/memory';
import { closeSplit, prepareSplit, scoreAgentm, scoreInjection, scoreReferences } from './lib/quality-run.mjs';
import { printInjection, printQuality, printVariants } from './lib/quality-report.mjs';
import { SEEDS } from './lib/quality-sources.mjs';

const HYBRID = process.env.QUALITY_HYBRID !== '0';
const SPLITS = (process.env.QUALITY_SPLITS ?? 'dev,test').split(',');
/** The feedback setting fit-recall.mjs found best on dev (RM3 stays off unless test says otherwise). */
const RM3 = { feedbackTerms: 10, feedbackDocs: 8, feedbackWeight: 0.3 };

const dir = await mkdtemp(join(tmpdir(), 'agentm-recall-quality-'));
try {
  const results = {};
  for (const split of SPLITS) {
    const sources = await prepareSplit(dir, split, { hybrid: HYBRID });
    const agentm = await scoreAgentm(sources);
    results[split] = {
      sources: sources.map((s) => ({
        name: s.name,
        notes: s.notes,
        documents: s.documents,
        queries: s.queries.length,
        prompts: s.prompts.length,
      })),
      agentm,
      references: await scoreReferences(dir, sources),
      injection: await scoreInjection(sources),
      variants: {
        'AgentM + RM3 feedback': (await scoreAgentm(sources, { extra: { ranking: RM3 } })).summary,
        "AgentM, memQL's formula (wSem 0.7, wRec 0.3)": (await scoreAgentm(sources, { extra: { formula: 'memql' } }))
          .summary,
        ...(HYBRID ? { 'AgentM + vectors (RRF)': (await scoreAgentm(sources, { hybrid: true })).summary } : {}),
      },
    };
    await closeSplit(sources);
  }
  const main = results.test ?? results[SPLITS[0]];
  const side = results.test && results.dev ? results.dev : undefined;
  console.log(
    `recall quality: splits ${SPLITS.map((s) => `${s} (seed ${SEEDS[s]})`).join(', ')}; metrics @10; figures are ` +
      `${results.test ? 'test' : SPLITS[0]}${side ? ', dev in brackets' : ''}`,
  );
  console.log(`ranking: ${JSON.stringify(RANKING_DEFAULTS)}; injection floor: ${JSON.stringify(INJECTION_FLOOR)}`);
  printQuality(main, side);
  printInjection(main, side);
  printVariants(main, side, RM3);
  console.log(JSON.stringify(results));
} finally {
  await rm(dir, { recursive: true, force: true });
}
