#!/usr/bin/env node
// Hook-grade latency benchmark (issue 13.4): what a Claude Code prompt hook and a terminal `agentm recall`
// cost end to end — a new process each time, as Claude Code and a shell start them — beside `node -e 0`
// measured in the same run, interleaved, so the machine's load falls on all alike. Per size, over a
// generated vault (bench/lib/corpus.mjs) whose index was built once (`agentm reindex`):
//   node -e 0                       the floor: starting Node itself
//   agentm --help                   start-up of the command line
//   agentm recall <2–4 words>       project-scoped, k = 10
//   agentm hook user-prompt-submit  Claude Code's input on stdin (the prompt: the same words)
// each measured twice: with `agentm mcp` running for the repository (its warm index answers over the
// recall socket: the set-up of a Claude Code session with the AgentM plugin) and without (the process
// opens the index itself and catches up from the store's change log and the folders whose mtime moved;
// a full walk runs detached when one is due, as in a real session). Both must give the same ranking;
// the run checks it.
// Goals (issues 13 and 19): a prompt hook or `agentm recall`, with or without a server, on 10 000 notes
// p50 ≤ 3× `node -e 0`; on 100 000 notes p50 ≤ 300 ms (and ≤ 6× with a server); `agentm --help` ≤ 2×.
// BENCH_SIZES=10000,100000 (default), BENCH_RUNS=15.
// Every process inherits this environment: NODE_EXTRA_CA_CERTS (set on some machines) makes every Node
// start, the baseline's included, tens of milliseconds slower; BENCH_CLEAN_ENV=1 leaves it out.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeVault } from './lib/corpus.mjs';
import { median, percentile, ratio } from './lib/stats.mjs';

const AGENTM = fileURLToPath(new URL('../packages/core/bin/agentm.js', import.meta.url));
const PAYLOAD = fileURLToPath(new URL('../test/fixtures/claude-code/user-prompt-submit.json', import.meta.url));
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const PROJECT = 'project-1';

/** This process's environment without AgentM's own variables, plus the world's. */
function worldEnv(world) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('AGENTM_') && !(process.env.BENCH_CLEAN_ENV && k === 'NODE_EXTRA_CA_CERTS'),
    ),
  );
  return {
    ...env,
    HOME: world.home,
    XDG_CACHE_HOME: join(world.home, '.cache'),
    AGENTM_DEVICE_LOCAL_ROOT: world.vault,
    // Roomy, so that every hook run answers whole and its time is the work's, not the budget's.
    AGENTM_HOOK_BUDGET_MS: '60000',
  };
}

function run(world, argv, input) {
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), {
    cwd: world.repo,
    env: worldEnv(world),
    input: input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0 && !(argv.includes('recall') && r.status === 1))
    throw new Error(`${argv.slice(1).join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** The ranking an answer gives (paths in order), recall's JSON or the hook's context. */
function ranking(stdout) {
  // The prompt hook prints nothing when no memory clears its relevance floor: an empty answer.
  if (stdout.trim() === '') return [];
  if (stdout.includes('hookSpecificOutput'))
    return [...JSON.parse(stdout).hookSpecificOutput.additionalContext.matchAll(/ — (\S+\.md)/g)].map((m) => m[1]);
  return JSON.parse(stdout).items.map((i) => i.locator);
}

async function startServer(world) {
  const child = spawn(process.execPath, [AGENTM, 'mcp'], {
    cwd: world.repo,
    env: worldEnv(world),
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const runDir = join(world.home, '.cache', 'agentm', 'run');
  const deadline = Date.now() + 600_000;
  while (!(stderr.includes('memory index ready') && existsSync(runDir) && readdirSync(runDir).length > 0)) {
    if (child.exitCode !== null) throw new Error(`agentm mcp exited ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline || stderr.includes('recall server off'))
      throw new Error(`agentm mcp not ready: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.stdin.end();
      }),
  };
}

async function measure(size) {
  const dir = await mkdtemp(join(tmpdir(), 'agentm-hook-bench-'));
  try {
    const world = { home: join(dir, 'home'), vault: join(dir, 'vault'), repo: join(dir, 'repo') };
    const corpus = writeVault(world.vault, size, 42);
    await mkdir(join(world.repo, '.harness'), { recursive: true });
    await mkdir(world.home, { recursive: true });
    await writeFile(join(world.repo, '.harness', 'project.json'), JSON.stringify({ vault_project: PROJECT }));
    const reindex = run(world, [process.execPath, AGENTM, 'reindex']);
    const template = await readFile(PAYLOAD, 'utf8');
    const queries = Array.from({ length: RUNS }, (_, i) =>
      corpus
        .sentence(4)
        .split(' ')
        .slice(0, 2 + (i % 3))
        .join(' '),
    );
    const payload = (prompt) =>
      template
        .replaceAll('__REPO__', JSON.stringify(world.repo).slice(1, -1))
        .replaceAll('__HOME__', JSON.stringify(world.home).slice(1, -1))
        .replaceAll('__PROMPT__', JSON.stringify(prompt).slice(1, -1));
    const jobs = {
      node: () => run(world, [process.execPath, '-e', '0']),
      help: () => run(world, [process.execPath, AGENTM, '--help']),
      recall: (q) => run(world, [process.execPath, AGENTM, 'recall', q, '--project', PROJECT, '--json']),
      hook: (q) => run(world, [process.execPath, AGENTM, 'hook', 'user-prompt-submit'], payload(q)),
    };
    const round = (names) => {
      const times = Object.fromEntries(names.map((n) => [n, []]));
      const answers = { recall: [], hook: [] };
      for (let i = 0; i < RUNS; i++)
        for (const name of names) {
          const r = jobs[name](queries[i]);
          times[name].push(r.ms);
          if (name in answers) answers[name].push(ranking(r.stdout));
        }
      return { times, answers };
    };
    const alone = round(['node', 'help', 'recall', 'hook']);
    const server = await startServer(world);
    let served;
    try {
      served = round(['node', 'help', 'recall', 'hook']);
    } finally {
      await server.stop();
    }
    const same =
      JSON.stringify(alone.answers.recall) === JSON.stringify(served.answers.recall) &&
      JSON.stringify(alone.answers.hook) === JSON.stringify(served.answers.hook);
    const nonEmpty = served.answers.hook.filter((a) => a.length > 0).length;
    return { size, reindexMs: reindex.ms, alone: alone.times, served: served.times, same, nonEmpty };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const results = [];
console.log(
  `environment: NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS && !process.env.BENCH_CLEAN_ENV ? 'set (every Node start loads it)' : 'not set'}`,
);
for (const size of SIZES) {
  const r = await measure(size);
  results.push(r);
  const floor = median([...r.alone.node, ...r.served.node]);
  const line = (label, times, goal) => {
    const p50 = median(times);
    const x = ratio(p50, floor);
    return `  ${label.padEnd(38)} p50 ${p50.toFixed(0).padStart(5)} ms  p95 ${percentile(times, 95).toFixed(0).padStart(5)} ms  ${String(x).padStart(5)}× node${goal ? `   ${goal(p50, x)}` : ''}`;
  };
  const mark = (ok) => (ok ? 'met' : 'MISSED');
  const hookGoal =
    size <= 10_000
      ? (_p50, x) => `goal ≤ 3×: ${mark(x <= 3)}`
      : (p50, x) => `goal ≤ 300 ms and ≤ 6×: ${mark(p50 <= 300 && x <= 6)}`;
  const aloneGoal =
    size <= 10_000 ? (_p50, x) => `goal ≤ 3×: ${mark(x <= 3)}` : (p50) => `goal ≤ 300 ms: ${mark(p50 <= 300)}`;
  console.log(
    `hook latency, ${size} notes (index built in ${(r.reindexMs / 1000).toFixed(1)} s), ${RUNS} runs each, interleaved`,
  );
  console.log(line('node -e 0', [...r.alone.node, ...r.served.node]));
  console.log(line('agentm --help', [...r.alone.help, ...r.served.help], (_p, x) => `goal ≤ 2×: ${mark(x <= 2)}`));
  console.log(line('agentm recall, agentm mcp running', r.served.recall, hookGoal));
  console.log(line('prompt hook, agentm mcp running', r.served.hook, hookGoal));
  console.log(line('agentm recall, no server', r.alone.recall, aloneGoal));
  console.log(line('prompt hook, no server', r.alone.hook, aloneGoal));
  console.log(
    `  same rankings with and without the server: ${r.same ? 'yes' : 'NO'}; hook answers with memories: ${r.nonEmpty}/${RUNS}`,
  );
}
console.log(
  JSON.stringify(
    results.map((r) => ({
      size: r.size,
      reindexMs: Math.round(r.reindexMs),
      same: r.same,
      p50: Object.fromEntries(
        ['alone', 'served'].flatMap((m) =>
          Object.entries(r[m]).map(([name, times]) => [`${m}.${name}`, Math.round(median(times))]),
        ),
      ),
    })),
  ),
);
