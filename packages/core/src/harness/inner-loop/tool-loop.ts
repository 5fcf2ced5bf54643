import type { ChatMessage, ChatProvider, ChatToolCall, ToolDefinition } from '../../providers/chat.js';
import type { ObservationValue } from '../observations/observation.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import { estimateTokens, trimWindow } from './context-trim.js';
import { idempotencyKeyFor, MapIdempotencyStore, type IdempotencyStore } from './idempotency.js';
import { callSignature, LoopDetector } from './loop-detector.js';
import { DEFAULT_RETRY_POLICY, executeWithRetry, type RetryPolicy } from './retry.js';
import type { StopReason } from './stop-reasons.js';
import { structuredToolError, toolErrorJson, type StructuredToolError } from '../tools/tool-errors.js';
import { scopeToolNames } from './tool-scope.js';

export const DEFAULT_MAX_ITERATIONS = 120;
export const DEFAULT_MAX_CALLS_PER_TURN = 8;
/** Model calls get longer than tool calls: local models can be slow to answer. */
export const DEFAULT_MODEL_RETRY: RetryPolicy = { ...DEFAULT_RETRY_POLICY, perCallTimeoutMs: 120_000 };
export const OUT_OF_SCOPE_RESULT = '{"isError":true,"error":"tool is outside this turn\'s allowed scope"}';

/** Something the loop wants logged (each becomes an observation of the step). */
export interface LoopEvent {
  readonly kind: 'tool_result' | 'error' | 'note';
  readonly text: string;
  readonly data: Readonly<Record<string, ObservationValue | undefined>>;
}

export interface ToolLoopOptions {
  readonly provider: ChatProvider;
  /** The opening messages (system prompt first: it is the pinned head). */
  readonly messages: readonly ChatMessage[];
  /** Every tool the loop knows; only `allowed` ones are offered (role scoping). */
  readonly tools: ReadonlyMap<string, Tool>;
  readonly allowed?: readonly string[];
  readonly toolContext: Omit<ToolContext, 'signal'>;
  /** The step's idempotency key (the base of each call's key). */
  readonly stepKey: string;
  readonly idempotency?: IdempotencyStore;
  readonly retry?: RetryPolicy;
  readonly modelRetry?: RetryPolicy;
  readonly maxIterations?: number;
  readonly maxCallsPerTurn?: number;
  readonly loopThreshold?: number;
  /** Context window budget in tokens (≈4 chars/token); 0 → no trimming. */
  readonly contextTokens?: number;
  /** Remaining plan budget (0 = unlimited). */
  readonly budget?: { readonly toolCalls: number; readonly tokens: number };
  readonly onEvent?: (event: LoopEvent) => Promise<void> | void;
  readonly signal: AbortSignal;
}

export interface ToolLoopResult {
  readonly stopReason: StopReason;
  /** The model's last text. */
  readonly text: string;
  readonly toolCalls: number;
  readonly tokens: number;
  readonly iterations: number;
  readonly error?: StructuredToolError;
  /** The tool whose repetition tripped the loop detector. */
  readonly loopTool?: string;
}

const clamp = (v: number | undefined, dflt: number, max: number) =>
  v === undefined || v <= 0 ? dflt : Math.min(v, max);
const short = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The hardened tool-calling turn (memQL §5): the model is called (with retry and a deadline) until it
 * answers without tool calls, or a named stop ends the turn. Each call is checked by the loop detector
 * before any cache; calls outside the role's scope are refused without running; unknown tools get a
 * `not_found` error; tool failures reach the model as structured JSON; retryable ones are retried with
 * backoff; successful results are remembered by idempotency key and never re-run for the same key;
 * old turns are trimmed to the context budget (pinned head + live tail).
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult> {
  const maxIterations = clamp(options.maxIterations, DEFAULT_MAX_ITERATIONS, 200);
  const maxCalls = clamp(options.maxCallsPerTurn, DEFAULT_MAX_CALLS_PER_TURN, 12);
  const offered = new Set(scopeToolNames([...options.tools.keys()], options.allowed));
  const definitions: ToolDefinition[] = [...offered].map((n) => options.tools.get(n)!.definition);
  const detector = new LoopDetector(options.loopThreshold);
  const cache = new Map<string, string>();
  const store = options.idempotency ?? new MapIdempotencyStore();
  const messages: ChatMessage[] = [...options.messages];
  const emit = async (e: LoopEvent) => void (await options.onEvent?.(e));
  let tokens = 0;
  let toolCalls = 0;
  let text = '';
  const end = async (
    stopReason: StopReason,
    iterations: number,
    extra: Partial<ToolLoopResult> = {},
  ): Promise<ToolLoopResult> => {
    await emit({
      kind: 'note',
      text: `turn ended: ${stopReason}${extra.error ? ` (${extra.error.type}: ${extra.error.message})` : ''}`,
      data: { stop_reason: stopReason, iterations, calls: toolCalls, llm_tokens: tokens, tool: extra.loopTool },
    });
    return { stopReason, text, toolCalls, tokens, iterations, ...extra };
  };

  const runCall = async (call: ChatToolCall): Promise<string> => {
    if (!offered.has(call.name)) {
      if (options.tools.has(call.name)) return OUT_OF_SCOPE_RESULT;
      return toolErrorJson(structuredToolError('not_found', `tool "${call.name}" not found`));
    }
    const cacheKey = `${call.name}\n${call.arguments}`;
    const cached = cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const idem = idempotencyKeyFor(options.stepKey, call.name, call.arguments);
    const remembered = store.get(idem);
    if (remembered !== undefined) return remembered;
    const tool = options.tools.get(call.name)!;
    toolCalls++;
    const result = await executeWithRetry(
      (signal) => tool.run(call.arguments, { ...options.toolContext, signal }),
      options.retry ?? DEFAULT_RETRY_POLICY,
      options.signal,
    );
    // tool_calls 0: the step's result observation carries this call in its count (the trace and the budget add counts).
    const data = { tool: call.name, idem, attempts: result.attempts, args: short(call.arguments, 200), tool_calls: 0 };
    if (result.ok) {
      store.put(idem, result.value);
      cache.set(cacheKey, result.value);
      await emit({ kind: 'tool_result', text: `${call.name} → ${short(result.value.replace(/\s+/g, ' '))}`, data });
      return result.value;
    }
    const json = toolErrorJson(result.error);
    cache.set(cacheKey, json);
    await emit({
      kind: 'error',
      text: `${call.name} failed: ${result.error.type}: ${result.error.message}`,
      data: {
        ...data,
        error_type: result.error.type,
        retryable: String(result.error.retryable),
        user_fixable: String(result.error.userFixable),
      },
    });
    return json;
  };

  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    const { window, dropped } = options.contextTokens
      ? trimWindow(messages, options.contextTokens, (summary) => ({ role: 'system' as const, content: summary }))
      : { window: messages, dropped: 0 };
    if (dropped > 0)
      await emit({
        kind: 'note',
        text: `context trimmed: ${dropped} earlier message(s) dropped`,
        data: { dropped, max_tokens: options.contextTokens },
      });
    const answer = await executeWithRetry(
      (signal) =>
        options.provider.chat({ messages: window, ...(definitions.length > 0 ? { tools: definitions } : {}) }, signal),
      options.modelRetry ?? DEFAULT_MODEL_RETRY,
      options.signal,
    );
    if (!answer.ok) return end('hard_error', iteration, { error: answer.error });
    const response = answer.value;
    tokens +=
      response.usage?.totalTokens ||
      window.reduce((n, m) => n + estimateTokens(m.content), 0) + estimateTokens(response.content);
    text = response.content;
    if (response.toolCalls.length === 0) return end(definitions.length > 0 ? 'respondToUser' : 'text_only', iteration);
    if (options.budget && options.budget.tokens > 0 && tokens >= options.budget.tokens)
      return end('budget_exhausted', iteration);
    const calls = response.toolCalls.slice(0, maxCalls);
    const looping = calls.find((c) => detector.observe(callSignature(c.name, c.arguments)));
    if (looping) return end('loop_detected', iteration, { loopTool: looping.name });
    messages.push({ role: 'assistant', content: response.content, toolCalls: calls });
    const results = await Promise.all(calls.map(runCall));
    calls.forEach((call, i) =>
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: results[i]! }),
    );
    if (options.budget && options.budget.toolCalls > 0 && toolCalls >= options.budget.toolCalls)
      return end('budget_exhausted', iteration);
  }
  return end('max_iterations', maxIterations);
}
