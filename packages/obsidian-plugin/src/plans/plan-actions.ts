import { Notice, type App } from 'obsidian';
import { StalePlanError, type StepSummary } from '@agentm/core/harness';
import { type PlanDetail, type PlanHandle } from '@agentm/core';
import { displayError } from '../errors.js';
import { askReason } from '../ui/reason-modal.js';

/** What a person can do to a step from the plan view. */
export type StepAction = 'done' | 'failed' | 'retry' | 'cancel';
/** What a person can do to a plan. */
export type PlanAction = 'cancel-plan' | 'reopen';

export const STEP_ACTION_TEXT: Readonly<Record<StepAction, string>> = {
  done: 'Mark done',
  failed: 'Mark failed…',
  retry: 'Retry',
  cancel: 'Cancel step…',
};

/**
 * The buttons a step gets in its status (core's transitions decide; this only leaves out what they
 * would refuse anyway): a ready or running step can be finished or cancelled, a failed one retried or
 * cancelled, a waiting one cancelled. None for a step an `agentm run` holds (only that run records it),
 * nor for a finished one.
 */
export function stepActions(step: StepSummary): StepAction[] {
  if (step.claimedByRun) return [];
  if (step.status === 'ready' || step.status === 'running') return ['done', 'failed', 'cancel'];
  if (step.status === 'failed') return ['retry', 'cancel'];
  if (step.status === 'pending' || step.status === 'blocked') return ['cancel'];
  return [];
}

/** The plan actions for its status: reopen a closed plan, cancel an open one. */
export function planActions(detail: PlanDetail): PlanAction[] {
  const status = detail.summary.status;
  return status === 'done' || status === 'failed' || status === 'cancelled' ? ['reopen'] : ['cancel-plan'];
}

/** What an action needs: the plan as drawn (its hash), who acts, and how to show the outcome. */
export interface ActionContext {
  readonly app: App;
  readonly actor: string;
  readonly handle: PlanHandle;
  readonly detail: PlanDetail;
}

/**
 * Runs a step action through core (after asking for the reason it is logged with), held to the plan
 * as drawn: when an agent wrote the plan since, nothing is written and the user is told to look again.
 * Resolves once it is done, refused or given up (a lock wait that ran out is reported the same way).
 */
export async function runStepAction(ctx: ActionContext, step: StepSummary, action: StepAction): Promise<void> {
  const reason = await reasonFor(ctx.app, step, action);
  if (reason === undefined) return;
  const options = { actor: ctx.actor, expectHash: ctx.detail.hash };
  await settle(ctx, `could not change step "${step.id}"`, async () => {
    if (action === 'retry') {
      const [retried] = (await ctx.handle.retry([step.id], options)).steps;
      return `step "${step.id}" goes again (attempt ${retried?.attempt ?? step.attempt + 1}).`;
    }
    if (action === 'cancel') {
      await ctx.handle.cancelStep(step.id, reason, options);
      return `step "${step.id}" cancelled.`;
    }
    await ctx.handle.update({ step: step.id, action, text: reason }, options);
    return action === 'done' ? `step "${step.id}" done.` : `step "${step.id}" marked failed.`;
  });
}

/** Reopens or cancels the plan (the reason is logged with it). */
export async function runPlanAction(ctx: ActionContext, action: PlanAction): Promise<void> {
  const name = ctx.detail.title;
  const reason =
    action === 'reopen'
      ? 'reopened in Obsidian'
      : await askReason(ctx.app, {
          title: 'Cancel this plan?',
          message: `No run will start the steps of "${name}" until it is reopened; the steps keep their status.`,
          confirmText: 'Cancel plan',
          required: false,
        });
  if (reason === undefined) return;
  const options = { actor: ctx.actor, expectHash: ctx.detail.hash };
  await settle(ctx, `could not change plan "${name}"`, async () => {
    if (action === 'reopen') {
      await ctx.handle.setStatus('open', reason, options);
      return `plan "${name}" reopened.`;
    }
    await ctx.handle.setStatus('cancelled', reason || 'cancelled in Obsidian', options);
    return `plan "${name}" cancelled.`;
  });
}

function reasonFor(app: App, step: StepSummary, action: StepAction): Promise<string | undefined> {
  if (action === 'failed')
    return askReason(app, {
      title: `Mark step "${step.id}" failed?`,
      message: 'The reason is logged with the step; retry it later from the plan view or with agentm retry.',
      confirmText: 'Mark failed',
      required: true,
    });
  if (action === 'cancel')
    return askReason(app, {
      title: `Cancel step "${step.id}"?`,
      message: 'A cancelled step never runs, and the steps that wait for it will not run either.',
      confirmText: 'Cancel step',
      required: false,
    });
  return Promise.resolve('');
}

async function settle(ctx: ActionContext, failure: string, act: () => Promise<string>): Promise<void> {
  try {
    new Notice(`AgentM: ${await act()}`);
  } catch (error) {
    if (error instanceof StalePlanError)
      new Notice(
        `AgentM: "${ctx.detail.title}" changed since the plan view showed it (an agent wrote it), so nothing was changed. The view now shows the new version: choose again.`,
      );
    else displayError(error, failure);
  }
}
