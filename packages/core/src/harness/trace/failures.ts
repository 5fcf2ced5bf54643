import type { Observation } from '../observations/observation.js';
import type { PlanDocument } from '../plan/plan-document.js';
import { effectiveStatus } from '../plan/plan-edit.js';

/** A failed step and why, as the progress log recorded it. */
export interface StepFailure {
  readonly id: string;
  readonly title: string;
  /** The attempt that failed. */
  readonly attempt: number;
  /** What the log says (a command's `$ cmd`, its exit and output's tail; a model's stop reason…), whole. */
  readonly reason: string;
}

/** Why a plan failed: its failed steps, and the plan's own reason (a budget halt) when it has one. */
export interface PlanFailure {
  readonly steps: readonly StepFailure[];
  /** The reason the plan was closed with (`budget exceeded: steps`), when it says more than its steps. */
  readonly planReason?: string;
  /** Steps that will not run because a step they wait on failed or was cancelled. */
  readonly waiting: readonly string[];
}

/** `step "x" dispatch failed: ` is how the log heads a failed result; the reason is what follows. */
function withoutHead(step: string, text: string): string {
  const head = `step "${step}" dispatch failed: `;
  return text.startsWith(head) ? text.slice(head.length) : text;
}

/**
 * The failure of a plan from its document and log (pure): each failed step with the last error logged
 * for it (its failed attempt's, else any), the plan-level reason of its last move to `failed`, and the
 * steps left waiting behind a failed one. A step failed with nothing logged says so.
 */
export function explainFailure(doc: PlanDocument, log: readonly Observation[], planId: string): PlanFailure {
  const steps: StepFailure[] = [];
  for (const step of doc.steps) {
    if (effectiveStatus(doc, step) !== 'failed') continue;
    const errors = log.filter((o) => o.step === step.id && o.kind === 'error');
    const last = errors.filter((o) => o.attempt === step.attempt).at(-1) ?? errors.at(-1);
    steps.push({
      id: step.id,
      title: step.title,
      attempt: step.attempt,
      reason: last ? withoutHead(step.id, last.text) : 'no reason was logged (see agentm trace)',
    });
  }
  const closed = log.filter((o) => o.step === planId && o.kind === 'transition' && o.data['to'] === 'failed').at(-1);
  const planReason = closed?.text.replace(/^plan \S+ → failed: /, '');
  const failedIds = new Set(
    doc.steps.filter((s) => s.stored === 'failed' || s.stored === 'cancelled').map((s) => s.id),
  );
  const waiting = doc.steps
    .filter((s) => s.stored === 'pending' && s.deps.some((d) => failedIds.has(d)))
    .map((s) => s.id);
  // "one or more steps failed" only repeats the steps; a budget halt or a hand-written reason says more.
  const informative = planReason !== undefined && !/^one or more steps failed/.test(planReason);
  return { steps, waiting, ...(informative ? { planReason } : {}) };
}
