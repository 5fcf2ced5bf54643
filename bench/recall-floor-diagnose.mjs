#!/usr/bin/env node
// Where the prompt hook's injection floor goes wrong, prompt by prompt: for one split (dev by default) and
// the sources QUALITY_SOURCES names, every unanswerable prompt that gets a memory and every answerable
// one whose right note was in the top 5 before the floor and is not after it, each with its words (the
// documents holding each, its IDF over the index's highest, whether it is a content word) and recall's
// top 5 (grade, content words held, evidence, score; * = injected). With a second argument, writes every
// prompt's top 25 with those signals as JSON, for trying floors offline.
// Usage: QUALITY_SOURCES=field,talk-turn node bench/recall-floor-diagnose.mjs [split] [out.json]
import { mkdtemp, rm } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INJECTION_FLOOR, memoriesToInject, RANKING_DEFAULTS, recall } from '@agentm/core/memory';
import { queryConcepts, queryWords } from '../packages/core/dist/memory/recall/query-plan.js';
import { idf } from '../packages/core/dist/memory/indexing/bm25-search.js';
import { closeSplit, prepareSplit } from './lib/quality-run.mjs';
import { NOW } from './lib/quality-sources.mjs';
import { keyOf } from './lib/quality-systems.mjs';

const split = process.argv[2] ?? 'dev';
const out = process.argv[3];
const f = (x) => x.toFixed(2);

/** The grade of a result key for a prompt (an entry's file is credited for the entry). */
function gradeOf(p, key) {
  let g = p.judgments.get(key) ?? 0;
  for (const [k, v] of p.judgments) if (k.startsWith(`${key}@`)) g = Math.max(g, v);
  return g;
}

/** Each word of a prompt: its term, document frequency, IDF over the index's highest, content or not. */
function wordsOf(index, text) {
  const bm = index.state.bm25;
  const n = bm.liveCount;
  const terms = queryWords(text);
  const concepts = terms.length > 0 ? queryConcepts(terms, bm, RANKING_DEFAULTS) : [];
  return concepts.map((c, i) => {
    const id = bm.terms.id(terms[i]);
    const df = id < 0 ? 0 : bm.documentFrequency(id);
    return {
      term: terms[i],
      df,
      idf: idf(n, df) / idf(n, 1),
      content: c.content !== false,
      variants: c.variants.length,
    };
  });
}

const dir = await mkdtemp(join(tmpdir(), 'agentm-recall-floor-diagnose-'));
try {
  const sources = await prepareSplit(dir, split);
  const dump = [];
  for (const s of sources) {
    for (const p of s.prompts) {
      const result = await recall(s.index, { text: p.text, project: p.project, k: 25, now: NOW });
      const items = result.items;
      const injected = new Set(memoriesToInject(items, 5, INJECTION_FLOOR, result.contentWords));
      const top = memoriesToInject(items, 5, { words: 0, evidence: 0, relative: 0 });
      const answerable = p.judgments.size > 0;
      const reachable = top.some((i) => gradeOf(p, keyOf(i)) > 0);
      const kept = [...injected].some((i) => gradeOf(p, keyOf(i)) > 0);
      const words = wordsOf(s.index, p.text);
      if (out)
        dump.push({
          source: s.name,
          text: p.text,
          answerable,
          words,
          items: items.map((i) => ({
            key: keyOf(i),
            title: i.title,
            alwaysLoad: i.alwaysLoad,
            grade: gradeOf(p, keyOf(i)),
            words: i.words,
            evidence: i.evidence,
            coverage: i.coverage,
            similarity: i.similarity,
            score: i.score,
          })),
        });
      const wrong = answerable ? reachable && !kept : injected.size > 0;
      if (!wrong) continue;
      console.log(
        `\n[${s.name}] ${answerable ? 'answerable, right note lost' : 'unanswerable, injected'}: "${p.text}"`,
      );
      console.log(
        `  words: ${words.map((w) => `${w.content ? '' : '('}${w.term} ${w.df}/${f(w.idf)}${w.content ? '' : ')'}`).join(' ')}`,
      );
      top.forEach((i, r) =>
        console.log(
          `  ${r + 1}${injected.has(i) ? '*' : ' '} grade ${gradeOf(p, keyOf(i))} words ${i.words} evidence ${f(i.evidence)} score ${f(i.score)}  ${i.title.replace(/\s+/g, ' ').slice(0, 70)}`,
        ),
      );
    }
  }
  if (out) {
    writeFileSync(out, JSON.stringify(dump));
    console.log(`\nwrote ${dump.length} prompts to ${out}`);
  }
  await closeSplit(sources);
} finally {
  await rm(dir, { recursive: true, force: true });
}
