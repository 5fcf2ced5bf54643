import type { Trace, TraceEvent } from './trace.js';

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
 * The tool calls one observation stands for: its `tool_calls` count when it has one, else one for a
 * `tool_result` (memQL: an agent's or a person's log entry of a tool result is one call) and none for
 * anything else. A count of 0 is kept (memQL reads it as one): the tool loop's own results say 0 because
 * the step's result carries them, and counting both would count every call twice.
 */
export function toolCallsOf(e: Pick<TraceEvent, 'observationKind' | 'data'>): number {
  const count = e.data['tool_calls'];
  if (typeof count === 'number' && Number.isFinite(count)) return Math.max(0, Math.trunc(count));
  return e.observationKind === 'tool_result' ? 1 : 0;
}

/**
 * Rollup metrics (memQL `ComputeMetrics`): success = plan done; step counts from the rollup; wall clock
 * = last − first event; over observations (status changes excluded): count, errors, tool calls
 * (`toolCallsOf`) and tokens (`tokens`).
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
    toolCalls += toolCallsOf(e);
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
