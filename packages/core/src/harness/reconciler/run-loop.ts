import { StoreGoneError } from '../../seam/errors.js';
import { PlanNotFoundError, PlanValidationError } from '../errors.js';
import type { PlanTerminal } from './core.js';
import type { Reconciler } from './reconciler.js';

/** The safety-net tick (memQL: 30 s): catches changes no watcher reported. */
export const DEFAULT_TICK_INTERVAL_MS = 30_000;
/** With step leases, a tick this long after another process's lease would expire (the server's clock leads a little). */
const LEASE_WAKE_MARGIN_MS = 100;

export interface RunOptions {
  /** One tick, waiting for the steps it dispatched (`agentm run --once`). */
  readonly once?: boolean;
  /** Stops the loop: running dispatches are interrupted and their steps released for a retry. */
  readonly signal?: AbortSignal;
  readonly tickIntervalMs?: number;
  readonly log?: (line: string) => void;
}

export interface RunResult {
  /** The plan's terminal status ('' when stopped or, with `once`, not finished yet). */
  readonly terminal: PlanTerminal;
  readonly ticks: number;
  readonly stopped: boolean;
}

/**
 * Drives a reconciler until its plan is terminal and nothing it launched is still running. It ticks at
 * start, whenever the plan or progress file changes (the files' `watch`, debounced), whenever one of its
 * steps is recorded, every `tickIntervalMs`, and — with step leases — when another process's lease on a
 * running step would expire (so a takeover is not left to the safety-net tick). Ticks never overlap; a request during a tick runs one
 * more tick after it. A tick error that a retry can fix (a lock timeout) is logged and retried on the
 * next trigger; a plan that cannot run (missing, invalid) ends the loop with the error.
 */
export function runReconciler(reconciler: Reconciler, options: RunOptions = {}): Promise<RunResult> {
  const log = options.log ?? (() => undefined);
  if (options.once) {
    return reconciler.tick({ wait: true }).then((report) => {
      if (report.skipped === 'no-plan') throw new PlanNotFoundError(reconciler.files.planLabel);
      return { terminal: report.terminal, ticks: 1, stopped: false };
    });
  }
  return new Promise<RunResult>((resolve, reject) => {
    let ticks = 0;
    let running = false;
    let again = false;
    let finished = false;
    let wake: NodeJS.Timeout | undefined;
    const disposeWatch = reconciler.files.watch?.(() => schedule()) ?? (() => undefined);
    const timer = setInterval(
      () => schedule(),
      options.tickIntervalMs && options.tickIntervalMs > 0 ? options.tickIntervalMs : DEFAULT_TICK_INTERVAL_MS,
    );
    const finish = (result: RunResult | Error) => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      clearTimeout(wake);
      disposeWatch();
      reconciler.onSettled = undefined;
      options.signal?.removeEventListener('abort', onAbort);
      if (result instanceof Error)
        reconciler.stop().then(
          () => reject(result),
          () => reject(result),
        );
      else resolve(result);
    };
    const onAbort = () => {
      if (finished) return;
      void reconciler.stop().then(() => finish({ terminal: '', ticks, stopped: true }));
    };
    const loop = async () => {
      do {
        again = false;
        try {
          const report = await reconciler.tick();
          ticks++;
          if (report.leaseWaitMs !== undefined) {
            clearTimeout(wake);
            wake = setTimeout(() => schedule(), report.leaseWaitMs + LEASE_WAKE_MARGIN_MS);
          }
          if (report.skipped === 'no-plan') return finish(new PlanNotFoundError(reconciler.files.planLabel));
          if (report.terminal !== '' && reconciler.inflight.length === 0)
            return finish({ terminal: report.terminal, ticks, stopped: false });
        } catch (error) {
          // A plan that cannot run, or a store that is gone, does not get better by retrying.
          if (error instanceof PlanValidationError || error instanceof StoreGoneError) return finish(error);
          log(`tick failed (will retry): ${(error as Error).message}`);
        }
      } while (again && !finished && !options.signal?.aborted);
      running = false;
    };
    const schedule = () => {
      if (finished || options.signal?.aborted) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      void loop();
    };
    reconciler.onSettled = schedule;
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort);
    schedule();
  });
}
