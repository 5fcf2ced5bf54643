#!/usr/bin/env node
// What the Claude Code plugin's launcher (plugins/claude-code/scripts/agentm.mjs) costs a prompt hook, end
// to end, a new process each time as Claude Code starts it, interleaved with `node -e 0` in the same run:
//   node -e 0                         the floor: starting Node
//   agentm hook user-prompt-submit    @agentm/cli installed from its packed tarball, run directly
//   launcher, agentm installed        the plugin's hook with that agentm on PATH (imported in-process)
//   launcher, no agentm (npx)         the plugin's hook with no agentm: npx --prefer-offline, package cached
// The npm registry is a server on 127.0.0.1 serving the same tarball (npx resolves it once, before timing).
// Every run must give the same answer; the script checks it. BENCH_RUNS=15 (default). Needs the build.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmEnv, packCli } from '../scripts/release/cli-tarball.mjs';
import { startRegistry } from '../test/helpers/npm-registry.mjs';
import { median, percentile, ratio } from './lib/stats.mjs';

const LAUNCHER = fileURLToPath(new URL('../plugins/claude-code/scripts/agentm.mjs', import.meta.url));
const PAYLOAD = fileURLToPath(new URL('../test/fixtures/claude-code/user-prompt-submit.json', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const PROMPT = 'why does the vault lock time out on a slow disk';

async function world(root) {
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  const memory = join(root, 'memory');
  await mkdir(join(repo, '.harness'), { recursive: true });
  await writeFile(join(repo, '.harness', 'project.json'), '{"vault_project": "bench"}');
  for (let i = 0; i < 200; i++) {
    const dir = join(memory, 'memory', i % 2 ? 'fix' : 'convention');
    await mkdir(dir, { recursive: true });
    const topic = ['vault lock timeout', 'slow disk fsync', 'sync conflict copy', 'plan step retry'][i % 4];
    await writeFile(
      join(dir, `note-${i}.md`),
      `---\ntype: fix\nstatus: active\n---\n\n# Note ${i}\n\nAbout the ${topic}.\n`,
    );
  }
  await mkdir(home);
  const payload = (await readFile(PAYLOAD, 'utf8'))
    .replaceAll('__REPO__', repo)
    .replaceAll('__HOME__', home)
    .replaceAll('__PROMPT__', PROMPT);
  return { home, repo, memory, payload };
}

const w = await world(await mkdtemp(join(tmpdir(), 'agentm-bench-launcher-')));
const root = dirname(w.home);
try {
  const packed = packCli(join(root, 'pack'));
  const prefix = join(root, 'prefix');
  const installed = spawnSync('npm', ['install', '--global', packed.tarball, '--offline'], {
    env: npmEnv({ HOME: w.home, npm_config_prefix: prefix }),
    encoding: 'utf8',
  });
  if (installed.status !== 0) throw new Error(`npm install -g failed: ${installed.stderr}`);
  const registry = await startRegistry(packed.tarball, packed.manifest);
  const basePath = [dirname(process.execPath), ...(process.env.PATH ?? '').split(':')]
    .filter((p) => p && !p.includes('node_modules/.bin'))
    .join(':');
  const env = (path) => ({
    ...npmEnv(),
    PATH: path,
    HOME: w.home,
    XDG_CACHE_HOME: join(w.home, '.cache'),
    MEMORY_VAULT_PATH: w.memory,
    AGENTM_HOOK_BUDGET_MS: '60000',
    npm_config_registry: registry.url,
  });
  const withAgentm = env(`${join(prefix, 'bin')}:${basePath}`);
  const withoutAgentm = env(basePath);
  const MODES = {
    'node -e 0': [process.execPath, ['-e', '0'], withAgentm],
    'agentm hook (installed)': [join(prefix, 'bin', 'agentm'), ['hook', 'user-prompt-submit'], withAgentm],
    'launcher, agentm installed': [process.execPath, [LAUNCHER, 'hook', 'user-prompt-submit'], withAgentm],
    'launcher, no agentm (npx)': [process.execPath, [LAUNCHER, 'hook', 'user-prompt-submit'], withoutAgentm],
  };
  // Asynchronous: the registry answers from this process, so it must not be blocked while npx asks it.
  const once = ([cmd, args, e]) =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(cmd, args, { cwd: w.repo, env: e, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`));
        else resolve({ ms: performance.now() - t0, out });
      });
      child.stdin.end(w.payload);
    });
  // Warm-up: npx fetches the package once; the index is built once.
  for (const mode of Object.values(MODES)) await once(mode);
  const askedInWarmUp = registry.requests.length;
  const times = Object.fromEntries(Object.keys(MODES).map((k) => [k, []]));
  const answers = new Set();
  for (let i = 0; i < RUNS; i++)
    for (const [name, mode] of Object.entries(MODES)) {
      const { ms, out } = await once(mode);
      times[name].push(ms);
      if (name !== 'node -e 0') answers.add(out);
    }
  const askedWhileTimed = registry.requests.length - askedInWarmUp;
  await registry.close();
  const floor = median(times['node -e 0']);
  const direct = median(times['agentm hook (installed)']);
  console.log(`prompt hook through the plugin's launcher, ${RUNS} runs each, interleaved (200 notes)`);
  for (const [name, t] of Object.entries(times)) {
    const p50 = median(t);
    console.log(
      `  ${name.padEnd(28)} p50 ${p50.toFixed(0).padStart(5)} ms  p95 ${percentile(t, 95).toFixed(0).padStart(5)} ms  ` +
        `${String(ratio(p50, floor)).padStart(5)}× node  ${String(ratio(p50, direct)).padStart(5)}× direct`,
    );
  }
  console.log(
    `sanity: ${answers.size === 1 ? 'every run gave the same answer' : `DIFFERENT ANSWERS (${answers.size})`}`,
  );
  console.log(
    `sanity: the registry was asked ${askedInWarmUp} time(s) in the warm-up, ${askedWhileTimed} while timed ` +
      '(expected 0: npx runs the cached package without asking)',
  );
  if (answers.size !== 1 || askedWhileTimed !== 0) process.exitCode = 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
