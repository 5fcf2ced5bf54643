import type { PlanDocument } from '../plan/plan-document.js';
import { stepDepths } from '../plan/plan-graph.js';
import { dispatcherFrom } from '../reconciler/dispatcher.js';
import { runSpec, type PlanSpec } from './spec-runner.js';
import { replaySequence, type Trace } from './trace.js';

export const NON_DETERMINISTIC_REASON =
  'independent steps become ready in the same wave; dispatch order is not DAG-determined';

/** What a run writes on a step (its claim and attempt), not what the step was given: never replayed. */
const RUN_STATE_FIELDS = new Set(['id', 'after', 'agent', 'attempt', 'key', 'started']);

/** A step's inputs: its inline fields without the run's own state (memQL replays each step fresh). */
function stepInput(fields: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !RUN_STATE_FIELDS.has(key)));
}

/**
 * The recipe of a recorded plan (memQL `ReplaySpecFromTrace`): its steps in trace order with the plan's
 * dependencies, inputs and notes (missing from the plan: none).
 */
export function replaySpecFromTrace(trace: Trace, doc: PlanDocument | undefined): PlanSpec {
  const steps = trace.steps.map((s) => {
    const planStep = doc?.steps.find((p) => p.id === s.id);
    return {
      id: s.id,
      title: s.title || planStep?.title || s.id,
      deps: planStep ? [...planStep.deps] : [],
      input: stepInput(planStep?.fields ?? {}),
      details: planStep?.details ?? '',
    };
  });
  return { name: `replay-${trace.plan}`, goal: trace.goal, steps };
}

export interface Determinism {
  readonly deterministic: boolean;
  readonly reason: string;
  /** Waves (steps of equal DAG depth) with two or more steps: their order is not implied by the DAG. */
  readonly ambiguousWaves: readonly (readonly string[])[];
}

/** memQL `classifyDeterminism`: any wave of ≥ 2 steps makes the dispatch order non-deterministic. */
export function classifyDeterminism(spec: PlanSpec): Determinism {
  const depths = stepDepths(spec.steps.map((s) => ({ id: s.id, deps: s.deps })));
  const waves = new Map<number, string[]>();
  for (const s of spec.steps) {
    const d = depths.get(s.id) ?? 0;
    waves.set(d, [...(waves.get(d) ?? []), s.id]);
  }
  const ambiguousWaves = [...waves.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, ids]) => ids)
    .filter((ids) => ids.length >= 2);
  return ambiguousWaves.length > 0
    ? { deterministic: false, reason: NON_DETERMINISTIC_REASON, ambiguousWaves }
    : { deterministic: true, reason: '', ambiguousWaves: [] };
}

export interface ReplayResult {
  readonly recorded: readonly string[];
  readonly replayed: readonly string[];
  readonly determinism: Determinism;
  /** Deterministic: exact order equality; otherwise equality of the byte-sorted sequences (advisory). */
  readonly reproduced: boolean;
}

const sorted = (xs: readonly string[]) => [...xs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/**
 * Re-drives the reconciler over the recorded DAG with a no-op dispatcher (every step succeeds with no
 * tool calls) and compares the dispatch order with the recorded one.
 */
export async function replayTrace(trace: Trace, doc: PlanDocument | undefined): Promise<ReplayResult> {
  const spec = replaySpecFromTrace(trace, doc);
  const recorded = replaySequence(trace);
  const run = await runSpec(
    spec,
    dispatcherFrom(async () => ({ status: 'done', summary: 'replayed', toolCalls: 0, tokens: 0 })),
  );
  const determinism = classifyDeterminism(spec);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const reproduced = determinism.deterministic
    ? same(recorded, run.claims)
    : same(sorted(recorded), sorted(run.claims));
  return { recorded, replayed: run.claims, determinism, reproduced };
}
