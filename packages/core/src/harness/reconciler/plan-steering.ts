/**
 * What a person does to a plan from a view besides the step updates (`step-update.ts`) and retries
 * (`retry-steps.ts`): cancel a step, cancel a plan, reopen one. Each is one compare-and-swap commit
 * through `mutatePlan` (under the plan's lock, checked by the state machine, logged in the progress file).
 */
import { PlanNotFoundError, PlanStatusChangeError } from '../errors.js';
import { makeObservation } from '../observations/observation.js';
import { findStep, type PlanDocument } from '../plan/plan-document.js';
import { effectiveStatus } from '../plan/plan-edit.js';
import { isTerminalPlanStatus } from '../plan/step-status.js';
import { mutatePlan, type MutationResult, type PlanChange } from './plan-mutation.js';
import type { PlanFiles } from './plan-files.js';
import { assertManualMove } from './step-update.js';

/**
 * Cancels one step (pending, ready, blocked, failed, or running by hand — never one an `agentm run`
 * claimed): the transition and, when given, the reason are logged; a cancelled last step settles the
 * plan. Throws `UnknownStepError`, `InvalidTransitionError` (a finished step, one a run holds),
 * `PlanNotFoundError`.
 */
export async function cancelStep(
  files: PlanFiles,
  actor: string,
  id: string,
  reason?: string,
  now: () => number = Date.now,
): Promise<MutationResult> {
  return mutateExisting(
    files,
    actor,
    (doc) => {
      const step = findStep(doc, id);
      assertManualMove(step, effectiveStatus(doc, step), 'cancelled', actor);
      const text = reason?.trim();
      const note = text
        ? [makeObservation({ kind: 'note', step: step.id, attempt: step.attempt, actor, time: new Date(now()), text })]
        : [];
      return { before: note, transitions: [{ step: step.id, to: 'cancelled' }], settle: true };
    },
    now,
  );
}

/**
 * Reopens a closed plan (`done`, `failed`, `cancelled` → `open`, so a run takes it up again) or cancels
 * an open one (→ `cancelled`: no run starts its steps; the steps keep their status). One frontmatter
 * line and one logged transition with `reason`. Throws `PlanStatusChangeError` for a change that would
 * change nothing, `PlanNotFoundError`.
 */
export async function setPlanStatus(
  files: PlanFiles,
  actor: string,
  to: 'open' | 'cancelled',
  reason: string,
  now: () => number = Date.now,
): Promise<MutationResult> {
  return mutateExisting(
    files,
    actor,
    (doc) => {
      const status = doc.meta.status ?? 'open';
      if (to === 'open' ? !isTerminalPlanStatus(status) : status === 'cancelled')
        throw new PlanStatusChangeError(files.name, status, to);
      return { planStatus: { status: to, reason } };
    },
    now,
  );
}

/** `mutatePlan` of a plan that must exist: no plan file is `PlanNotFoundError`. */
async function mutateExisting(
  files: PlanFiles,
  actor: string,
  decide: (doc: PlanDocument) => PlanChange,
  now: () => number,
): Promise<MutationResult> {
  const result = await mutatePlan(files, actor, decide, now);
  if (!result) throw new PlanNotFoundError(files.planLabel);
  return result;
}
