import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, ChatToolCall } from './chat.js';
import { ProviderMalformedError } from './errors.js';
import { endpointUrl, postJson, type OpenAIEndpointSettings } from './http-json.js';

/** An OpenAI-compatible chat endpoint: base URL, model, key, a per-call bound, and extra headers. */
export interface OpenAIChatSettings extends OpenAIEndpointSettings {
  /** Extra headers (some gateways want them). */
  readonly headers?: Readonly<Record<string, string>>;
}

function wireMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, name: m.name, content: m.content };
  if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
    return {
      role: 'assistant',
      content: m.content,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

function parseCompletion(url: string, body: unknown): ChatResponse {
  const choice = (body as { choices?: unknown[] } | null)?.choices?.[0] as
    { message?: Record<string, unknown>; finish_reason?: string } | undefined;
  const message = Array.isArray((body as { choices?: unknown } | null)?.choices) ? choice?.message : undefined;
  if (!message || typeof message !== 'object') throw new ProviderMalformedError(url, 'no choices[0].message');
  const content = typeof message['content'] === 'string' ? message['content'] : '';
  const rawCalls = Array.isArray(message['tool_calls'])
    ? (message['tool_calls'] as Array<Record<string, unknown>>)
    : [];
  const toolCalls: ChatToolCall[] = rawCalls.map((c, i) => {
    const fn = (c['function'] ?? {}) as Record<string, unknown>;
    if (typeof fn['name'] !== 'string') throw new ProviderMalformedError(url, `tool_calls[${i}] has no function name`);
    const args = fn['arguments'];
    return {
      id: typeof c['id'] === 'string' && c['id'] !== '' ? c['id'] : `call_${i}`,
      name: fn['name'],
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
    };
  });
  const u = (body as { usage?: Record<string, unknown> }).usage;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    content,
    toolCalls,
    ...(u
      ? {
          usage: {
            promptTokens: num(u['prompt_tokens']),
            completionTokens: num(u['completion_tokens']),
            totalTokens: num(u['total_tokens']) || num(u['prompt_tokens']) + num(u['completion_tokens']),
          },
        }
      : {}),
    ...(typeof choice?.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
  };
}

/**
 * The `ChatProvider` for any OpenAI-compatible `/v1/chat/completions` endpoint (OpenAI, Ollama, LM Studio,
 * llama.cpp): memory's distiller and the harness's tool loop and planner all talk through it. Failures
 * are `ProviderError`s whose messages name the status in words (`HTTP 503 (service unavailable)`,
 * `timed out`), which the harness's classifier reads; an aborted signal rejects with its reason.
 */
export class OpenAICompatibleChat implements ChatProvider {
  readonly url: string;
  /** `openai-compatible <base URL> model=<model>`: what the harness records as the model of a step. */
  readonly name: string;

  constructor(readonly settings: OpenAIChatSettings) {
    this.url = endpointUrl(settings.baseUrl, 'chat/completions');
    this.name = `openai-compatible ${settings.baseUrl} model=${settings.model}`;
  }

  /** The configured per-call bound (`providers.chat.timeout_ms`), if any. */
  get timeoutMs(): number | undefined {
    return this.settings.timeoutMs;
  }

  /** Sends one completion request and returns the first choice; `settings.timeoutMs` (if any) bounds it. */
  async chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const body = {
      model: this.settings.model,
      messages: request.messages.map(wireMessage),
      ...(request.tools && request.tools.length > 0
        ? {
            tools: request.tools.map((t) => ({
              type: 'function',
              function: { name: t.name, description: t.description, parameters: t.parameters },
            })),
          }
        : {}),
      ...(request.json ? { response_format: { type: 'json_object' } } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    };
    const answer = await postJson(this.url, body, {
      apiKey: this.settings.apiKey,
      timeoutMs: this.settings.timeoutMs,
      signal,
      headers: this.settings.headers,
    });
    return parseCompletion(this.url, answer);
  }
}
