#!/usr/bin/env node
// Crash and contention run (issue 20): for each store that takes the lock (vault, device-local), ROUNDS
// rounds of 8 writer processes appending acknowledged entries to one ledger note by compare-and-swap
// (bench/crash-writer.mjs), every writer SIGKILLed at a random moment once the first entry of the round
// is acknowledged. After each round the ledger must be one complete version (else: torn) holding every
// entry a writer acknowledged (else: lost). Prints kills, acknowledged entries, lost, torn, and the
// temps and locks the killed writers left (never listed or read; `agentm doctor --fix` removes temps).
// Half-done evolves are counted by test/evolve-crash.process.test.ts (agentm evolve under SIGKILL).
//   ROUNDS=20 node bench/crash.mjs
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockDirFor } from '@agentm/core/write-protocol';
import { ledgerEntries } from './lib/ledger.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const WRITERS = 8;
const worker = fileURLToPath(new URL('./crash-writer.mjs', import.meta.url));
let seed = 20_261_126;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

function startWriter(kind, root, lockRoot, id) {
  const child = spawn(process.execPath, [worker, kind, root, lockRoot, id], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acked = { n: -1 };
  let out = '';
  let err = '';
  let onAck;
  const firstAck = new Promise((resolve) => (onAck = resolve));
  const ready = new Promise((resolve) =>
    child.stdout.on('data', (chunk) => {
      out += chunk;
      for (const m of out.matchAll(/^acked (\d+)$/gm)) acked.n = Math.max(acked.n, Number(m[1]));
      if (out.includes('ready\n')) resolve();
      if (acked.n >= 0) onAck();
    }),
  );
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { id, child, acked, ready, firstAck, exited, stderr: () => err };
}

async function tempsUnder(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.startsWith('.') && e.name.endsWith('.tmp')).length;
}

async function run(kind) {
  const dir = await mkdtemp(join(tmpdir(), 'agentm-crash-'));
  const root = join(dir, 'store');
  const lockRoot = join(dir, 'locks');
  const file = join(root, 'desk', 'ledger.md');
  const totals = { kind, kills: 0, acked: 0, lost: 0, torn: 0, crashedOtherwise: 0, tempsLeft: 0, lockLeft: false };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const writers = Array.from({ length: WRITERS }, (_, i) => startWriter(kind, root, lockRoot, `r${round}w${i}`));
      await Promise.all(writers.map((w) => w.ready));
      await Promise.race([Promise.any(writers.map((w) => w.firstAck)), Promise.all(writers.map((w) => w.exited))]);
      await Promise.all(
        writers.map((w) => new Promise((r) => setTimeout(r, 10 + random() * 250)).then(() => w.child.kill('SIGKILL'))),
      );
      for (const w of writers) {
        const { signal } = await w.exited;
        if (signal === 'SIGKILL') totals.kills++;
        else {
          totals.crashedOtherwise++;
          console.error(`${kind} ${w.id} ended before its kill: ${w.stderr().trim()}`);
        }
      }
      const entries = ledgerEntries(await readFile(file, 'utf8'));
      if (entries === undefined) {
        totals.torn++;
        continue;
      }
      const present = new Set(entries);
      for (const w of writers)
        for (let n = 0; n <= w.acked.n; n++) {
          totals.acked++;
          if (!present.has(`${w.id}:${n}`)) totals.lost++;
        }
    }
    totals.tempsLeft = await tempsUnder(root);
    totals.lockLeft = existsSync(lockDirFor(root, lockRoot));
    return totals;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const results = [];
for (const kind of ['vault', 'device-local']) results.push(await run(kind));
console.log(`crash run: ${ROUNDS} rounds × ${WRITERS} writers SIGKILLed at random moments, per store`);
for (const r of results)
  console.log(
    `  ${r.kind.padEnd(13)} kills ${r.kills}  acknowledged ${r.acked}  lost ${r.lost}  torn ${r.torn}  ` +
      `other exits ${r.crashedOtherwise}  temps left ${r.tempsLeft}  lock left ${r.lockLeft ? 'yes (stale)' : 'no'}`,
  );
console.log(JSON.stringify(results));
if (results.some((r) => r.lost > 0 || r.torn > 0 || r.crashedOtherwise > 0)) process.exitCode = 1;
