import { ConcurrentModificationError } from '../../write-protocol/errors.js';
import { makeObservation, type Observation } from '../observations/observation.js';
import { parsePlan, type PlanDocument } from '../plan/plan-document.js';
import { transitionSteps, withPlanStatus, type AppliedTransition, type TransitionRequest } from '../plan/plan-edit.js';
import { isTerminalPlanStatus, type PlanStatus } from '../plan/step-status.js';
import { computePlanTerminal, type StepView } from './core.js';
import { planObservationId, type PlanFiles } from './plan-files.js';

/** How many times a plan change is re-derived from a fresh read after losing a CAS race. */
export const CAS_ATTEMPTS = 12;

/** What one atomic plan change does: step transitions, observations around them, a plan status. */
export interface PlanChange {
  readonly transitions?: readonly TransitionRequest[];
  /** Observations logged before the transitions' own entries (e.g. the error that caused a failure). */
  readonly before?: readonly Observation[];
  /** Observations logged after them (e.g. a step's result). */
  readonly after?: readonly Observation[];
  /** Set the plan status (no guard, as in memQL). */
  readonly planStatus?: { readonly status: PlanStatus; readonly reason: string };
  /** After the transitions, set the plan's terminal status if it has reached one. */
  readonly settle?: boolean;
}

export interface MutationResult {
  readonly doc: PlanDocument;
  readonly applied: readonly AppliedTransition[];
  /** The plan's status written by this change, if any. */
  readonly planStatus?: PlanStatus;
}

/** The reconciler core's view of a plan's steps. */
export function stepViews(doc: PlanDocument): StepView[] {
  return doc.steps.map((s) => ({ id: s.id, status: s.stored, deps: s.deps }));
}

function transitionObservation(t: AppliedTransition, actor: string, time: Date): Observation {
  return makeObservation({
    kind: 'transition',
    step: t.step,
    attempt: t.attempt,
    actor,
    time,
    text: `${t.from} → ${t.to}`,
    data: { from: t.from, to: t.to },
  });
}

/**
 * Reads the plan, asks `decide` for a change, applies it through the state machine and commits plan and
 * observations together (CAS on the plan). A lost race re-reads and asks `decide` again, so a decision is
 * always made against the bytes it replaces. `decide` returning undefined means "nothing to do".
 */
export async function mutatePlan(
  files: PlanFiles,
  actor: string,
  decide: (doc: PlanDocument) => PlanChange | undefined,
  now: () => number = Date.now,
): Promise<MutationResult | undefined> {
  for (let attempt = 1; ; attempt++) {
    const snap = await files.readPlan();
    if (!snap) return undefined;
    const doc = parsePlan(snap.text);
    const change = decide(doc);
    if (!change) return undefined;
    const { doc: stepped, applied } = transitionSteps(doc, change.transitions ?? []);
    let next = stepped;
    const observations: Observation[] = [
      ...(change.before ?? []),
      ...applied.map((t) => transitionObservation(t, actor, new Date(now()))),
      ...(change.after ?? []),
    ];
    let planStatus = change.planStatus;
    if (!planStatus && change.settle && !isTerminalPlanStatus(doc.meta.status)) {
      const terminal = computePlanTerminal(stepViews(next));
      if (terminal !== '') {
        const reason =
          terminal === 'failed'
            ? 'one or more steps failed or are permanently blocked'
            : terminal === 'done'
              ? 'every step is done'
              : 'every step was cancelled';
        planStatus = { status: terminal, reason };
      }
    }
    if (planStatus) {
      next = withPlanStatus(next, planStatus.status);
      const from = doc.meta.status ?? 'open';
      observations.push(
        makeObservation({
          kind: 'transition',
          step: planObservationId(files),
          actor,
          time: new Date(now()),
          text: `plan ${from} → ${planStatus.status}: ${planStatus.reason}`,
          data: { from, to: planStatus.status },
        }),
      );
    }
    const writesPlan = applied.length > 0 || planStatus !== undefined;
    if (!writesPlan && observations.length === 0) return { doc, applied };
    try {
      await files.commit({ ...(writesPlan ? { plan: { text: next.text, expectHash: snap.hash } } : {}), observations });
      return { doc: next, applied, ...(planStatus ? { planStatus: planStatus.status } : {}) };
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError) || attempt >= CAS_ATTEMPTS) throw error;
    }
  }
}
