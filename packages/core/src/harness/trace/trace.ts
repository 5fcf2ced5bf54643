import type { Observation, ObservationValue } from '../observations/observation.js';
import type { PlanDocument } from '../plan/plan-document.js';

/** One timeline entry: a plan status change, a step status change, or any other observation. */
export interface TraceEvent {
  readonly at: string;
  readonly kind: 'plan' | 'step' | 'observation';
  readonly stepId: string;
  /** For plan and step events: the status reached. */
  readonly status: string;
  readonly observationKind: string;
  /** For status changes: `from->to`. */
  readonly mutation: string;
  readonly actor: string;
  readonly attempt: number;
  readonly content: string;
  readonly toolName: string;
  readonly data: Readonly<Record<string, ObservationValue>>;
}

export interface StepRollup {
  readonly id: string;
  readonly title: string;
  readonly finalStatus: string;
  readonly transitions: readonly TraceEvent[];
  readonly observations: readonly TraceEvent[];
}

export interface Trace {
  readonly plan: string;
  readonly goal: string;
  readonly finalStatus: string;
  readonly events: readonly TraceEvent[];
  readonly steps: readonly StepRollup[];
  /** Plan-level observations (budget halts, planner decisions, plan status changes). */
  readonly planEvents: readonly TraceEvent[];
}

function toEvent(o: Observation, planId: string): TraceEvent {
  const isTransition = o.kind === 'transition';
  const kind = isTransition ? (o.step === planId ? 'plan' : 'step') : 'observation';
  return {
    at: o.time,
    kind,
    stepId: o.step,
    status: isTransition ? String(o.data['to'] ?? '') : '',
    observationKind: isTransition ? '' : o.kind,
    mutation: isTransition ? `${o.data['from'] ?? ''}->${o.data['to'] ?? ''}` : '',
    actor: o.actor,
    attempt: o.attempt,
    content: o.text,
    toolName: typeof o.data['tool'] === 'string' ? o.data['tool'] : '',
    data: o.data,
  };
}

/** memQL's tie-break at one instant: plan events first, then step events, then observations. */
const KIND_RANK: Readonly<Record<TraceEvent['kind'], number>> = { plan: 0, step: 1, observation: 2 };

/** Time, then kind at a tie, then log order (also for a time that does not parse). */
function timelineOrder(a: { e: TraceEvent; i: number; t: number }, b: { e: TraceEvent; i: number; t: number }): number {
  if (Number.isNaN(a.t) || Number.isNaN(b.t)) return a.i - b.i;
  return a.t - b.t || KIND_RANK[a.e.kind] - KIND_RANK[b.e.kind] || a.i - b.i;
}

/**
 * The ordered timeline of a plan (memQL `AssembleTrace` over the progress log): events sorted by time,
 * ties by kind as memQL breaks them (plan < step < observation), then in log order (the log is appended
 * under a lock, so its order is the true order; memQL, without one, falls back to node id). Steps roll
 * up in first-seen order, then the plan's untouched steps in plan order; a step's final status is the
 * PLAN file's (the source of truth), else its last status event.
 */
export function assembleTrace(
  planName: string,
  doc: PlanDocument | undefined,
  observations: readonly Observation[],
): Trace {
  const planId = `plan:${planName}`;
  const events = observations
    .map((o, i) => ({ e: toEvent(o, planId), i, t: Date.parse(o.time) }))
    .sort(timelineOrder)
    .map((x) => x.e);
  const order: string[] = [];
  const byStep = new Map<string, { transitions: TraceEvent[]; observations: TraceEvent[] }>();
  for (const e of events) {
    if (e.stepId === '' || e.stepId === planId) continue;
    if (!byStep.has(e.stepId)) {
      byStep.set(e.stepId, { transitions: [], observations: [] });
      order.push(e.stepId);
    }
    const r = byStep.get(e.stepId)!;
    (e.kind === 'step' ? r.transitions : r.observations).push(e);
  }
  for (const s of doc?.steps ?? []) {
    if (!byStep.has(s.id)) {
      byStep.set(s.id, { transitions: [], observations: [] });
      order.push(s.id);
    }
  }
  const steps = order.map((id) => {
    const r = byStep.get(id)!;
    const planStep = doc?.steps.find((s) => s.id === id);
    const lastStatus = [...r.transitions].reverse().find((t) => t.status !== '')?.status ?? '';
    return {
      id,
      title: planStep?.title ?? '',
      finalStatus: planStep ? planStep.stored : lastStatus,
      transitions: r.transitions,
      observations: r.observations,
    };
  });
  const planEvents = events.filter((e) => e.stepId === planId);
  const lastPlanStatus = [...planEvents].reverse().find((e) => e.kind === 'plan' && e.status !== '')?.status;
  return {
    plan: planName,
    goal: doc?.meta.goal ?? '',
    finalStatus: doc?.meta.status ?? lastPlanStatus ?? (doc ? 'open' : ''),
    events,
    steps,
    planEvents,
  };
}

/** Step ids in the order they were first dispatched (first transition to running). */
export function replaySequence(trace: Trace): string[] {
  const seen: string[] = [];
  for (const e of trace.events)
    if (e.kind === 'step' && e.status === 'running' && !seen.includes(e.stepId)) seen.push(e.stepId);
  return seen;
}

/** Whether the plan reached done, failed or cancelled. */
export function isComplete(trace: Trace): boolean {
  return ['done', 'failed', 'cancelled'].includes(trace.finalStatus.trim());
}
