#!/usr/bin/env node
// Recall benchmark (issue 4), with the real note mapper (noteToDocument). For each vault size, in a
// child process of its own (so peak RSS is per size), it measures in one run:
//   floor:   list every directory and read every note through the backend (what any indexer must do), median of 3
//   cold:    open + full index build (walk, read, parse, tokenize, write the snapshot), with read workers
//            (one per core, at most 4; median of 3 builds up to 20 000 notes), and the same build on one thread
//   update:  one note changed → index.update([that note]) (median of 20)
//   refresh: incremental refresh that walks the whole vault and finds one changed note
//   load:    opening the built index from disk (a new process's first recall pays this)
//   recall:  p50 / p95 of 100 queries of 2–4 words sampled from random notes, k = 10, project-scoped
//   size:    index files on disk; peak RSS of the process
// Goals: cold ≤ 3× floor; update ≤ 10 ms; recall p50 ≤ 10 ms at 10 000 notes, ≤ 50 ms at 100 000;
// cost growing no worse than linearly (10k → 100k ratios ≤ ~10).
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Locator, MemoryIndex, noteToDocument, recall } from '@agentm/core';
import { DeviceLocalBackend } from '@agentm/core/backends';
import { mapLimit } from './lib/map-limit.mjs';
import { writeVault } from './lib/corpus.mjs';
import { fmtMs, median, percentile, ratio } from './lib/stats.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);

/** The read worker of a cold build (multi-threaded full builds; the CLI passes the same file). */
const READ_WORKER = fileURLToPath(new URL('../packages/core/dist/memory/indexing/read-worker.js', import.meta.url));

async function walkAndRead(backend) {
  const dirs = [new Locator('memory'), new Locator('desk/projects')];
  let bytes = 0;
  while (dirs.length) {
    const children = await backend.list(dirs.shift());
    const files = children.filter((c) => c.name.endsWith('.md'));
    for (const c of children) if (!c.name.endsWith('.md')) dirs.push(c);
    await mapLimit(files, 32, async (f) => (bytes += (await backend.read(f)).length));
  }
  return bytes;
}

async function dirSize(dir) {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

async function measure(size) {
  const dir = await mkdtemp(join(tmpdir(), 'agentm-recall-bench-'));
  try {
    const root = join(dir, 'vault');
    const t = performance.now();
    const corpus = writeVault(root, size, 42);
    const generateMs = performance.now() - t;
    const backend = new DeviceLocalBackend({ root });
    const options = {
      backend,
      toDocument: noteToDocument,
      indexRoot: join(dir, 'cache'),
      lockRoot: join(dir, 'locks'),
      workerScript: READ_WORKER,
    };
    await walkAndRead(backend); // warm the page cache for both sides alike
    const floor = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await walkAndRead(backend);
      floor.push(performance.now() - t0);
    }
    // The same cold build on one thread (no read workers), into its own index directory, for comparison.
    let t0 = performance.now();
    const single = await MemoryIndex.open({
      ...options,
      indexRoot: join(dir, 'cache-single'),
      workerScript: undefined,
    });
    await single.refresh();
    const coldSingleMs = performance.now() - t0;
    await rm(single.dir, { recursive: true, force: true });
    // Small vaults build in about two seconds, where one stray scheduling hiccup moves the ratio: the
    // median of three cold builds (each into an empty index directory); one at larger sizes.
    const colds = [];
    let index;
    let report;
    for (let run = 0; run < (size <= 20_000 ? 3 : 1); run++) {
      if (index) await rm(index.dir, { recursive: true, force: true });
      t0 = performance.now();
      index = await MemoryIndex.open(options);
      report = await index.refresh();
      colds.push(performance.now() - t0);
    }
    const coldMs = median(colds);
    const updates = [];
    for (let i = 0; i < 20; i++) {
      const key = corpus.keys[(i * 7919) % corpus.keys.length];
      await writeFile(
        join(root, key),
        `---\ntype: fix\nstatus: active\n---\n\n# edited ${i}\n\n${corpus.sentence(150)}\n`,
      );
      t0 = performance.now();
      await index.update([new Locator(key)]);
      updates.push(performance.now() - t0);
    }
    await writeFile(join(root, corpus.keys[1]), `---\ntype: fix\n---\n\n${corpus.sentence(120)}\n`);
    t0 = performance.now();
    const incremental = await index.refresh();
    const refreshMs = performance.now() - t0;
    t0 = performance.now();
    const loaded = await MemoryIndex.open(options);
    const loadMs = performance.now() - t0;
    if (loaded.state.docs.size !== index.state.docs.size) throw new Error('reloaded index differs');
    const queries = Array.from({ length: 100 }, (_, i) => {
      const words = corpus
        .sentence(3 + (i % 3))
        .split(' ')
        .slice(0, 2 + (i % 3));
      return { text: words.join(' '), project: `project-${i % 40}` };
    });
    for (const q of queries.slice(0, 10)) await recall(loaded, q); // warm-up
    const latencies = [];
    let hits = 0;
    for (const q of queries) {
      t0 = performance.now();
      const r = await recall(loaded, { ...q, k: 10, now: Date.UTC(2026, 9, 1) });
      latencies.push(performance.now() - t0);
      hits += r.items.length;
    }
    return {
      size,
      documents: report.documents,
      generateMs,
      floorMs: median(floor),
      coldMs,
      coldSingleMs,
      readWorkers: report.readWorkers ?? 0,
      updateMs: median(updates),
      updateP95Ms: percentile(updates, 95),
      refreshMs,
      refreshRead: incremental.read,
      loadMs,
      recallP50Ms: percentile(latencies, 50),
      recallP95Ms: percentile(latencies, 95),
      meanHits: hits / queries.length,
      indexBytes: await dirSize(index.dir),
      peakRssMB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--size') {
  console.log(JSON.stringify(await measure(Number(process.argv[3]))));
} else {
  const results = [];
  for (const size of SIZES) {
    const child = spawnSync(
      process.execPath,
      ['--max-old-space-size=8192', fileURLToPath(import.meta.url), '--size', String(size)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (child.status !== 0) throw new Error(`size ${size} failed (exit ${child.status})`);
    results.push(JSON.parse(child.stdout.trim().split('\n').pop()));
  }
  const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
  for (const r of results) {
    console.log(`recall benchmark, ${r.size} notes (${r.documents} documents incl. episodes)`);
    console.log(`  read every note (floor)        ${fmtMs(r.floorMs)}`);
    console.log(
      `  cold index build               ${fmtMs(r.coldMs)}   cold / floor ${ratio(r.coldMs, r.floorMs)}  (goal ≤ 3; ${r.readWorkers} read workers)`,
    );
    console.log(
      `  cold build on one thread       ${fmtMs(r.coldSingleMs)}   cold / floor ${ratio(r.coldSingleMs, r.floorMs)}`,
    );
    console.log(
      `  update after one note changes  ${fmtMs(r.updateMs)} median, ${fmtMs(r.updateP95Ms)} p95  (goal ≤ 10 ms)`,
    );
    console.log(`  incremental refresh (walk all) ${fmtMs(r.refreshMs)}   re-read ${r.refreshRead} file(s)`);
    console.log(`  open built index from disk     ${fmtMs(r.loadMs)}`);
    console.log(
      `  recall p50 / p95 (100 queries) ${fmtMs(r.recallP50Ms)} / ${fmtMs(r.recallP95Ms)}  (goal p50 ≤ ${r.size <= 10_000 ? 10 : 50} ms; ${r.meanHits.toFixed(1)} results each)`,
    );
    console.log(`  index on disk / peak RSS       ${mb(r.indexBytes)} / ${r.peakRssMB.toFixed(0)} MB`);
  }
  if (results.length >= 2) {
    const [a, b] = [results[0], results[results.length - 1]];
    const n = b.size / a.size;
    console.log(
      `growth ${a.size} → ${b.size} notes (×${n}): floor ×${ratio(b.floorMs, a.floorMs)}, cold ×${ratio(b.coldMs, a.coldMs)}, ` +
        `update ×${ratio(b.updateMs, a.updateMs)}, recall p50 ×${ratio(b.recallP50Ms, a.recallP50Ms)}, index ×${ratio(b.indexBytes, a.indexBytes)}, RSS ×${ratio(b.peakRssMB, a.peakRssMB)}  (goal ≤ ×${n})`,
    );
  }
  console.log(JSON.stringify(results));
}
