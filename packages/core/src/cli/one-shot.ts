import { createRequire } from 'node:module';

/**
 * Commands whose action awaits all of their work (a read: the index refreshed, the answer printed; a due
 * walk runs in a detached process): the process exits as soon as their output is flushed.
 */
export const EXITS_WHEN_ANSWERED: ReadonlySet<string> = new Set(['recall', 'recall-here']);

/** How long a one-shot process runs without V8's optimizing compiler (see `baselineCodeFirst`). */
export const LONG_WORK_MS = 500;

/**
 * For a process that answers and exits within a few hundred milliseconds (a hook, `agentm recall`): V8's
 * optimizing compiler (TurboFan) costs such a process more than it gives — its compile jobs run on other
 * threads, and exiting waits for the one in flight (10–45 ms of an answer at 10 000–100 000 notes,
 * measured in bench/hook-latency.mjs). The answer runs on the interpreter and the baseline compiler. A
 * process still at work after `LONG_WORK_MS` — a first index build, a catch-up over thousands of changes,
 * ~1.8× slower without it — turns the optimizing compiler back on (V8 reads the flag at each decision to
 * optimize; worker threads share it).
 */
export function baselineCodeFirst(): void {
  // Required here: node:v8 costs every other command a few milliseconds of loading.
  const { setFlagsFromString } = createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
  setFlagsFromString('--no-turbofan');
  setTimeout(() => setFlagsFromString('--turbofan'), LONG_WORK_MS).unref();
}
