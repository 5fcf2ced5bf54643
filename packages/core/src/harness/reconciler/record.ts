import { makeObservation, type Observation } from '../observations/observation.js';
import type { PlanDocument, PlanStep } from '../plan/plan-document.js';
import type { StepOutcome } from './dispatcher.js';
import { mutatePlan } from './plan-mutation.js';
import type { PlanFiles } from './plan-files.js';

/** The step as it is now, if it is still ours: running, claimed by `actor`, at the attempt we ran. */
function stillOurs(
  doc: PlanDocument,
  claimed: PlanStep,
  actor: string,
  lostLease?: string,
): { ours: true; step: PlanStep } | { ours: false; why: string } {
  if (lostLease !== undefined) return { ours: false, why: lostLease };
  const step = doc.steps.find((s) => s.id === claimed.id);
  if (!step) return { ours: false, why: 'the step is no longer in the plan' };
  if (step.stored !== 'running') return { ours: false, why: `the step is now ${step.stored}` };
  if (step.agent !== actor || step.attempt !== claimed.attempt)
    return { ours: false, why: `the step was re-claimed by ${step.agent ?? 'someone else'} (attempt ${step.attempt})` };
  return { ours: true, step };
}

function resultObservation(step: PlanStep, outcome: StepOutcome, actor: string, now: () => number): Observation {
  const kind = outcome.status === 'done' ? 'tool_result' : outcome.status === 'failed' ? 'error' : 'note';
  const head =
    outcome.status === 'done'
      ? `step "${step.id}" completed (${outcome.toolCalls} tool call(s))`
      : outcome.status === 'failed'
        ? `step "${step.id}" dispatch failed`
        : `step "${step.id}" is blocked`;
  return makeObservation({
    kind,
    step: step.id,
    attempt: step.attempt,
    actor,
    time: new Date(now()),
    text: outcome.summary.trim() === '' ? head : `${head}: ${outcome.summary}`,
    data: {
      ...(outcome.tool ? { tool: outcome.tool } : {}),
      ...outcome.data,
      tool_calls: outcome.toolCalls,
      tokens: outcome.tokens,
    },
  });
}

/**
 * Records a dispatch: the result observation, then running → done | failed | blocked, and the plan's
 * terminal status if this settles it, in one CAS commit. When the step is no longer ours (a person
 * cancelled it meanwhile, another reconciler recovered it, or — `lostLease` says why — its lease was
 * taken over), the result is logged as a note and the plan is left as it is.
 */
export async function recordOutcome(
  files: PlanFiles,
  actor: string,
  claimed: PlanStep,
  outcome: StepOutcome,
  now: () => number,
  lostLease?: string,
): Promise<void> {
  await mutatePlan(
    files,
    actor,
    (doc) => {
      const check = stillOurs(doc, claimed, actor, lostLease);
      const result = resultObservation(claimed, outcome, actor, now);
      if (!check.ours) {
        const note = makeObservation({
          kind: 'note',
          step: claimed.id,
          attempt: claimed.attempt,
          actor,
          time: new Date(now()),
          text: `result of attempt ${claimed.attempt} discarded: ${check.why}`,
        });
        return { before: [result, note] };
      }
      return { before: [result], transitions: [{ step: claimed.id, to: outcome.status }], settle: true };
    },
    now,
  );
}

/**
 * A dispatch interrupted because the reconciler is stopping: the claim is released for a later run
 * (running → failed → ready with the attempt bumped; the idempotency key is kept).
 */
export async function releaseInterrupted(
  files: PlanFiles,
  actor: string,
  claimed: PlanStep,
  outcome: StepOutcome,
  now: () => number,
): Promise<void> {
  await mutatePlan(
    files,
    actor,
    (doc) => {
      const check = stillOurs(doc, claimed, actor);
      if (!check.ours) return undefined;
      const text = `step "${claimed.id}" interrupted (the reconciler stopped): ${outcome.summary}; it will be retried as attempt ${claimed.attempt + 1}`;
      return {
        before: [
          makeObservation({
            kind: 'error',
            step: claimed.id,
            attempt: claimed.attempt,
            actor,
            time: new Date(now()),
            text,
            data: { reason: 'interrupted', tool_calls: outcome.toolCalls, tokens: outcome.tokens },
          }),
        ],
        transitions: [
          { step: claimed.id, to: 'failed' },
          { step: claimed.id, to: 'ready', attempt: claimed.attempt + 1 },
        ],
      };
    },
    now,
  );
}
