import * as vscode from 'vscode';
import type { StepAction } from '@agentm/core/harness';
import { ExtensionError } from '../errors';
import type { PlanSource } from '../sources/types';
import { checkerFor, textResult, type NamedTool } from './tool-kit';

/** Who the progress log names for an update made by an agent through the tool. */
export const AGENT_ACTOR = 'vscode-agent';

export const STEP_UPDATE_TOOL = 'agentm_update_step';

export interface StepUpdateInput {
  readonly plan?: string;
  readonly step: string;
  readonly action: StepAction;
  readonly text?: string;
}

const VERB: Readonly<Record<StepAction, string>> = {
  start: 'Start',
  done: 'Mark done',
  failed: 'Mark failed',
  note: 'Add a note to',
};

/**
 * Step update: start a step, finish it (done, or failed with a reason), or log a note — the workspace's
 * `updateStep` (core's state machine under the plan's lock and compare-and-swap; a step `agentm run`
 * holds is refused), after the person confirms.
 */
export function stepUpdateTool(
  packageJSON: unknown,
  plans: PlanSource,
  onUpdated: () => void,
): NamedTool<StepUpdateInput> {
  const check = checkerFor<StepUpdateInput>(packageJSON, STEP_UPDATE_TOOL);
  const checked = (raw: unknown) => {
    const input = check(raw);
    if ((input.action === 'failed' || input.action === 'note') && !input.text?.trim())
      throw new ExtensionError(
        `${STEP_UPDATE_TOOL}: action "${input.action}" needs "text" (${input.action === 'failed' ? 'the reason it failed' : 'the note'}); call it again with text`,
      );
    return input;
  };
  return {
    name: STEP_UPDATE_TOOL,
    prepareInvocation(options) {
      const input = checked(options.input);
      const plan = input.plan ? `plan '${input.plan}'` : 'the active plan';
      return {
        invocationMessage: `${VERB[input.action]} step '${input.step}'`,
        confirmationMessages: {
          title: `${VERB[input.action]} step '${input.step}'?`,
          message: new vscode.MarkdownString(
            `${VERB[input.action]} step \`${input.step}\` of ${plan}${input.text ? `:\n\n> ${input.text.replace(/\n/g, '\n> ')}` : '.'}`,
          ),
        },
      };
    },
    async invoke(options) {
      const input = checked(options.input);
      const result = await plans.updateStep(
        { plan: input.plan, step: input.step, action: input.action, text: input.text },
        { actor: AGENT_ACTOR },
      );
      onUpdated();
      const moved =
        result.from === result.status ? `is still ${result.status}` : `went ${result.from} → ${result.status}`;
      const plan = result.planStatus ? ` The plan is now ${result.planStatus}.` : '';
      return textResult(
        `Step '${result.step}' of plan '${result.plan}' ${moved}${input.action === 'note' ? ' (note logged)' : ''}.${plan}`,
      );
    },
  };
}
