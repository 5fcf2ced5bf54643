import { HarnessError } from '../errors.js';
import { classifyToolError, structuredToolError, type StructuredToolError } from '../tools/tool-errors.js';

/** memQL's defaults: 30 s per call, 3 attempts, backoff 250 ms doubling to 4 s. */
export interface RetryPolicy {
  readonly perCallTimeoutMs: number;
  readonly maxAttempts: number;
  readonly baseBackoffMs: number;
  readonly maxBackoffMs: number;
  /**
   * The whole wait, every attempt and backoff included (absent or 0: attempts × per call). An attempt
   * gets what is left of it, and none starts once it is spent: what a caller promises a person ("gives
   * up after 60 s") holds however many attempts fit.
   */
  readonly totalBudgetMs?: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  perCallTimeoutMs: 30_000,
  maxAttempts: 3,
  baseBackoffMs: 250,
  maxBackoffMs: 4_000,
});

/**
 * The delay before attempt `n` (1-indexed): none before the first; then base × 2^(n−2), capped at the
 * maximum. Default: 0, 250, 500, 1000, 2000, 4000, 4000, … ms.
 */
export function backoffMs(policy: Pick<RetryPolicy, 'baseBackoffMs' | 'maxBackoffMs'>, n: number): number {
  if (n <= 1 || policy.baseBackoffMs <= 0) return 0;
  const d = policy.baseBackoffMs * 2 ** Math.min(n - 2, 40);
  return policy.maxBackoffMs > 0 && d > policy.maxBackoffMs ? policy.maxBackoffMs : d;
}

export type RetryResult<T> =
  | { readonly ok: true; readonly value: T; readonly attempts: number }
  | { readonly ok: false; readonly error: StructuredToolError; readonly attempts: number };

/** An error raised when a per-call deadline expires (classified `timeout`, so it is retried). */
export class CallTimeoutError extends HarnessError {
  constructor(ms: number) {
    super(`call timed out after ${ms} ms (context deadline exceeded)`, { code: 'ECALLTIMEOUT' });
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `fn` with a per-call deadline (its signal aborts when the deadline passes or `outer` aborts),
 * retrying only retryable failures (timeout, unavailable, internal), with backoff between attempts. A
 * user-fixable or permission error returns at once. When `outer` aborts while waiting, the result is a
 * timeout error counting that attempt.
 */
export async function executeWithRetry<T>(
  fn: (signal: AbortSignal, attempt: number) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  outer?: AbortSignal,
): Promise<RetryResult<T>> {
  const max = Math.max(1, policy.maxAttempts);
  const budget = policy.totalBudgetMs !== undefined && policy.totalBudgetMs > 0 ? policy.totalBudgetMs : undefined;
  const spentAt = budget === undefined ? Number.POSITIVE_INFINITY : Date.now() + budget;
  let last: StructuredToolError | undefined;
  for (let attempt = 1; ; attempt++) {
    const wait = backoffMs(policy, attempt);
    if (last && Date.now() + wait >= spentAt) return { ok: false, error: last, attempts: attempt - 1 };
    if (attempt > 1 && wait > 0 && !(await sleep(wait, outer))) {
      return { ok: false, error: structuredToolError('timeout', 'context canceled', attempt), attempts: attempt };
    }
    if (outer?.aborted)
      return { ok: false, error: structuredToolError('timeout', 'context canceled', attempt), attempts: attempt };
    const controller = new AbortController();
    const onOuter = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onOuter, { once: true });
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const perCall = policy.perCallTimeoutMs > 0 ? policy.perCallTimeoutMs : Number.POSITIVE_INFINITY;
    const callMs = Math.max(1, Math.min(perCall, spentAt - Date.now()));
    try {
      const deadline = Number.isFinite(callMs)
        ? new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              timedOut = true;
              reject(new CallTimeoutError(callMs));
              controller.abort(new CallTimeoutError(callMs));
            }, callMs);
          })
        : undefined;
      const value = await (deadline
        ? Promise.race([fn(controller.signal, attempt), deadline])
        : fn(controller.signal, attempt));
      return { ok: true, value, attempts: attempt };
    } catch (error) {
      // The call may reject with its own abort error before the deadline's rejection wins the race.
      const structured = {
        ...classifyToolError(timedOut ? new CallTimeoutError(callMs) : error)!,
        attempts: attempt,
      };
      if (!structured.retryable || attempt >= max || outer?.aborted)
        return { ok: false, error: structured, attempts: attempt };
      last = structured;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    }
  }
}
