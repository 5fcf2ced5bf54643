/**
 * The systems the recall-quality bench ranks with, over one source's vault, each returning result keys
 * (a note's path, or `<progress file>@<epoch ms>` for one entry of a harness log):
 *   AgentM        recall() over its index, scoped to the query's project, k = 10 (ranking overrides
 *                 from the fitting script when given)
 *   FTS5 bm25     plain BM25 over the same files as Basic Memory ranks them (fts5.mjs)
 *   FTS5 scoped   the same, keeping only what AgentM may return (its scope and filters, an oracle of
 *                 the layout): how much is scope, how much ranking
 *   recency       AgentM's candidates (every memory sharing a word with the query) newest first
 *   random        the same candidates in a seeded random order
 *   oracle filter the same candidates with only the judged-relevant kept, best grade first: the ceiling
 *                 of any reordering of what the lexical match retrieves
 * and the prompt hook's injection (memoriesToInject over AgentM's recall, as the hook calls it).
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { MemoryIndex, memoriesToInject, recall } from '@agentm/core/memory';
import { DeviceLocalBackend } from '@agentm/core/backends';
import { recognizeConflictName } from '@agentm/core/write-protocol';
import { rng } from './corpus.mjs';
import { buildFts5, searchBasicMemory } from './fts5.mjs';
import { NOW } from './quality-sources.mjs';

const READ_WORKER = fileURLToPath(new URL('../../packages/core/dist/memory/indexing/read-worker.js', import.meta.url));
const CANDIDATES = 1000;

export const keyOf = (item) => (item.kind === 'episode' ? `${item.locator}@${item.createdMs}` : item.locator);

/** Opens (and builds) AgentM's index of a source's vault; `embedder` adds vectors (hybrid recall). */
export async function openAgentm(dir, source, embedder) {
  const index = await MemoryIndex.open({
    backend: new DeviceLocalBackend({ root: source.root }),
    toDocument: 'notes', // the notes module's mapper, which the read workers run
    indexRoot: join(dir, `${source.name}-${embedder ? 'hybrid' : 'lexical'}-cache`),
    lockRoot: join(dir, 'locks'),
    workerScript: READ_WORKER,
    ...(embedder ? { embedder } : {}),
  });
  const built = await index.refresh();
  // Vectors are computed by their own run (in a session, in the background): without it the hybrid
  // index would have none, and its rows would be the lexical ones.
  if (embedder) {
    const report = await index.embeddings.run();
    if (report.pending > 0 || report.embedded === 0)
      throw new Error(`the bench embedder left ${report.pending} of ${built.documents} documents without a vector`);
  }
  return { index, documents: built.documents };
}

/**
 * AgentM's top 10 for each query (`extra`: recall options, e.g. `{ ranking }`): the keys, and the
 * episodes' texts (title and snippet: where bookkeeping would show).
 */
export async function agentmLists(index, queries, extra = {}) {
  const lists = [];
  const episodes = [];
  for (const q of queries) {
    const items = (await recall(index, { text: q.text, project: q.project, k: 10, now: NOW, ...extra })).items;
    lists.push(items.map(keyOf));
    episodes.push(items.filter((i) => i.kind === 'episode').map((i) => `${i.title}\n${i.snippet}`));
  }
  return { lists, episodes };
}

/** The planted bookkeeping forms (quality-vault.mjs#bookkeeping): a result showing one is bookkeeping. */
export const PLANTED_BOOKKEEPING =
  /ready → running|running → (?:done|failed)|\[transition\]|\[claim\]|completed \(\d+ tool call|Claimed step|Step `[^`]*`: done|started s\d|\bstarted [a-z]+-[a-z]+\b|→ done ✅|Status: \S+ blocked|released \S+/;

/** The reference systems over AgentM's candidates: recency, random, oracle filter. */
export async function referenceLists(index, queries) {
  const recency = [];
  const random = [];
  const oracle = [];
  for (const q of queries) {
    const base = { text: q.text, project: q.project, now: NOW };
    recency.push((await recall(index, { ...base, k: 10, formula: 'memql', wSem: 0, wRec: 1 })).items.map(keyOf));
    const all = (await recall(index, { ...base, k: CANDIDATES })).items.map(keyOf);
    const shuffle = rng(q.id * 7919 + q.text.length);
    random.push(
      all
        .map((k) => [shuffle(), k])
        .sort((a, b) => a[0] - b[0])
        .slice(0, 10)
        .map(([, k]) => k),
    );
    oracle.push(
      all
        .filter((k) => (q.judgments.get(k) ?? 0) > 0)
        .sort((a, b) => q.judgments.get(b) - q.judgments.get(a))
        .slice(0, 10),
    );
  }
  return { recency, random, oracle };
}

/** Whether AgentM's layout and status rules would let this FTS5 row be returned in `project`. */
function inAgentmScope(row, project) {
  const parts = row.path.split('/');
  const name = parts[parts.length - 1];
  if (parts[0] === 'memory' && (parts[1] === '_archive' || parts[1] === '_inbox')) return false;
  if (project !== undefined && parts[0] === 'desk' && parts[2] !== project) return false;
  if (parts[3] === '_harness' && !name.startsWith('progress')) return false; // PLAN files are not memories
  if (recognizeConflictName(name, () => true)) return false;
  return row.status === 'active';
}

/** FTS5's lists (plain and scoped) for each query. */
export function fts5Lists(dir, source, queries) {
  const { db } = buildFts5(join(dir, `${source.name}.fts.db`), source.root);
  try {
    return {
      plain: queries.map((q) => searchBasicMemory(db, q.text, 10).map((r) => r.path)),
      scoped: queries.map((q) =>
        searchBasicMemory(db, q.text, 1000)
          .filter((r) => inAgentmScope(r, q.project))
          .slice(0, 10)
          .map((r) => r.path),
      ),
    };
  } finally {
    db.close();
  }
}

/**
 * What the prompt hook would inject for each prompt (k 5, the hook's default): `{ keys, titles }` per
 * prompt. `floor` overrides the default floor (the fitting script), `extra` the recall options.
 */
export async function injections(index, prompts, { floor, extra = {}, k = 5 } = {}) {
  const out = [];
  for (const p of prompts) {
    const result = await recall(index, { text: p.text, project: p.project, k: k + 20, now: NOW, ...extra });
    const items = memoriesToInject(result.items, k, floor, result.contentWords);
    out.push({ keys: items.map(keyOf), titles: items.map((i) => i.title), all: result.items });
  }
  return out;
}
