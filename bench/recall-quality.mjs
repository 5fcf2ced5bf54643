#!/usr/bin/env node
// Recall quality benchmark (issue 14 §1). A seeded vault of ≥ 5 000 agentm notes over 24 projects
// plus each project's harness log, with graded queries planted per class (bench/lib/quality-classes.mjs).
// In one run it ranks every query with
//   AgentM       recall() over its index, scoped to the query's project, k = 10
//   FTS5 bm25    plain BM25 over the same files as Basic Memory ranks them (bench/lib/fts5.mjs)
//   FTS5 scoped  the same, keeping only what AgentM may return (the project and global notes, no
//                archive, inbox, conflict copy or superseded status): how much is scope, how much ranking
//   recency      AgentM's candidates ordered by recency alone (wSem 0, wRec 1)
// and prints MRR@10, nDCG@10 and Recall@10 per class and overall, and how many queries returned a
// memory that must never come back (a superseded note, a conflict copy).
// Goal: AgentM's nDCG@10 ≥ FTS5 bm25's + 0.10 overall, and no class where it is lower.
// Environment: QUALITY_SEED (default 20261126), QUALITY_NOTES (background notes, default 4600),
// QUALITY_PER_CLASS (queries per class, default 40).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryIndex, noteToDocument, recall } from '@agentm/core/memory';
import { DeviceLocalBackend } from '@agentm/core/backends';
import { recognizeConflictName } from '@agentm/core/write-protocol';
import { buildFts5, searchBasicMemory } from './lib/fts5.mjs';
import { plantBackground, QUERY_CLASSES } from './lib/quality-classes.mjs';
import { summarize } from './lib/quality-metrics.mjs';
import { QualityVault } from './lib/quality-vault.mjs';

const SEED = Number(process.env.QUALITY_SEED ?? 20261126);
const BACKGROUND = Number(process.env.QUALITY_NOTES ?? 4600);
const PER_CLASS = Number(process.env.QUALITY_PER_CLASS ?? 40);
const READ_WORKER = fileURLToPath(new URL('../packages/core/dist/memory/indexing/read-worker.js', import.meta.url));
/** "Now" for every engine: a fixed local afternoon, so the run does not depend on the clock. */
const NOW = new Date(2026, 5, 30, 15, 0, 0).getTime();

const keyOf = (item) => (item.kind === 'episode' ? `${item.locator}@${item.createdMs}` : item.locator);

/** Whether AgentM's layout and status rules would let this FTS5 row be returned in `project`. */
function inAgentmScope(row, project) {
  const parts = row.path.split('/');
  const name = parts[parts.length - 1];
  if (parts[0] === 'memory' && (parts[1] === '_archive' || parts[1] === '_inbox')) return false;
  if (parts[0] === 'desk' && parts[2] !== project) return false;
  if (parts[3] === '_harness' && !name.startsWith('progress')) return false; // PLAN files are not memories
  if (recognizeConflictName(name, () => true)) return false;
  return row.status === 'active';
}

const dir = await mkdtemp(join(tmpdir(), 'agentm-recall-quality-'));
try {
  const root = join(dir, 'vault');
  const v = new QualityVault(root, { seed: SEED, now: NOW, projects: 24 });
  plantBackground(v, BACKGROUND);
  for (let i = 0; i < PER_CLASS; i++) for (const plant of Object.values(QUERY_CLASSES)) plant(v, i);
  v.flushEpisodes();
  const queries = v.queries;

  const index = await MemoryIndex.open({
    backend: new DeviceLocalBackend({ root }),
    toDocument: noteToDocument,
    indexRoot: join(dir, 'cache'),
    lockRoot: join(dir, 'locks'),
    workerScript: READ_WORKER,
  });
  const built = await index.refresh();
  const ranked = async (extra) => {
    const out = [];
    for (const q of queries)
      out.push((await recall(index, { text: q.text, project: q.project, k: 10, now: NOW, ...extra })).items.map(keyOf));
    return out;
  };
  const agentm = await ranked({});
  const recency = await ranked({ wSem: 0, wRec: 1 });

  const { db, files } = buildFts5(join(dir, 'fts.db'), root);
  const fts = queries.map((q) => searchBasicMemory(db, q.text, 10).map((r) => r.path));
  const scoped = queries.map((q) =>
    searchBasicMemory(db, q.text, 1000)
      .filter((r) => inAgentmScope(r, q.project))
      .slice(0, 10)
      .map((r) => r.path),
  );
  db.close();

  const systems = [
    ['AgentM', summarize(queries, agentm)],
    ['FTS5 bm25', summarize(queries, fts)],
    ['FTS5 scoped', summarize(queries, scoped)],
    ['recency', summarize(queries, recency)],
  ];
  const classes = [...Object.keys(QUERY_CLASSES), 'overall'];
  const f = (x) => x.toFixed(3);
  console.log(
    `recall quality: ${v.notes} notes and ${v.projects.length} harness logs (${files} Markdown files, ` +
      `${built.documents} AgentM documents), ${queries.length} queries, seed ${SEED}; metrics @10`,
  );
  console.log(
    `${'class'.padEnd(18)} ${'n'.padStart(3)}  ${systems.map(([name]) => `${name} nDCG / MRR / R`.padEnd(29)).join('')}`,
  );
  for (const cls of classes) {
    const cells = systems.map(([, s]) => `${f(s[cls].ndcg)} / ${f(s[cls].mrr)} / ${f(s[cls].recall)}`.padEnd(29));
    console.log(`${cls.padEnd(18)} ${String(systems[0][1][cls].n).padStart(3)}  ${cells.join('')}`);
  }
  console.log(
    `queries returning a superseded note or a conflict copy: ${systems.map(([name, s]) => `${name} ${s.overall.forbidden}`).join(', ')}`,
  );
  const [ours, plain] = [systems[0][1], systems[1][1]];
  const lift = ours.overall.ndcg - plain.overall.ndcg;
  const worse = classes.filter((c) => ours[c].ndcg < plain[c].ndcg);
  console.log(
    `AgentM nDCG@10 − FTS5 bm25's: ${lift >= 0 ? '+' : ''}${f(lift)} overall (goal ≥ +0.100: ${lift >= 0.1 ? 'met' : 'missed'}); ` +
      `classes where AgentM is lower: ${worse.length === 0 ? 'none (goal: none: met)' : `${worse.join(', ')} (goal: none: missed)`}`,
  );
  console.log(JSON.stringify(Object.fromEntries(systems)));
} finally {
  await rm(dir, { recursive: true, force: true });
}
