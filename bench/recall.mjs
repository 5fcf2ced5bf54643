#!/usr/bin/env node
// Recall benchmark (issues 4 and 14): AgentM's memory index against its engine peer, SQLite FTS5
// (better-sqlite3), in one run over the same generated vault, with the real note mapper. Per size, each
// job in a child process of its own (bench/lib/recall-roles.mjs), the builds alternating:
//   floor:    list every directory and read every note through the backend, median of 3
//   FTS5:     build reading the same files (median of the runs); bm25 query over the same queries
//   AgentM:   a session — cold build (read workers), 40 one-note updates, an incremental refresh that
//             walks everything, 100 recalls of 2–4 words, k = 10, project-scoped (median of the runs;
//             peak RSS is the largest session's); the cold build on one thread; a new process opening
//             the index the session left (snapshot + journal) and recalling
// Goals (issue 14): cold ≤ 1.0× FTS5's build and ≤ 2× the floor at every size; update p95 ≤ 10 ms at
// 100 000 notes; peak RSS ≤ 600 MB at 100 000 and growing no faster than the notes; recall p50 ≥ 10×
// faster than FTS5's query. BENCH_SIZES=10000,100000 (default); BENCH_RUNS (default 3 up to 20 000, else 2).
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeVault } from './lib/corpus.mjs';
import { runRole } from './lib/recall-roles.mjs';
import { fmtMs, median, percentile, ratio } from './lib/stats.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);

function child(role, dir) {
  const run = spawnSync(
    process.execPath,
    ['--max-old-space-size=8192', fileURLToPath(import.meta.url), '--role', role, dir],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 },
  );
  if (run.status !== 0) throw new Error(`${role} failed (exit ${run.status})`);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}

/** The notes to change and the queries, written for the children (the vault's own words). */
function plan(corpus) {
  const updates = Array.from({ length: 40 }, (_, i) => [
    corpus.keys[(i * 7919) % corpus.keys.length],
    `---\ntype: fix\nstatus: active\n---\n\n# edited ${i}\n\n${corpus.sentence(150)}\n`,
  ]);
  const queries = Array.from({ length: 100 }, (_, i) => ({
    text: corpus
      .sentence(3 + (i % 3))
      .split(' ')
      .slice(0, 2 + (i % 3))
      .join(' '),
    project: `project-${i % 40}`,
  }));
  return { updates, queries };
}

async function measure(size) {
  const dir = await mkdtemp(join(tmpdir(), 'agentm-recall-bench-'));
  try {
    const corpus = writeVault(join(dir, 'vault'), size, 42);
    await writeFile(join(dir, 'plan.json'), JSON.stringify(plan(corpus)));
    const floor = child('floor', dir);
    const runs = Number(process.env.BENCH_RUNS ?? (size <= 20_000 ? 3 : 2));
    const fts = [];
    const sessions = [];
    for (let i = 0; i < runs; i++) {
      // Alternating, so that a change in the machine's load falls on both engines alike.
      fts.push(child('ftsBuild', dir));
      sessions.push(child('agentm', dir));
    }
    const last = sessions[sessions.length - 1];
    return {
      size,
      documents: last.documents,
      floorMs: median(floor.runs),
      coldMs: median(sessions.map((s) => s.coldMs)),
      coldRuns: sessions.map((s) => Math.round(s.coldMs)),
      ftsBuildMs: median(fts.map((f) => f.ms)),
      ftsRuns: fts.map((f) => Math.round(f.ms)),
      ftsPeakMB: Math.max(...fts.map((f) => f.peakMB)),
      coldSingleMs: child('agentmSingle', dir).ms,
      readWorkers: last.readWorkers,
      updateMs: median(sessions.flatMap((s) => s.updateMs)),
      updateP95Ms: percentile(
        sessions.flatMap((s) => s.updateMs),
        95,
      ),
      refreshMs: last.refreshMs,
      refreshRead: last.refreshRead,
      recallP50Ms: percentile(last.times, 50),
      recallP95Ms: percentile(last.times, 95),
      peakMB: Math.max(...sessions.map((s) => s.peakMB)),
      indexBytes: last.indexBytes,
      open: child('agentmOpen', dir),
      ftsQuery: child('ftsQuery', dir),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const goal = (ok) => (ok ? 'met' : 'MISSED');

function report(r) {
  const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
  const ftsP50 = percentile(r.ftsQuery.times, 50);
  const openP50 = percentile(r.open.times, 50);
  const big = r.size >= 100_000;
  console.log(`recall benchmark, ${r.size} notes (${r.documents} documents incl. episodes)`);
  console.log(`  read every note (floor)          ${fmtMs(r.floorMs)}`);
  console.log(`  SQLite FTS5 build (same files)   ${fmtMs(r.ftsBuildMs)}   runs ${r.ftsRuns.join(', ')} ms`);
  console.log(
    `  AgentM cold build                ${fmtMs(r.coldMs)}   runs ${r.coldRuns.join(', ')} ms; ${r.readWorkers} read workers`,
  );
  console.log(
    `    ÷ FTS5 build                   ${ratio(r.coldMs, r.ftsBuildMs)}   goal ≤ 1.0: ${goal(r.coldMs <= r.ftsBuildMs)}`,
  );
  console.log(
    `    ÷ floor                        ${ratio(r.coldMs, r.floorMs)}   goal ≤ 2: ${goal(r.coldMs <= 2 * r.floorMs)}`,
  );
  console.log(
    `  cold build on one thread         ${fmtMs(r.coldSingleMs)}   ÷ floor ${ratio(r.coldSingleMs, r.floorMs)}`,
  );
  console.log(
    `  one-note update                  ${fmtMs(r.updateMs)} median, ${fmtMs(r.updateP95Ms)} p95` +
      (big ? `   goal p95 ≤ 10 ms: ${goal(r.updateP95Ms <= 10)}` : ''),
  );
  console.log(`  incremental refresh (walk all)   ${fmtMs(r.refreshMs)}   re-read ${r.refreshRead} file(s)`);
  console.log(
    `  recall p50 / p95                 ${fmtMs(r.recallP50Ms)} / ${fmtMs(r.recallP95Ms)}   FTS5 bm25 query ${fmtMs(ftsP50)} / ${fmtMs(percentile(r.ftsQuery.times, 95))}`,
  );
  console.log(
    `    FTS5 p50 ÷ AgentM p50          ${ratio(ftsP50, r.recallP50Ms)}×   goal ≥ 10×: ${goal(ftsP50 >= 10 * r.recallP50Ms)}`,
  );
  console.log(
    `  new process: open / first recall ${fmtMs(r.open.openMs)} / ${fmtMs(r.open.firstMs)}   then p50 ${fmtMs(openP50)}; peak RSS ${r.open.peakMB.toFixed(0)} MB`,
  );
  console.log(
    `  index on disk / session peak RSS ${mb(r.indexBytes)} / ${r.peakMB.toFixed(0)} MB (FTS5 build ${r.ftsPeakMB.toFixed(0)} MB)` +
      (big ? `   goal ≤ 600 MB: ${goal(r.peakMB <= 600)}` : ''),
  );
}

if (process.argv[2] === '--role') {
  await runRole(process.argv[3], process.argv[4]);
} else {
  const results = [];
  for (const size of SIZES) {
    results.push(await measure(size));
    report(results[results.length - 1]);
  }
  if (results.length >= 2) {
    const [a, b] = [results[0], results[results.length - 1]];
    const n = b.size / a.size;
    console.log(
      `growth ${a.size} → ${b.size} notes (×${n}): floor ×${ratio(b.floorMs, a.floorMs)}, cold ×${ratio(b.coldMs, a.coldMs)}, ` +
        `FTS5 build ×${ratio(b.ftsBuildMs, a.ftsBuildMs)}, update ×${ratio(b.updateMs, a.updateMs)}, recall p50 ×${ratio(b.recallP50Ms, a.recallP50Ms)}, ` +
        `index ×${ratio(b.indexBytes, a.indexBytes)}, peak RSS ×${ratio(b.peakMB, a.peakMB)}   goal RSS ≤ ×${n}: ${goal(b.peakMB <= n * a.peakMB)}`,
    );
  }
  console.log(JSON.stringify(results));
}
