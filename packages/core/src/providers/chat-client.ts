import { ProviderMalformedError } from './errors.js';
import { endpointUrl, postJson } from './http-json.js';
import type { OpenAIEndpointSettings } from './openai-embeddings.js';

/** A tool call the model asked for; `arguments` is the raw JSON text the model produced. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A message of a chat completion conversation (tool calls and tool results included). */
export type ChatWireMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ChatToolCall[] }
  | { readonly role: 'tool'; readonly content: string; readonly toolCallId: string; readonly name: string };

export interface ChatCompletionRequest {
  readonly messages: readonly ChatWireMessage[];
  /** Tools the model may call (name, description, JSON Schema of the arguments). */
  readonly tools?: readonly {
    readonly name: string;
    readonly description: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  }[];
  /** Ask for a JSON object as the answer (`response_format: json_object`). */
  readonly json?: boolean;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

export interface ChatCompletion {
  /** The first choice's text (`''` when it only called tools). */
  readonly content: string;
  readonly toolCalls: readonly ChatToolCall[];
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number; readonly totalTokens: number };
  readonly finishReason?: string;
}

export interface ChatClientSettings extends OpenAIEndpointSettings {
  readonly headers?: Readonly<Record<string, string>>;
}

function wireMessage(m: ChatWireMessage): Record<string, unknown> {
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

function parseCompletion(url: string, body: unknown): ChatCompletion {
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
 * The one OpenAI-compatible `/v1/chat/completions` client (OpenAI, Ollama, LM Studio, llama.cpp):
 * memory's distiller (`OpenAIChat`) and the harness's executor and planner (`OpenAiChatProvider`)
 * both talk through it. Failures are `ProviderError`s whose messages name the status in words
 * (`HTTP 503 (service unavailable)`, `timed out`), which the harness's classifier reads.
 */
export class OpenAICompatibleChatClient {
  readonly url: string;
  /** `<model>@<url>`: names the model and endpoint. */
  readonly id: string;

  constructor(readonly settings: ChatClientSettings) {
    this.url = endpointUrl(settings.baseUrl, 'chat/completions');
    this.id = `${settings.model}@${this.url}`;
  }

  /** The client itself, or a new one for these settings (what the adapters over it accept). */
  static of(settings: ChatClientSettings | OpenAICompatibleChatClient): OpenAICompatibleChatClient {
    return settings instanceof OpenAICompatibleChatClient ? settings : new OpenAICompatibleChatClient(settings);
  }

  /**
   * Sends one completion request and returns the first choice. `timeoutMs` (default: the settings',
   * else none) bounds the call; `signal` cancels it (its reason is thrown).
   */
  async complete(
    request: ChatCompletionRequest,
    options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined } = {},
  ): Promise<ChatCompletion> {
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
      timeoutMs: options.timeoutMs ?? this.settings.timeoutMs,
      signal: options.signal,
      headers: this.settings.headers,
    });
    return parseCompletion(this.url, answer);
  }
}
