#!/usr/bin/env node
// What the thesaurus (packages/core/src/memory/recall/thesaurus.ts) costs a process: its table's size, in
// the source and in the CLI bundle, and, in a new process each run (as a prompt hook is), the time to load
// the module (the table is one string literal) after a small module of core has warmed the loader, the
// first lookup (a binary search of the text: nothing is parsed up front), then a warm lookup. Goal: first lookup ≲ 5 ms, table ≤ 300 KB. BENCH_RUNS (default 15). Run after the build.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtMs, median, percentile } from './lib/stats.mjs';

const CORE = fileURLToPath(new URL('../packages/core/', import.meta.url));
const MODULE = join(CORE, 'dist/memory/recall/thesaurus.js');
/** A small module of core imported first: the loader's own start-up is not the table's. */
const SMALL = join(CORE, 'dist/memory/recall/duration.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

/** One new process: load the module, look up a word (first: parses), then another (warm). */
const CHILD = `
const s0 = performance.now();
await import(${JSON.stringify(SMALL)});
const t0 = performance.now();
const { THESAURUS } = await import(${JSON.stringify(MODULE)});
const t1 = performance.now();
const first = THESAURUS.synonyms('hang');
const t2 = performance.now();
THESAURUS.synonyms('research');
const t3 = performance.now();
if (first.length === 0) throw new Error('the thesaurus has no synonyms of hang');
console.log(JSON.stringify({ small: t0 - s0, load: t1 - t0, first: t2 - t1, warm: t3 - t2 }));
`;

const runs = [];
for (let i = 0; i < RUNS; i++) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`);
  runs.push(JSON.parse(child.stdout));
}
const table = statSync(join(CORE, 'src/memory/recall/thesaurus-table.ts')).size;
const lines = readFileSync(join(CORE, 'src/memory/recall/thesaurus-table.ts'), 'utf8').split('\n').length;
const bundle = join(CORE, 'dist/cli-bundle');
const bundleBytes = readdirSync(bundle)
  .filter((f) => f.endsWith('.cjs'))
  .reduce((s, f) => s + statSync(join(bundle, f)).size, 0);
const row = (name, xs) => `${name.padEnd(34)} p50 ${fmtMs(median(xs))}  p95 ${fmtMs(percentile(xs, 95))}`;
console.log(`thesaurus: ${RUNS} new processes`);
console.log(
  `table source: ${(table / 1024).toFixed(1)} KB (${lines} lines) (goal ≤ 300 KB: ${table <= 300 * 1024 ? 'met' : 'MISSED'})`,
);
console.log(`CLI bundle, all chunks: ${(bundleBytes / 1024).toFixed(0)} KB`);
const column = (name) => runs.map((r) => r[name]);
console.log(row('a small module of core (the loader)', column('small')));
console.log(row('then the thesaurus and its table', column('load')));
console.log(
  `${row('first lookup', column('first'))} (goal ≲ 5 ms: ${median(column('first')) <= 5 ? 'met' : 'MISSED'})`,
);
console.log(row('warm lookup', column('warm')));
