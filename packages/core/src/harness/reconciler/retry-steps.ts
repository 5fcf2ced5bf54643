import { PlanNotFoundError, RetryRefusedError, UnknownStepError } from '../errors.js';
import { effectiveStatus } from '../plan/plan-edit.js';
import { isTerminalPlanStatus } from '../plan/step-status.js';
import type { TransitionRequest } from '../plan/plan-edit.js';
import { mutatePlan } from './plan-mutation.js';
import type { PlanFiles } from './plan-files.js';

/** A step put back in the queue by `retrySteps`. */
export interface RetriedStep {
  readonly id: string;
  readonly title: string;
  /** The attempt the next run makes (the failed one plus 1). */
  readonly attempt: number;
}

export interface RetryResult {
  readonly steps: readonly RetriedStep[];
  /** Whether the plan was closed (`status: failed`) and is now open again. */
  readonly reopened: boolean;
}

/**
 * Puts failed steps back in the queue, as a person asks from `agentm retry` or VS Code's *Retry failed
 * step*: each `failed → ready` with its attempt bumped (the state machine refuses a retry that does not
 * bump it), a plan closed as failed reopened so a run picks them up, all in one CAS write with each
 * transition in the progress log under `actor`. All or nothing: an id that is not in the plan
 * (`UnknownStepError`) or a step that is not failed (`RetryRefusedError`) refuses the whole request.
 * No plan file → `PlanNotFoundError`.
 */
export async function retrySteps(files: PlanFiles, actor: string, ids: readonly string[]): Promise<RetryResult> {
  const wanted = [...new Set(ids)];
  let retried: RetriedStep[] = [];
  let reopened = false;
  const result = await mutatePlan(files, actor, (doc) => {
    const transitions: TransitionRequest[] = [];
    retried = [];
    for (const id of wanted) {
      const step = doc.steps.find((s) => s.id === id);
      if (!step)
        throw new UnknownStepError(
          id,
          `plan '${files.name}' has no step '${id}' (its steps: ${doc.steps.map((s) => s.id).join(', ') || 'none'})`,
        );
      const status = effectiveStatus(doc, step);
      if (status !== 'failed') throw new RetryRefusedError(files.name, id, status);
      transitions.push({ step: id, to: 'ready', attempt: step.attempt + 1 });
      retried.push({ id, title: step.title, attempt: step.attempt + 1 });
    }
    reopened = isTerminalPlanStatus(doc.meta.status);
    const reopen = reopened
      ? {
          planStatus: {
            status: 'open' as const,
            reason: `step${wanted.length > 1 ? 's' : ''} ${wanted.join(', ')} retried`,
          },
        }
      : {};
    return { transitions, ...reopen };
  });
  if (!result) throw new PlanNotFoundError(files.planLabel);
  return { steps: retried, reopened };
}
