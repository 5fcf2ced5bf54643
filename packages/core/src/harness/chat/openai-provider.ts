import { endpointUrl } from '../../providers/http-json.js';
import { OpenAICompatibleChatClient } from '../../providers/chat-client.js';
import type { HarnessChatProvider, ChatRequest, ChatResponse } from './chat-provider.js';

export interface OpenAiChatOptions {
  /** `http://localhost:11434/v1`, `https://api.openai.com/v1`; a bare origin gets `/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Extra headers (some gateways want them). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A bound of its own per call (default none: the harness's per-call deadline cancels through the signal). */
  readonly timeoutMs?: number;
}

/** The chat completions URL for a base URL: `<base>/chat/completions`, `/v1` added to a base that does not end in it. */
export function chatCompletionsUrl(baseUrl: string): string {
  return endpointUrl(baseUrl, 'chat/completions');
}

/**
 * The harness's chat provider for any OpenAI-compatible `/v1/chat/completions` endpoint (OpenAI,
 * Ollama, LM Studio, llama.cpp): a `HarnessChatProvider` over memory's `OpenAICompatibleChatClient`,
 * the one client both layers use. Its failures are the client's `ProviderError`s, whose messages the
 * error classifier reads (`HTTP 503 (service unavailable)`, `timed out`, `malformed answer`); an
 * aborted signal rejects with the signal's reason.
 */
export class OpenAiChatProvider implements HarnessChatProvider {
  readonly name: string;
  readonly url: string;
  readonly client: OpenAICompatibleChatClient;

  constructor(options: OpenAiChatOptions | OpenAICompatibleChatClient) {
    this.client = OpenAICompatibleChatClient.of(options);
    this.url = this.client.url;
    this.name = `openai-compatible ${this.client.settings.baseUrl} model=${this.client.settings.model}`;
  }

  /** The options it was made with. */
  get options(): OpenAiChatOptions {
    const s = this.client.settings;
    return {
      baseUrl: s.baseUrl,
      model: s.model,
      ...(s.apiKey ? { apiKey: s.apiKey } : {}),
      ...(s.headers ? { headers: s.headers } : {}),
    };
  }

  chat(request: ChatRequest, signal: AbortSignal): Promise<ChatResponse> {
    return this.client.complete(request, { signal });
  }
}
