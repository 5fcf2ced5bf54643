#!/usr/bin/env node
// Step-id assignment on long plans (moved here from a unit test's timing ratio, issue 20 §2): 8 000
// steps with one title (every id needs a suffix: `run-the-tests-2`, `-3` …) against 8 000 distinct
// titles, measured in the same run, interleaved. Quadratic suffix search was ~100× at this size.
// Goal: same ÷ distinct ≤ 8. BENCH_STEPS=8000, BENCH_RUNS=9.
import { assignStepIds } from '../packages/core/dist/harness/plan/step-ids.js';
import { fmtMs, median, ratio } from './lib/stats.mjs';

const N = Number(process.env.BENCH_STEPS ?? 8000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const same = Array.from({ length: N }, () => ({ title: 'Run the tests' }));
const distinct = Array.from({ length: N }, (_, i) => ({ title: `Run the tests ${i}` }));

const time = (steps) => {
  const t0 = performance.now();
  assignStepIds(steps);
  return performance.now() - t0;
};
time(same); // warm-up
time(distinct);
const sameMs = [];
const distinctMs = [];
for (let i = 0; i < RUNS; i++) {
  sameMs.push(time(same));
  distinctMs.push(time(distinct));
}
const result = { steps: N, sameMs: median(sameMs), distinctMs: median(distinctMs) };
result.sameOverDistinct = ratio(result.sameMs, result.distinctMs);
console.log(`step ids for ${N} steps (median of ${RUNS})`);
console.log(`  distinct titles        ${fmtMs(result.distinctMs)}`);
console.log(`  one title, suffixed    ${fmtMs(result.sameMs)}`);
console.log(`  same / distinct        ${result.sameOverDistinct}   (goal ≤ 8)`);
console.log(JSON.stringify(result));
