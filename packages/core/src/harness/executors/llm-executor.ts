import type { ChatProvider } from '../../providers/chat.js';
import { NO_PROVIDER_HINT } from '../../providers/settings.js';
import { runToolLoop, type ToolLoopOptions } from '../inner-loop/tool-loop.js';
import { stopReasonSucceeded } from '../inner-loop/stop-reasons.js';
import type { DispatchRequest, StepOutcome } from '../reconciler/dispatcher.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import { pickSeedRole, roleForStep, rolePrompt, SEED_ROLES, type Role } from '../tools/roles.js';
import type { Tool } from '../tools/tool.js';
import type { CommandPolicy } from '../command-exec/command-policy.js';

const SUMMARY_CHARS = 1_500;

export interface LlmExecutorOptions {
  /** The model; undefined → every LLM step fails with a message naming the configuration variables. */
  readonly provider?: ChatProvider | undefined;
  readonly projectRoot: string;
  /** What `run_command` goes through (approval, environment, records); absent → `run_command` is refused. */
  readonly commands?: CommandPolicy;
  readonly tools?: ReadonlyMap<string, Tool>;
  readonly roles?: readonly Role[];
  /** Loop tuning (retry policies, iteration caps, context budget). */
  readonly loop?: Partial<
    Pick<
      ToolLoopOptions,
      'retry' | 'modelRetry' | 'maxIterations' | 'maxCallsPerTurn' | 'loopThreshold' | 'contextTokens'
    >
  >;
}

/** What the model is told about the step: the plan's goal, where it is, the step and its notes. */
export function stepPrompt(request: DispatchRequest): string {
  const { plan, step } = request;
  return [
    plan.meta.goal ? `Plan goal: ${plan.meta.goal}` : undefined,
    step.headings.length > 0 ? `Section: ${step.headings.join(' › ')}` : undefined,
    `Your step: ${step.title}`,
    step.details ? `Notes:\n${step.details}` : undefined,
    'When you are done, answer with a short summary of what you did or found.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Runs a step through the model: the role (`[role:: …]`, else picked from the step's words) gives the
 * system prompt and the tool set; the hardened loop does the rest. Each tool result and the turn's stop
 * reason are recorded as observations. Answered → done; any other stop → failed, naming the reason.
 */
export async function runLlmStep(request: DispatchRequest, options: LlmExecutorOptions): Promise<StepOutcome> {
  if (!options.provider)
    return {
      status: 'failed',
      summary: `step "${request.step.id}" needs a model: ${NO_PROVIDER_HINT}`,
      toolCalls: 0,
      tokens: 0,
      tool: 'llm',
    };
  const tools = options.tools ?? BUILTIN_TOOLS;
  // A role the planner upgraded for this step brings the domains and tools it gained ([domains:: …], [tools:: …]).
  const role = roleForStep(
    pickSeedRole(request.step.role, `${request.step.title}\n${request.step.details}`, options.roles ?? SEED_ROLES),
    request.step.fields,
    new Set(tools.keys()),
  );
  const goal = request.step.details ? `${request.step.title}: ${request.step.details}` : request.step.title;
  const domains = role.upgraded ? `\nYour knowledge domains for this step: ${role.domains.join(', ')}.` : '';
  const system = `${rolePrompt(role, goal)}${domains}\nThe project root is the directory tool paths are relative to.`;
  const result = await runToolLoop({
    ...options.loop,
    provider: options.provider,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: stepPrompt(request) },
    ],
    tools,
    allowed: role.tools,
    toolContext: {
      projectRoot: options.projectRoot,
      ...(options.commands
        ? {
            commands: {
              gate: options.commands.gate,
              env: options.commands.env,
              track: options.commands.records?.forStep(options.projectRoot, request.planName, request.stepKey),
              secrets: options.commands.secrets,
              step: request.step.id,
            },
          }
        : {}),
    },
    stepKey: request.stepKey,
    budget: request.remaining,
    signal: request.signal,
    onEvent: (e) => request.record(e),
  });
  const text = result.text.trim().slice(0, SUMMARY_CHARS);
  const data = { stop_reason: result.stopReason, role: role.slug, model: options.provider.name };
  if (stopReasonSucceeded(result.stopReason))
    return { status: 'done', summary: text, toolCalls: result.toolCalls, tokens: result.tokens, tool: 'llm', data };
  const why = result.error
    ? `${result.error.type}: ${result.error.message}`
    : result.stopReason === 'loop_detected'
      ? `the model repeated the same ${result.loopTool} call`
      : result.stopReason === 'budget_exhausted'
        ? 'the plan budget ran out'
        : `no answer after ${result.iterations} iterations`;
  return {
    status: 'failed',
    summary: `stopped (${result.stopReason}): ${why}${text ? `\n${text}` : ''}`,
    toolCalls: result.toolCalls,
    tokens: result.tokens,
    tool: 'llm',
    data,
  };
}
