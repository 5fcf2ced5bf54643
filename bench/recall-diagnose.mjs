#!/usr/bin/env node
// Where AgentM loses to FTS5 bm25, query by query: for one split (dev by default) and the sources that
// QUALITY_SOURCES names, every query of the classes asked for (QUALITY_CLASSES, default all) whose AgentM
// nDCG@10 is below FTS5's, with both top 3 and the judged notes, each shown by its key and first words.
// Usage: QUALITY_SOURCES=field node bench/recall-diagnose.mjs [split] [max per class]
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeSplit, prepareSplit } from './lib/quality-run.mjs';
import { evaluate } from './lib/quality-metrics.mjs';
import { agentmLists, fts5Lists } from './lib/quality-systems.mjs';

const split = process.argv[2] ?? 'dev';
const perClass = Number(process.argv[3] ?? 3);
const classes = process.env.QUALITY_CLASSES?.split(',');

const words = (t) => new Set(t.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

/**
 * A key shown as its file and what it says: a log entry its own line; a note of more than 8 lines its
 * line sharing most words with the question (and its size in lines), else its first words.
 */
function show(root, key, question) {
  const [file, at] = key.split('@');
  const text = readFileSync(join(root, file), 'utf8').replace(/^---\n[\s\S]*?\n---\n\n/, '');
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const asked = words(question);
  const overlap = (l) => [...words(l)].filter((w) => asked.has(w)).length;
  if (at) {
    const entry = lines.find((l) => l.startsWith(`- ${new Date(Number(at)).toISOString()}`)) ?? '';
    return `${key} — ${entry.replace(/\[[a-z_]+:: [^\]]*\] ?/g, '').slice(0, 120)}`;
  }
  const line =
    lines.length > 8
      ? `(${lines.length} lines) … ${lines.reduce((best, l) => (overlap(l) > overlap(best) ? l : best), lines[1])}`
      : text.replace(/\s+/g, ' ');
  return `${key.replace(/^desk\/projects\//, '')} — ${line.slice(0, 120)}`;
}

const dir = await mkdtemp(join(tmpdir(), 'agentm-recall-diagnose-'));
try {
  const sources = await prepareSplit(dir, split);
  for (const s of sources) {
    const ours = (await agentmLists(s.index, s.queries)).lists;
    const theirs = fts5Lists(dir, s, s.queries).plain;
    const shown = new Map();
    s.queries.forEach((q, i) => {
      if (classes && !classes.includes(q.cls)) return;
      const a = evaluate(q, ours[i]).ndcg;
      const b = evaluate(q, theirs[i]).ndcg;
      if (a >= b || (shown.get(q.cls) ?? 0) >= perClass) return;
      shown.set(q.cls, (shown.get(q.cls) ?? 0) + 1);
      console.log(
        `\n[${s.name}/${q.cls}] "${q.text}"${q.project ? ` (in ${q.project})` : ''}: AgentM ${a.toFixed(2)}, FTS5 ${b.toFixed(2)}`,
      );
      for (const [k, g] of [...q.judgments].filter(([, g]) => g > 0).slice(0, 3))
        console.log(`  judged ${g}: ${show(s.root, k, q.text)}`);
      ours[i].slice(0, 3).forEach((k, r) => console.log(`  AgentM ${r + 1}: ${show(s.root, k, q.text)}`));
      theirs[i].slice(0, 3).forEach((k, r) => console.log(`  FTS5   ${r + 1}: ${show(s.root, k, q.text)}`));
    });
  }
  await closeSplit(sources);
} finally {
  await rm(dir, { recursive: true, force: true });
}
