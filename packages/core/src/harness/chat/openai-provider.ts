import { HarnessError } from '../errors.js';
import type { HarnessChatMessage, HarnessChatProvider, ChatRequest, ChatResponse, ToolCall } from './chat-provider.js';

export interface OpenAiChatOptions {
  /** `http://localhost:11434/v1`, `https://api.openai.com/v1`; a bare origin gets `/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Extra headers (some gateways want them). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The phrase each HTTP status carries, so the error classifier (ordered substring buckets) types it. */
const STATUS_PHRASE: Readonly<Record<number, string>> = {
  400: 'invalid argument',
  401: 'not authorized',
  403: 'forbidden',
  404: 'not found',
  408: 'timed out',
  429: 'rate limit',
  500: 'internal server error',
  502: 'service unavailable',
  503: 'service unavailable',
  504: 'timed out',
  529: 'overloaded',
};

/** The chat completions URL for a base URL: `<base>/chat/completions`, `/v1` added to a bare origin. */
export function chatCompletionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = `${path === '' ? '/v1' : path}/chat/completions`;
  return url.toString();
}

function wireMessage(m: HarnessChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, name: m.name, content: m.content };
  if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
    return { role: 'assistant', content: m.content, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) };
  }
  return { role: m.role, content: m.content };
}

class MalformedResponseError extends HarnessError {
  constructor(url: string, detail: string) {
    super(`chat endpoint ${url} returned a malformed response: ${detail}`, { code: 'ECHATMALFORMED' });
  }
}

function parseResponse(url: string, body: unknown): ChatResponse {
  const choice = (body as { choices?: unknown[] } | null)?.choices?.[0] as { message?: Record<string, unknown>; finish_reason?: string } | undefined;
  const message = choice?.message;
  if (!message || typeof message !== 'object') throw new MalformedResponseError(url, 'no choices[0].message');
  const content = typeof message['content'] === 'string' ? message['content'] : '';
  const rawCalls = Array.isArray(message['tool_calls']) ? (message['tool_calls'] as Array<Record<string, unknown>>) : [];
  const toolCalls: ToolCall[] = rawCalls.map((c, i) => {
    const fn = (c['function'] ?? {}) as Record<string, unknown>;
    if (typeof fn['name'] !== 'string') throw new MalformedResponseError(url, `tool_calls[${i}] has no function name`);
    const args = fn['arguments'];
    return { id: typeof c['id'] === 'string' && c['id'] !== '' ? c['id'] : `call_${i}`, name: fn['name'], arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
  });
  const u = (body as { usage?: Record<string, unknown> }).usage;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    content,
    toolCalls,
    ...(u ? { usage: { promptTokens: num(u['prompt_tokens']), completionTokens: num(u['completion_tokens']), totalTokens: num(u['total_tokens']) || num(u['prompt_tokens']) + num(u['completion_tokens']) } } : {}),
    ...(typeof choice?.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
  };
}

/** A chat provider for any OpenAI-compatible `/v1/chat/completions` endpoint (OpenAI, Ollama, LM Studio, llama.cpp). */
export class OpenAiChatProvider implements HarnessChatProvider {
  readonly name: string;
  readonly url: string;

  constructor(readonly options: OpenAiChatOptions) {
    this.url = chatCompletionsUrl(options.baseUrl);
    this.name = `openai-compatible ${options.baseUrl} model=${options.model}`;
  }

  async chat(request: ChatRequest, signal: AbortSignal): Promise<ChatResponse> {
    const body = {
      model: this.options.model,
      messages: request.messages.map(wireMessage),
      ...(request.tools && request.tools.length > 0
        ? { tools: request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) }
        : {}),
      ...(request.json ? { response_format: { type: 'json_object' } } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    };
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}), ...this.options.headers },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error(`chat request to ${this.url} timed out`);
      const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? '';
      throw new Error(`cannot reach chat endpoint ${this.url}: ${code || (error as Error).message} (service unavailable)`, { cause: error });
    }
    const text = await response.text().catch((error: unknown) => {
      throw signal.aborted && signal.reason instanceof Error ? signal.reason : error;
    });
    if (!response.ok) {
      const phrase = STATUS_PHRASE[response.status] ?? (response.status >= 500 ? 'service unavailable' : 'invalid argument');
      throw new Error(`chat endpoint ${this.url} answered ${response.status} (${phrase}): ${text.slice(0, 300)}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new MalformedResponseError(this.url, `not JSON: ${JSON.stringify(text.slice(0, 120))}`);
    }
    return parseResponse(this.url, json);
  }
}
