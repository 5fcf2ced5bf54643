import type { ChatProvider } from '../../providers/chat.js';
import type { DispatchRequest, StepDispatcher, StepOutcome } from '../reconciler/dispatcher.js';
import { runLlmStep, type LlmExecutorOptions } from './llm-executor.js';
import { runShellStep } from './shell-executor.js';

export interface HarnessDispatcherOptions {
  /** Where shell steps run and what LLM tools may touch. */
  readonly projectRoot: string;
  readonly provider?: ChatProvider | undefined;
  readonly shellTimeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly llm?: Omit<LlmExecutorOptions, 'provider' | 'projectRoot'>;
}

/**
 * The dispatcher `agentm run` uses: a step with `[cmd:: …]` runs as a command; a step with sub-steps and
 * no command is a group, done once its sub-steps are (it only becomes ready then); any other step goes
 * to the model.
 */
export function harnessDispatcher(options: HarnessDispatcherOptions): StepDispatcher {
  return {
    async dispatch(request: DispatchRequest): Promise<StepOutcome> {
      if (request.step.cmd) {
        return runShellStep(request, {
          projectRoot: options.projectRoot,
          ...(options.shellTimeoutMs ? { timeoutMs: options.shellTimeoutMs } : {}),
          ...(options.env ? { env: options.env } : {}),
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
        ...(options.provider ? { provider: options.provider } : {}),
      });
    },
  };
}
