import type { ChatProvider } from '../../providers/chat.js';
import type { DispatchRequest, StepDispatcher, StepOutcome } from '../reconciler/dispatcher.js';
import type { CommandPolicy } from '../command-exec/command-policy.js';
import { formatArgv } from '../command-exec/command-text.js';
import { runLlmStep, type LlmExecutorOptions } from './llm-executor.js';
import { runShellStep } from './shell-executor.js';

export interface HarnessDispatcherOptions {
  /** Where shell steps run and what LLM tools may touch. */
  readonly projectRoot: string;
  readonly provider?: ChatProvider | undefined;
  readonly shellTimeoutMs?: number;
  /** Approval, environment and process-group records for every command (a step's and the model's). */
  readonly commands: CommandPolicy;
  readonly llm?: Omit<LlmExecutorOptions, 'provider' | 'projectRoot' | 'commands'>;
  /** Each `cmd::` step's output as it comes, with the step's id (for a live view; the log keeps the tail). */
  readonly onOutput?: ((step: string, text: string, stream: 'stdout' | 'stderr') => void) | undefined;
}

/**
 * Before a step runs (again): any process group an earlier attempt of it left running (its agentm was
 * killed mid-step) is ended and waited for, so a step never runs twice at once. Each one ended is
 * logged; one that cannot be ended fails this dispatch instead of starting a second copy.
 */
async function endEarlierAttempts(
  request: DispatchRequest,
  options: HarnessDispatcherOptions,
): Promise<string | undefined> {
  const records = options.commands.records?.forStep(options.projectRoot, request.planName, request.stepKey);
  if (!records) return undefined;
  for (const group of await records.reap()) {
    const command = formatArgv(group.argv);
    if (group.outcome === 'ended')
      await request.record({
        kind: 'note',
        text: `ended \`${command}\` (process group ${group.pgid}), still running from an earlier attempt of this step whose agentm had died`,
        data: { reason: 'orphan_ended', pgid: group.pgid },
      });
    if (group.outcome === 'cannot')
      return `an earlier attempt's command \`${command}\` (process group ${group.pgid}) is still running and could not be stopped: end it (kill -TERM -${group.pgid}) and retry the step`;
  }
  return undefined;
}

/**
 * The dispatcher `agentm run` uses: a step with `[cmd:: …]` runs as a command; a step with sub-steps and
 * no command is a group, done once its sub-steps are (it only becomes ready then); any other step goes
 * to the model. Every step first ends what an earlier, crashed attempt of it left running.
 */
export function harnessDispatcher(options: HarnessDispatcherOptions): StepDispatcher {
  return {
    async dispatch(request: DispatchRequest): Promise<StepOutcome> {
      const stuck = await endEarlierAttempts(request, options);
      if (stuck)
        return { status: 'failed', summary: stuck, toolCalls: 0, tokens: 0, data: { reason: 'orphan_running' } };
      if (request.step.cmd) {
        return runShellStep(request, {
          projectRoot: options.projectRoot,
          ...(options.shellTimeoutMs ? { timeoutMs: options.shellTimeoutMs } : {}),
          commands: options.commands,
          ...(options.onOutput
            ? {
                onOutput: (text: string, stream: 'stdout' | 'stderr') =>
                  options.onOutput!(request.step.id, text, stream),
              }
            : {}),
        });
      }
      if (request.step.children.length > 0) {
        return {
          status: 'done',
          summary: `all ${request.step.children.length} sub-step(s) are done`,
          toolCalls: 0,
          tokens: 0,
          tool: 'group',
        };
      }
      return runLlmStep(request, {
        ...options.llm,
        projectRoot: options.projectRoot,
        commands: options.commands,
        ...(options.provider ? { provider: options.provider } : {}),
      });
    },
  };
}
