import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// A one-shot answer (a hook, `agentm recall`) runs without V8's optimizing compiler, whose jobs its exit
// would wait for; a one-shot process still at work after a moment (a first index build, ~1.8× slower
// without it) gets it back. Observed in a real Node process through V8's own optimization status.

const CORE = realpathSync(fileURLToPath(new URL('../node_modules/@agentm/core/', import.meta.url)));
const ONE_SHOT = pathToFileURL(join(CORE, 'dist', 'cli', 'one-shot.js')).href;

/**
 * Runs a hot function in a new Node process, after `baselineCodeFirst()` when `baseline`: whether V8 set
 * out to optimize it right away (checked synchronously: the switch back cannot happen meanwhile), and
 * whether a second one is optimized once the process has been at work a while (waited for, round after
 * round).
 */
function tiering(baseline: boolean): { first: boolean; later: boolean } {
  const script = `
    import { baselineCodeFirst } from ${JSON.stringify(ONE_SHOT)};
    // V8's optimization status bits: optimized, marked for optimization (at once or concurrently), being optimized.
    const UNDERWAY = 16 | 256 | 512 | 1024;
    const TURBOFANNED = 64;
    const underway = (f) => (%GetOptimizationStatus(f) & UNDERWAY) !== 0;
    const optimized = (f) => (%GetOptimizationStatus(f) & TURBOFANNED) !== 0;
    if (${baseline}) baselineCodeFirst();
    const first = (x) => { let s = 0; for (let i = 0; i < 100; i++) s += i * x; return s; };
    for (let i = 0; i < 300000; i++) first(i);
    const early = underway(first);
    const later = (x) => { let s = 0; for (let i = 0; i < 100; i++) s -= i * x; return s; };
    for (let round = 0; round < 20000 && !optimized(later); round++) {
      for (let i = 0; i < 10000; i++) later(i);
      await new Promise((resolve) => setImmediate(resolve));
    }
    console.log(JSON.stringify({ first: early, later: optimized(later) }));
  `;
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as { first: boolean; later: boolean };
}

describe('a one-shot process and V8 optimizing compiler', () => {
  it('a hot function is optimized at once in a process that did not ask otherwise (the control)', () => {
    expect(tiering(false)).toEqual({ first: true, later: true });
  });

  it('the answer runs on baseline code, and work that goes on gets the optimizing compiler back', () => {
    expect(tiering(true)).toEqual({ first: false, later: true });
  });
});
