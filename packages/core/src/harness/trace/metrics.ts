import type { Trace } from './trace.js';

export interface TraceMetrics {
  readonly success: boolean;
  readonly stepCount: number;
  readonly stepsCompleted: number;
  readonly stepsFailed: number;
  readonly toolCalls: number;
  readonly tokens: number;
  readonly wallClockMs: number;
  readonly observationCount: number;
  readonly errorCount: number;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);

/**
 * Rollup metrics (memQL `ComputeMetrics`): success = plan done; step counts from the rollup; wall clock
 * = last − first event; over observations (status changes excluded): count, errors, tool calls
 * (`tool_calls`) and tokens (`tokens`) — the same fields the budget sums.
 */
export function computeMetrics(trace: Trace): TraceMetrics {
  const times = trace.events.map((e) => Date.parse(e.at)).filter((t) => Number.isFinite(t));
  let observationCount = 0;
  let errorCount = 0;
  let toolCalls = 0;
  let tokens = 0;
  for (const e of trace.events) {
    if (e.kind !== 'observation') continue;
    observationCount++;
    if (e.observationKind === 'error') errorCount++;
    toolCalls += Math.max(0, num(e.data['tool_calls']));
    tokens += Math.max(0, num(e.data['tokens']));
  }
  return {
    success: trace.finalStatus === 'done',
    stepCount: trace.steps.length,
    stepsCompleted: trace.steps.filter((s) => s.finalStatus === 'done').length,
    stepsFailed: trace.steps.filter((s) => s.finalStatus === 'failed').length,
    toolCalls,
    tokens,
    wallClockMs: times.length > 1 ? Math.max(...times) - Math.min(...times) : 0,
    observationCount,
    errorCount,
  };
}
