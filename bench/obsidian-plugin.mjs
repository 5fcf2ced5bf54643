#!/usr/bin/env node
// The Obsidian plugin's costs (issue 23 §4), measured in the shared fake of Obsidian
// (packages/obsidian-plugin/test/fake-obsidian: a real directory, happy-dom), each beside its baseline in the
// same run:
//   main.js            size and load time (read + compile + run the CommonJS module + the plugin's onload) of
//                      the production build (minified) against the same sources unminified, as shipped
//                      before, and (BENCH_BASELINE_REV=<rev>) the unminified main.js of that revision;
//                      each load a new process, interleaved, BENCH_RUNS (default 15) each
//   conflict index     on a vault of BENCH_FILES (default 10 000) notes: what a vault event costs now (the
//                      event's folder re-read) against a full rescan (what every event cost before), and how
//                      many rebuilds 100 agent writes (`modify`) cause now (before: one per write)
//   lock indicator     what it does while nobody holds the lock (before: a look every 2 s), and while an
//                      agent takes and releases it
// Sanity rows: the index after the updates equals a full scan; both builds register every command.
// The fake and the plugin's sources are bundled with esbuild into node_modules/.cache (the fake's `obsidian`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmtMs, median, ratio } from './lib/stats.mjs';

const PLUGIN = fileURLToPath(new URL('../packages/obsidian-plugin/', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const CACHE = join(PLUGIN, 'node_modules', '.cache', 'agentm-bench');
const HARNESS = join(CACHE, 'harness.mjs');
/** A git revision whose main.js is measured too (e.g. the one before the minified build). */
const BASELINE = process.env.BENCH_BASELINE_REV;

const [mode, ...args] = process.argv.slice(2);
if (mode === '--load') await loadOnce(args[0]);
else await main();

/** Bundles the fake `obsidian` (its test aids included) and the plugin's sources, for plain Node. */
async function bundleHarness() {
  const { build } = createRequire(join(PLUGIN, 'package.json'))('esbuild');
  await mkdir(CACHE, { recursive: true });
  await build({
    stdin: {
      contents: [
        "export * from './test/fake-obsidian/testing.ts';",
        "export * as obsidian from './test/fake-obsidian/index.ts';",
        "export { default as AgentMPlugin } from './src/main.ts';",
        "export { findVaultConflicts } from './src/conflicts/classify.ts';",
      ].join('\n'),
      resolveDir: PLUGIN,
      loader: 'ts',
      sourcefile: 'bench-harness.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'es2022',
    outfile: HARNESS,
    alias: { obsidian: join(PLUGIN, 'test', 'fake-obsidian', 'index.ts') },
    external: ['happy-dom', 'vitest/runtime'],
    // Bundled CommonJS (yaml) requires Node's builtins: give the ES module a `require` for them.
    banner: {
      js: "import { createRequire as __agentmRequire } from 'node:module'; const require = __agentmRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
}

/** The plugin's main.js built from its sources, minified (production) or not (as shipped before). */
async function buildMain(production, dir) {
  const require = createRequire(join(PLUGIN, 'package.json'));
  const { build } = require('esbuild');
  const { buildOptions } = await import(pathToFileURL(join(PLUGIN, 'build-options.mjs')).href);
  const outfile = join(dir, production ? 'main.min.js' : 'main.js');
  await build({ ...buildOptions({ production }), sourcemap: false, outfile });
  return outfile;
}

/** A private host: temp lock root and cache, nothing of the user's. */
function hostFor(base, overrides = {}) {
  const home = join(base, 'home');
  const cache = join(base, 'cache');
  return {
    hostEnv: { env: { HOME: home, XDG_CACHE_HOME: cache }, home },
    lockRoot: join(cache, 'agentm', 'locks'),
    deviceName: 'bench',
    person: 'bench (Obsidian)',
    lostAndFoundRoots: [],
    now: () => new Date(),
    settleMs: 0,
    lockPollMs: 2_000,
    rescanDebounceMs: 500,
    viewDebounceMs: 400,
    ...overrides,
  };
}

/** Child process: load `mainJs` as Obsidian does and print how long each part took. */
async function loadOnce(mainJs) {
  const h = await import(pathToFileURL(HARNESS).href);
  const base = await mkdtemp(join(tmpdir(), 'agentm-bench-load-'));
  await mkdir(join(base, 'Vault'), { recursive: true });
  const app = h.startApp(join(base, 'Vault'));
  const manifest = JSON.parse(await readFile(join(PLUGIN, 'manifest.json'), 'utf8'));
  const nodeRequire = createRequire(mainJs);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const code = await readFile(mainJs, 'utf8');
  const module = { exports: {} };
  new Function('require', 'module', 'exports', code)(
    (id) => (id === 'obsidian' ? h.obsidian : nodeRequire(id)),
    module,
    module.exports,
  );
  const t1 = performance.now();
  const plugin = await h.loadPlugin(app, module.exports.default, manifest, (p) => (p.host = hostFor(base)));
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const commands = app.commands.commands.size;
  h.unloadPlugin(plugin);
  await rm(base, { recursive: true, force: true });
  const cpuMs = (cpu.user + cpu.system) / 1000;
  process.stdout.write(`${JSON.stringify({ module: t1 - t0, onload: t2 - t1, cpu: cpuMs, commands })}\n`);
}

/**
 * main.js as the plugin and core were at git revision `rev` (unminified, as that revision built it):
 * their sources taken with `git archive` and bundled with core's sources in place of its dist.
 */
async function buildAt(rev, dir) {
  const src = join(CACHE, `rev-${rev}`);
  await rm(src, { recursive: true, force: true });
  await mkdir(src, { recursive: true });
  const archive = spawnSync('git', ['archive', rev, 'packages/core/src', 'packages/obsidian-plugin/src'], {
    cwd: join(PLUGIN, '..', '..'),
    maxBuffer: 1 << 28,
  });
  if (archive.status !== 0) throw new Error(`git archive ${rev} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', src], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  const { build } = createRequire(join(PLUGIN, 'package.json'))('esbuild');
  const { buildOptions } = await import(pathToFileURL(join(PLUGIN, 'build-options.mjs')).href);
  const core = join(src, 'packages', 'core', 'src');
  const outfile = join(dir, `main.${rev}.js`);
  await build({
    ...buildOptions({ production: false }),
    entryPoints: [join(src, 'packages', 'obsidian-plugin', 'src', 'main.ts')],
    sourcemap: false,
    outfile,
    // Core's entries as that revision has them (the subpaths grew; /protocol is /write-protocol's old name).
    alias: Object.fromEntries(
      [
        ['', 'index'],
        ['/protocol', 'write-protocol'],
        ...['write-protocol', 'backends', 'config', 'memory', 'harness', 'providers'].map((e) => [`/${e}`, e]),
      ]
        .filter(([, file]) => existsSync(join(core, `${file}.ts`)))
        .map(([sub, file]) => [`@agentm/core${sub}`, join(core, `${file}.ts`)]),
    ),
    nodePaths: [join(PLUGIN, 'node_modules'), join(PLUGIN, '..', 'core', 'node_modules')],
  });
  return outfile;
}

/** Loads one build in a new process; its timings and the commands it registered. */
function loadSample(mainJs) {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--load', mainJs], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`loading ${mainJs} failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

async function measureBuilds(dir) {
  const builds = [
    ...(BASELINE ? [[`at ${BASELINE} (unminified)`, await buildAt(BASELINE, dir)]] : []),
    ['unminified (before)', await buildMain(false, dir)],
    ['minified (now)', await buildMain(true, dir)],
  ];
  const samples = builds.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    const order = builds.map((_, k) => k);
    if (i % 2 === 1) order.reverse();
    for (const k of order) samples[k].push(loadSample(builds[k][1]));
  }
  const rows = await Promise.all(
    builds.map(async ([name, file], k) => ({
      name,
      size: (await stat(file)).size,
      module: median(samples[k].map((x) => x.module)),
      onload: median(samples[k].map((x) => x.onload)),
      total: median(samples[k].map((x) => x.module + x.onload)),
      cpu: median(samples[k].map((x) => x.cpu)),
      commands: samples[k][0].commands,
    })),
  );
  console.log(`\nmain.js (${RUNS} loads each, a new process each, interleaved)`);
  console.log('(wall times, and the CPU time of both together, which other processes on the machine disturb less)');
  console.log('build                        size        module     onload     module+onload  cpu        commands');
  for (const r of rows)
    console.log(
      `${r.name.padEnd(28)} ${`${(r.size / 1024).toFixed(0)} KB`.padEnd(11)} ${fmtMs(r.module).padEnd(10)} ${fmtMs(r.onload).padEnd(10)} ${fmtMs(r.total).padEnd(14)} ${fmtMs(r.cpu).padEnd(10)} ${r.commands}`,
    );
  const now = rows.at(-1);
  for (const base of rows.slice(0, -1))
    console.log(
      `ratios now/${base.name}: size ${ratio(now.size, base.size)}, module ${ratio(now.module, base.module)}, onload ${ratio(now.onload, base.onload)}, total ${ratio(now.total, base.total)}, cpu ${ratio(now.cpu, base.cpu)}`,
    );
}

/** Writes `count` notes in folders of 100, plus a few conflict copies. */
async function writeVault(dir, count) {
  const folders = Math.ceil(count / 100);
  for (let f = 0; f < folders; f++) {
    await mkdir(join(dir, `area-${f}`), { recursive: true });
    const writes = [];
    for (let n = 0; n < 100 && f * 100 + n < count; n++)
      writes.push(writeFile(join(dir, `area-${f}`, `note-${n}.md`), `note ${f}/${n}\n`));
    await Promise.all(writes);
  }
  for (let f = 0; f < 5; f++)
    await writeFile(join(dir, `area-${f}`, 'note-1 (conflicted copy 2026-01-02).md'), 'theirs\n');
}

async function measureVault(h) {
  const base = await mkdtemp(join(tmpdir(), 'agentm-bench-vault-'));
  const dir = join(base, 'Vault');
  await mkdir(dir, { recursive: true });
  await writeVault(dir, FILES);
  const app = h.startApp(dir);
  const manifest = JSON.parse(await readFile(join(PLUGIN, 'manifest.json'), 'utf8'));
  const plugin = await h.loadPlugin(
    app,
    h.AgentMPlugin,
    manifest,
    (p) => (p.host = hostFor(base, { rescanDebounceMs: 0 })),
  );
  await h.finishStartup(app);
  await plugin.whenStarted();
  const index = plugin.conflicts;
  const changed = () =>
    new Promise((resolve) =>
      index.on('changed', function once() {
        index.off('changed', once);
        resolve();
      }),
    );

  // Each measured in a loop of its own, so one's garbage is not collected during the other.
  const full = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await index.refresh();
    full.push(performance.now() - t);
  }
  const event = [];
  const floor = [];
  for (let i = 0; i < RUNS; i++) {
    const file = app.vault.getFileByPath(`area-${i % 100}/note-${i % 100}.md`);
    const done = changed();
    let t = performance.now();
    app.vault.trigger('create', file); // what the watcher fires for a new file
    await done;
    event.push(performance.now() - t);
    t = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 0)); // the debounce's own timer, for scale
    floor.push(performance.now() - t);
  }
  let rebuilds = 0;
  const count = () => rebuilds++;
  index.on('changed', count);
  const progress = app.vault.getFileByPath('area-0/note-0.md');
  for (let i = 0; i < 100; i++) app.vault.trigger('modify', progress);
  await new Promise((resolve) => setTimeout(resolve, 50));
  index.off('changed', count);
  const scanned = h
    .findVaultConflicts(app.vault.getFiles().map((f) => f.path))
    .map((c) => c.copyPath)
    .sort();
  const listed = index
    .entries()
    .map((e) => e.copyPath)
    .sort();

  console.log(`\nconflict index, ${FILES} notes in ${Math.ceil(FILES / 100)} folders (${RUNS} runs)`);
  console.log(`a vault event before (full rescan)   ${fmtMs(median(full))}`);
  console.log(
    `a vault event now (its folder)       ${fmtMs(median(event))}   ratio now/before ${ratio(median(event), median(full))}`,
  );
  console.log(
    `100 agent writes (modify): rebuilds before 100 (one per write outside a 500 ms window), now ${rebuilds}`,
  );
  console.log(
    `sanity: index equals a full scan: ${JSON.stringify(listed) === JSON.stringify(scanned)} (${listed.length} copies)`,
  );

  // The lock, while nobody holds it and while an agent takes it (a real process).
  const indicator = plugin.lockIndicator;
  const idleFrom = indicator.following.looks;
  const idleMs = 6_000;
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const idle = indicator.following.looks - idleFrom;
  const look = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await indicator.refresh();
    look.push(performance.now() - t);
  }
  const { acquire } = await import('@agentm/core/write-protocol').then((m) => ({ acquire: m.withVaultLock }));
  const busyFrom = indicator.following.looks;
  for (let i = 0; i < 10; i++)
    await acquire(dir, async () => new Promise((resolve) => setTimeout(resolve, 20)), {
      lockRoot: hostFor(base).lockRoot,
    });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const busy = indicator.following.looks - busyFrom;
  console.log(`\nlock indicator (following the lock by ${indicator.following.by})`);
  console.log(`one look at the lock                ${fmtMs(median(look))}`);
  console.log(
    `looks while nobody holds it, per minute: before 30 (a 2 s poll), now ${Math.round((idle * 60_000) / idleMs)}`,
  );
  console.log(`looks for 10 takes and releases of the lock: ${busy}`);
  h.unloadPlugin(plugin);
  await rm(base, { recursive: true, force: true });
}

async function main() {
  await bundleHarness();
  const dir = await mkdtemp(join(tmpdir(), 'agentm-bench-builds-'));
  try {
    await measureBuilds(dir);
    const h = await import(pathToFileURL(HARNESS).href);
    await measureVault(h);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(CACHE, { recursive: true, force: true });
  }
}
