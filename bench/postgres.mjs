#!/usr/bin/env node
// Postgres backend benchmark (issue 22), in one run beside the vault backend on the same machine, so the
// ratios hold when absolute times drift (this machine is shared): every throughput figure is the median of
// BENCH_ROUNDS (default 3) rounds in which the vault and postgres alternate.
//   save:    new 2 KB notes per second, 1 writer and 8 writer processes
//   CAS:     read–increment–CAS cycles per second (a lost race retried from a fresh read), 1 and 8
//            processes, each on its own note (a team's agents updating their notes: the goal's row) and
//            all on one shared note (every write serialised); the lost updates of both (the counters
//            against the cycles acknowledged; must be 0)
//   claim:   plan steps claimed, "run" and recorded per second by 1 and 8 reconciler processes
//   recall:  a store of BENCH_NOTES notes (default 100 000), indexed; then one note changed by another
//            writer and the index refreshed: from the database's change cursor vs a walk of the vault
//            (median of 5), and recall after it
// Goals: 8-writer CAS on postgres ≥ the vault's; a cursor refresh after one change ≤ 50 ms at 100 000.
// Nothing is fitted (no parameter is tuned to these numbers), so there is no dev/test split; the sanity
// rows check that both stores hold and find the same notes.
// The server: AGENTM_TEST_PG_URL when set, else a throw-away cluster (test/postgres/cluster.mjs).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Workspace } from '@agentm/core';
import { MemoryIndex, noteToDocument, recall } from '@agentm/core/memory';
import { PostgresBackend, VaultBackend } from '@agentm/core/backends';
import { splitPassword, startCluster } from '../test/postgres/cluster.mjs';
import { writeVault } from './lib/corpus.mjs';
import { fmtMs, median, ratio } from './lib/stats.mjs';

const NOTES = Number(process.env.BENCH_NOTES ?? 100_000);
const WORKER = fileURLToPath(new URL('./postgres-worker.mjs', import.meta.url));
const READ_WORKER = fileURLToPath(new URL('../packages/core/dist/memory/indexing/read-worker.js', import.meta.url));

const dir = await mkdtemp(join(tmpdir(), 'agentm-pg-bench-'));
const cluster = process.env.AGENTM_TEST_PG_URL ? undefined : await startCluster();
const admin = process.env.AGENTM_TEST_PG_URL ?? cluster.adminUrl;
const { url: serverUrl, password } = splitPassword(admin);
process.env.PGPASSWORD = password; // the workers and the backends below read it; never in a URL
const dbUrl = (() => {
  const u = new URL(serverUrl);
  u.pathname = `/agentm_bench_${process.pid}`;
  return u.toString();
})();
let schemas = 0;
const pgStore = () => ({ kind: 'postgres', url: dbUrl, schema: `bench_${++schemas}` });
const vaultStore = () => ({
  kind: 'vault',
  root: join(dir, `vault-${++schemas}`, 'Agent'),
  lockRoot: join(dir, 'locks'),
});

async function sql(database, text) {
  const client = new pg.Client({ connectionString: admin.replace(/\/[^/]*$/, `/${database}`) });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** `writers` worker processes of `role` on `store`, started together; operations per second overall. */
function runWorkers(role, store, writers, countEach, { prepare } = {}) {
  const children = Array.from({ length: writers }, (_, w) => {
    const child = spawn(process.execPath, [WORKER, role, JSON.stringify(store), String(countEach), String(w)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    const ready = new Promise((resolve) =>
      child.stdout.on('data', (c) => {
        out += c;
        if (out.includes('ready\n')) resolve();
      }),
    );
    const done = new Promise((resolve, reject) =>
      child.on('close', (code) =>
        code === 0 ? resolve(JSON.parse(out.split('\n')[1])) : reject(new Error(`${role} worker exited ${code}`)),
      ),
    );
    return { child, ready, done };
  });
  return Promise.all(children.map((c) => c.ready)).then(async () => {
    await prepare?.();
    for (const c of children) c.child.stdin.write('go\n');
    const results = await Promise.all(children.map((c) => c.done));
    const seconds = (Math.max(...results.map((r) => r.end)) - Math.min(...results.map((r) => r.start))) / 1000;
    const total = results.reduce((s, r) => s + r.done, 0);
    return { total, perSecond: total / seconds };
  });
}

function open(store) {
  return store.kind === 'vault'
    ? new VaultBackend({ root: store.root, lockRoot: store.lockRoot })
    : new PostgresBackend({ url: store.url, schema: store.schema });
}

/** Words no generated note has: each changed note is the one answer to its query. */
const WORDS = ['numbat', 'dugong', 'tuatara', 'axolotl', 'quoll'];
const rows = [];
/** A result row, also told on stderr at once (the table comes at the end; a long run shows its progress). */
const push = (r) => {
  rows.push(r);
  process.stderr.write(`${r.filter((c) => c !== '').join(' | ')}\n`);
};
const row = (what, vault, postgres, unit, goal = '') =>
  push([what, `${vault.toFixed(1)} ${unit}`, `${postgres.toFixed(1)} ${unit}`, `${ratio(postgres, vault)}×`, goal]);

/** Rounds per figure: vault and postgres alternate, and each figure is the median of its rounds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function throughput(name, role, counts, setUp) {
  for (const [writers, each] of counts) {
    const result = { vault: [], postgres: [] };
    const lost = { vault: 0, postgres: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      for (const make of [vaultStore, pgStore]) {
        const store = make();
        const backend = open(store);
        await setUp?.(backend);
        const r = await runWorkers(role, store, writers, each);
        result[store.kind].push(r.perSecond);
        if (role === 'own' || role === 'shared') {
          let value = 0;
          for (let w = 0; w < (role === 'own' ? writers : 1); w++)
            value += Number.parseInt(
              await backend.read(backend.resolve('bench', role === 'own' ? `counter-${w}.md` : 'counter.md')),
              10,
            );
          lost[store.kind] += r.total - value;
        }
        await backend.close?.();
      }
    }
    const goal = role === 'own' && writers === 8 ? 'goal ≥ 1×' : '';
    row(`${name}, ${writers} writer(s)`, median(result.vault), median(result.postgres), '/s', goal);
    if (role === 'own' || role === 'shared')
      push([`  lost updates (vault, postgres)`, '', '', `${lost.vault}, ${lost.postgres}`, 'must be 0, 0']);
  }
}

const planText = (steps) =>
  `---\ngoal: bench\nbudget:\n  steps: ${steps * 2}\n---\n${Array.from({ length: steps }, (_, i) => `- [ ] step ${i} [id:: s${i}]\n`).join('')}`;

/** An index over `backend`, built, then `times` one-note changes by another writer each followed by a timed refresh. */
async function refreshAfterOneChange(backend, writer, times, indexDir) {
  const index = await MemoryIndex.open({
    backend,
    toDocument: noteToDocument,
    indexRoot: indexDir,
    lockRoot: join(dir, 'locks'),
    workerScript: READ_WORKER,
  });
  const t0 = performance.now();
  const built = await index.refresh();
  const build = performance.now() - t0;
  const refreshes = [];
  for (let i = 0; i < times; i++) {
    const body = `---\ntype: fix\nstatus: active\n---\n\n# ${WORDS[i]}\n\n${WORDS[i]} quokka changed note\n`;
    await writer.write(writer.resolve('memory', 'fix', `changed-${i}.md`), body);
    const t = performance.now();
    const report = await index.refresh();
    refreshes.push(performance.now() - t);
    if (report.indexed !== 1) throw new Error(`a refresh after one change indexed ${report.indexed} notes`);
  }
  const recalls = [];
  let found = 0;
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    const result = await recall(index, { text: `${WORDS[i % times]} quokka`, k: 10 });
    recalls.push(performance.now() - t);
    if (result.items[0]?.locator === `memory/fix/changed-${i % times}.md`) found++;
  }
  return { build, documents: built.documents, refresh: median(refreshes), recall: median(recalls), found };
}

try {
  await sql('postgres', `CREATE DATABASE agentm_bench_${process.pid}`);
  const started = performance.now();
  await throughput('save', 'save', [
    [1, 300],
    [8, 100],
  ]);
  await throughput('CAS update, own note', 'own', [
    [1, 300],
    [8, 100],
  ]);
  await throughput('CAS update, one shared note', 'shared', [
    [1, 300],
    [8, 60],
  ]);
  await throughput(
    'claim (claim, run, record)',
    'claim',
    [
      [1, 0],
      [8, 0],
    ],
    (backend) => backend.write(backend.resolve('bench', 'PLAN.md'), planText(60)),
  );

  // Recall over a big store: the same generated notes in a vault and (imported) in postgres.
  const vault = vaultStore();
  writeVault(vault.root, NOTES, 42);
  const vaultBackend = open(vault);
  const pgBackend = open(pgStore());
  const ws = await Workspace.open({ backend: pgBackend });
  const t0 = performance.now();
  const imported = await ws.importFrom(vault.root);
  const importMs = performance.now() - t0;
  const pgWriter = open({ ...pgStore(), schema: pgBackend.settings.schema });
  const viaWalk = await refreshAfterOneChange(vaultBackend, vaultBackend, 5, join(dir, 'index-vault'));
  const viaCursor = await refreshAfterOneChange(pgBackend, pgWriter, 5, join(dir, 'index-pg'));
  push(['index build', fmtMs(viaWalk.build), fmtMs(viaCursor.build), `${ratio(viaCursor.build, viaWalk.build)}×`, '']);
  push([
    `refresh after one change, ${NOTES} notes`,
    `${fmtMs(viaWalk.refresh)} (walk)`,
    `${fmtMs(viaCursor.refresh)} (cursor)`,
    `${ratio(viaCursor.refresh, viaWalk.refresh)}×`,
    `goal ≤ 50 ms: ${viaCursor.refresh <= 50 ? 'met' : 'MISSED'}`,
  ]);
  push([
    'recall after it, p50',
    fmtMs(viaWalk.recall),
    fmtMs(viaCursor.recall),
    `${ratio(viaCursor.recall, viaWalk.recall)}×`,
    '',
  ]);
  push(['  sanity: documents indexed', `${viaWalk.documents}`, `${viaCursor.documents}`, '', 'equal']);
  push(['  sanity: changed note ranked first (of 20)', `${viaWalk.found}`, `${viaCursor.found}`, '', '20 each']);
  push([
    `  import of the vault (${imported.copied} files)`,
    '',
    `${(imported.copied / (importMs / 1000)).toFixed(0)} files/s`,
    '',
    '',
  ]);
  for (const b of [vaultBackend, pgBackend, pgWriter]) await b.close?.();

  const widths = [0, 1, 2, 3, 4].map((i) =>
    Math.max(...[['', 'vault', 'postgres', 'pg/vault', ''], ...rows].map((r) => String(r[i]).length)),
  );
  console.log(['', 'vault', 'postgres', 'pg/vault', ''].map((c, i) => c.padEnd(widths[i])).join('  '));
  for (const r of rows) console.log(r.map((c, i) => String(c).padEnd(widths[i])).join('  '));
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  await sql('postgres', `DROP DATABASE IF EXISTS agentm_bench_${process.pid} WITH (FORCE)`).catch(() => undefined);
  cluster?.stop();
  await rm(dir, { recursive: true, force: true });
}
