#!/usr/bin/env node
// Write-protocol benchmark (issue 2). Everything is measured in this one run, so the ratios hold on a
// noisy machine even when absolute times drift.
//   bare:      median time of atomicWrite (temp, fsync, rename, dir fsync) of a 2 KB note
//   locked:    median time of a full VaultBackend.write (lock + CAS re-check + atomic write), 2 KB
//   single:    locked read–increment–CAS-write cycles per second, one process
//   contended: the same cycles, 8 processes on one vault, aggregate per second
// Goals: locked/bare ≤ 1.5, contended/single ≥ 0.5, zero lost updates.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atomicWrite, contentHash } from '@agentm/core/write-protocol';
import { VaultBackend } from '@agentm/core/backends';
import { fmtMs, median, ratio } from './lib/stats.mjs';

const WRITES = Number(process.env.BENCH_WRITES ?? 1000);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 400);
const PROCS = 8;
const note = (i) => `---\ntype: workflow\nseq: ${i}\n---\n\n${'lorem ipsum dolor sit amet '.repeat(74)}\n`; // ≈2 KB

const dir = await mkdtemp(join(tmpdir(), 'agentm-bench-'));
const root = join(dir, 'Vault', 'Agent');
const lockRoot = join(dir, 'locks');

async function timeEach(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return times;
}

function runWriters(count, cyclesEach) {
  const worker = fileURLToPath(new URL('./write-protocol-worker.mjs', import.meta.url));
  const children = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, [worker, root, lockRoot, String(cyclesEach)], {
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
        code === 0 ? resolve(JSON.parse(out.split('\n')[1])) : reject(new Error(`writer exited ${code}`)),
      ),
    );
    return { child, ready, done };
  });
  return Promise.all(children.map((c) => c.ready)).then(async () => {
    for (const c of children) c.child.stdin.write('go\n');
    const results = await Promise.all(children.map((c) => c.done));
    const start = Math.min(...results.map((r) => r.start));
    const end = Math.max(...results.map((r) => r.end));
    const total = results.reduce((s, r) => s + r.cycles, 0);
    return { total, seconds: (end - start) / 1000, perSecond: total / ((end - start) / 1000) };
  });
}

try {
  const backend = new VaultBackend({ root, lockRoot });
  const bareDir = join(dir, 'bare');
  // Warm-up so neither side pays first-touch costs.
  await timeEach(50, (i) => atomicWrite(join(bareDir, `w${i % 10}.md`), note(i)));
  await timeEach(50, (i) => backend.write(backend.resolve('warm', `w${i % 10}.md`), note(i)));

  // Interleave the two measurements in blocks so drift hits both equally.
  const bare = [];
  const locked = [];
  let lastHash = null;
  const target = backend.resolve('bench', 'note.md');
  for (let block = 0; block < 10; block++) {
    bare.push(...(await timeEach(WRITES / 10, (i) => atomicWrite(join(bareDir, 'note.md'), note(i)))));
    locked.push(
      ...(await timeEach(WRITES / 10, async (i) => {
        const content = note(i);
        await backend.write(target, content, { expectHash: lastHash });
        lastHash = contentHash(content);
      })),
    );
  }

  const single = await runWriters(1, CYCLES);
  const contended = await runWriters(PROCS, CYCLES);
  const counter = Number.parseInt(await readFile(join(root, 'bench', 'counter.md'), 'utf8'), 10);
  const expected = CYCLES + PROCS * CYCLES;

  const result = {
    bareMedianMs: median(bare),
    lockedMedianMs: median(locked),
    lockedOverBare: ratio(median(locked), median(bare)),
    singlePerSecond: Math.round(single.perSecond),
    contendedPerSecond: Math.round(contended.perSecond),
    contendedOverSingle: ratio(contended.perSecond, single.perSecond),
    lostUpdates: expected - counter,
  };
  console.log('write protocol (2 KB notes)');
  console.log(`  bare atomic write, median          ${fmtMs(result.bareMedianMs)}  (${WRITES} writes)`);
  console.log(`  locked CAS write (vault), median   ${fmtMs(result.lockedMedianMs)}  (${WRITES} writes)`);
  console.log(`  locked / bare                      ${result.lockedOverBare}   (goal ≤ 1.5)`);
  console.log(`  single writer, locked RMW cycles   ${result.singlePerSecond}/s  (${CYCLES} cycles)`);
  console.log(`  ${PROCS} contending processes, aggregate ${result.contendedPerSecond}/s  (${PROCS}×${CYCLES} cycles)`);
  console.log(`  contended / single                 ${result.contendedOverSingle}   (goal ≥ 0.5)`);
  console.log(`  lost updates                       ${result.lostUpdates}   (goal 0; counter ${counter}/${expected})`);
  console.log(JSON.stringify(result));
  if (result.lostUpdates !== 0) process.exitCode = 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
