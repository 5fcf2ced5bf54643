import * as vscode from 'vscode';
import type { NotificationAction } from '../funnel';
import { failureHeadline } from '../sources/plan-facts';
import type { RunOutcome } from '../sources/types';
import type { CommandContext } from './context';

export const RETRY_STEP = 'Retry step';
export const SHOW_LOG = 'Show log';
export const CONFIGURE_MODEL = 'Configure model';

/** What a failed run's notification says: which step failed and why (its reason from the progress log). */
export function failedRunText(plan: string, outcome: RunOutcome): string {
  const [first, ...more] = outcome.failed;
  const name = outcome.title === plan ? `plan '${plan}'` : `plan '${outcome.title}' (${plan})`;
  if (!first) return `AgentM: ${name} failed: ${outcome.summary}`;
  const reason = first.reason ? failedReason(first.reason) : 'no reason was logged';
  const also = more.length ? ` (also failed: ${more.map((s) => `'${s.id}'`).join(', ')})` : '';
  // The model's own error may already name the settings; else the notification says where to look.
  const model =
    outcome.modelCause && !reason.includes('agentm.providers')
      ? ' — set up a model: a VS Code language model provider, or agentm.providers.baseUrl and chatModel'
      : '';
  return `AgentM: ${name} failed at step '${first.id}' (${first.title}): ${reason}${also}${model}`;
}

function failedReason(reason: string): string {
  return failureHeadline(reason) || 'no reason was logged';
}

/**
 * A failed run is an error notification naming the step and its reason, with the next steps as buttons:
 * *Retry step* (the failed step back to ready with its attempt bumped, then the plan runs again),
 * *Show log* (the plan's progress log, at its end), and *Configure model* when a model was the cause.
 */
export function offerFailedRun(ctx: CommandContext, plan: string, outcome: RunOutcome): void {
  const actions: NotificationAction[] = [];
  if (outcome.failed.length > 0)
    actions.push({
      title: RETRY_STEP,
      run: async () => {
        const only = outcome.failed.length === 1 ? [outcome.failed[0]!.id] : [];
        const retried = (await vscode.commands.executeCommand('agentm.retryStep', plan, ...only)) as
          { ok: boolean; value?: unknown } | undefined;
        if (retried?.ok && retried.value !== undefined) await vscode.commands.executeCommand('agentm.runPlan', plan);
      },
    });
  actions.push({ title: SHOW_LOG, run: () => vscode.commands.executeCommand('agentm.openProgress', plan) });
  if (outcome.modelCause)
    actions.push({
      title: CONFIGURE_MODEL,
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'agentm.providers'),
    });
  ctx.funnel.offer('error', failedRunText(plan, outcome), actions);
}
