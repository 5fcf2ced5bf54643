/**
 * The measurements of bench/recall.mjs, each run in a child process of its own (`node recall.mjs
 * --role <name> <dir>`), so that each peak RSS is that one job's and one job's garbage never slows
 * the next. `dir` holds the vault (`vault/`) and `plan.json` (the notes to change, the queries).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Locator } from '@agentm/core';
import { MemoryIndex, noteToDocument, recall } from '@agentm/core/memory';
import { DeviceLocalBackend } from '@agentm/core/backends';
import { mapLimit } from './map-limit.mjs';
import { anyWordSearch, buildFts5 } from './fts5.mjs';

/** The read worker of a cold build (multi-threaded full builds; the CLI passes the same file). */
const READ_WORKER = fileURLToPath(new URL('../../packages/core/dist/memory/indexing/read-worker.js', import.meta.url));
/** "Now" of the recall queries (fixed, so runs compare). */
const NOW = Date.UTC(2026, 9, 1);

const peakMB = () => process.resourceUsage().maxRSS / 1024;

function options(dir, extra = {}) {
  return {
    backend: new DeviceLocalBackend({ root: join(dir, 'vault') }),
    toDocument: noteToDocument,
    indexDir: join(dir, 'index'),
    memoryRoot: join(dir, 'vault'),
    lockRoot: join(dir, 'locks'),
    workerScript: READ_WORKER,
    ...extra,
  };
}

async function dirSize(path) {
  let total = 0;
  for (const name of await readdir(path)) total += (await stat(join(path, name))).size;
  return total;
}

async function latencies(queries, run) {
  for (const q of queries.slice(0, 10)) await run(q); // warm-up
  const out = [];
  for (const q of queries) {
    const t0 = performance.now();
    await run(q);
    out.push(performance.now() - t0);
  }
  return out;
}

export const ROLES = {
  /** List every directory and read every note through the backend (what any indexer must do): median of 3, warm. */
  async floor(dir) {
    const backend = new DeviceLocalBackend({ root: join(dir, 'vault') });
    const walkAndRead = async () => {
      const dirs = [new Locator('memory'), new Locator('desk/projects')];
      while (dirs.length) {
        const children = await backend.list(dirs.shift());
        for (const c of children) if (!c.name.endsWith('.md')) dirs.push(c);
        await mapLimit(
          children.filter((c) => c.name.endsWith('.md')),
          32,
          (f) => backend.read(f),
        );
      }
    };
    await walkAndRead();
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await walkAndRead();
      runs.push(performance.now() - t0);
    }
    return { runs };
  },

  /** SQLite FTS5 reading the same files into a fresh database (bench/lib/fts5.mjs). */
  async ftsBuild(dir) {
    const t0 = performance.now();
    const { db, files } = buildFts5(join(dir, 'fts.db'), join(dir, 'vault'));
    db.close();
    return { ms: performance.now() - t0, files, peakMB: peakMB() };
  },

  /** FTS5's bm25 over the plan's queries (any word, top 10), on the database ftsBuild left. */
  async ftsQuery(dir) {
    const { queries } = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'));
    const db = new Database(join(dir, 'fts.db'), { readonly: true });
    const search = anyWordSearch(db);
    const times = await latencies(queries, (q) => search(q.text, 10));
    db.close();
    return { times };
  },

  /**
   * A session: cold build (open + refresh into an empty index directory, read workers), then one-note
   * updates, an incremental refresh that walks everything, and the plan's queries.
   */
  async agentm(dir) {
    rmSync(join(dir, 'index'), { recursive: true, force: true });
    const { updates, queries } = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'));
    let t0 = performance.now();
    const index = await MemoryIndex.open(options(dir));
    const report = await index.refresh();
    const coldMs = performance.now() - t0;
    const updateMs = [];
    for (const [key, text] of updates) {
      await writeFile(join(dir, 'vault', key), text);
      t0 = performance.now();
      await index.update([new Locator(key)]);
      updateMs.push(performance.now() - t0);
    }
    await writeFile(join(dir, 'vault', updates[0][0]), `${updates[0][1]}\nchanged again\n`);
    t0 = performance.now();
    const incremental = await index.refresh();
    const refreshMs = performance.now() - t0;
    const times = await latencies(queries, (q) => recall(index, { ...q, k: 10, now: NOW }));
    return {
      coldMs,
      documents: report.documents,
      readWorkers: report.readWorkers ?? 0,
      updateMs,
      refreshMs,
      refreshRead: incremental.read,
      times,
      indexBytes: await dirSize(join(dir, 'index')),
      peakMB: peakMB(),
    };
  },

  /** The same cold build on this thread alone (no read workers), into a directory of its own. */
  async agentmSingle(dir) {
    const indexDir = join(dir, 'index-single');
    rmSync(indexDir, { recursive: true, force: true });
    const t0 = performance.now();
    const index = await MemoryIndex.open(options(dir, { workerScript: undefined, indexDir }));
    await index.refresh();
    const ms = performance.now() - t0;
    rmSync(indexDir, { recursive: true, force: true });
    return { ms };
  },

  /** A new process's first recall: opening the index the session left (snapshot and journal), then the queries. */
  async agentmOpen(dir) {
    const { queries } = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'));
    const t0 = performance.now();
    const index = await MemoryIndex.open(options(dir));
    const openMs = performance.now() - t0;
    if (index.loadStatus !== 'loaded') throw new Error(`the index did not load: ${index.loadDetail}`);
    const first = performance.now();
    await recall(index, { ...queries[0], k: 10, now: NOW });
    const firstMs = performance.now() - first;
    const times = await latencies(queries, (q) => recall(index, { ...q, k: 10, now: NOW }));
    return { openMs, firstMs, times, documents: index.state.docs.size, peakMB: peakMB() };
  },
};

/** Runs a role in this process and prints its result as the last line of stdout. */
export async function runRole(name, dir) {
  const result = await ROLES[name](dir);
  writeFileSync(1, `${JSON.stringify(result)}\n`);
}
