import { onTestFinished } from 'vitest';

/** A wait still in progress in the running test: what it waits for and why the last check failed. */
interface Waiting {
  readonly what: string;
  last: unknown;
  stopped: boolean;
}

const waiting = new Set<Waiting>();
let hooked = false;

/** Ends every wait of the finished test (a failed test's polls never run into the next test). */
function hookTest(): void {
  if (hooked) return;
  hooked = true;
  onTestFinished(({ task }) => {
    for (const w of waiting) {
      w.stopped = true;
      if (task.result?.state !== 'fail') continue;
      const last = w.last instanceof Error ? w.last.message : String(w.last);
      process.stderr.write(`until: the test failed while still waiting for ${w.what}; last check: ${last}\n`);
    }
    waiting.clear();
    hooked = false;
  });
}

/** Lets timers, I/O and other tasks run before the next check (a short poll interval, never a deadline). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

/** A check's source on one line (what a wait without a description names). */
function describeCheck(check: () => unknown): string {
  return String(check).replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * Resolves with `check()`'s value once it returns (or resolves) without throwing, checking again after
 * each turn of the event loop. There is no wall-clock deadline: the test's own timeout is the only
 * limit, and a test that fails while waiting reports `what` it waited for and the last check's error.
 * Prefer awaiting the exact event (a command's promise, a view's `rendered()`); poll only where
 * nothing observable announces the condition.
 */
export async function until<T>(check: () => T | Promise<T>, what = describeCheck(check)): Promise<T> {
  hookTest();
  const w: Waiting = { what, last: undefined, stopped: false };
  waiting.add(w);
  try {
    for (;;) {
      try {
        return await check();
      } catch (error) {
        w.last = error;
      }
      await yieldToEventLoop();
      if (w.stopped) throw new Error(`stopped waiting for ${what}: the test ended`);
    }
  } finally {
    waiting.delete(w);
  }
}
