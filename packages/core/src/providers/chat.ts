/**
 * The one chat interface of AgentM. Memory's distiller (through `chatJson`), the harness's tool loop and
 * its planner all talk to a `ChatProvider`; core ships an OpenAI-compatible implementation
 * (`OpenAICompatibleChat`), the VS Code extension one over its Language Model API. Nothing above this
 * layer knows which one it talks to.
 */

/** A tool call the model asked for; `arguments` is the raw JSON text the model produced. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A message of the conversation: system, user, assistant (with its tool calls) or a tool's result. */
export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ChatToolCall[] }
  | { readonly role: 'tool'; readonly content: string; readonly toolCallId: string; readonly name: string };

/** A tool offered to the model: a name, what it does, and a JSON Schema for its arguments. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** Tools the model may call this turn (none: a text-only exchange). */
  readonly tools?: readonly ToolDefinition[];
  /** Ask for a JSON object as the answer (the planner's decomposition, the distiller). */
  readonly json?: boolean;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

export interface ChatUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

export interface ChatResponse {
  /** The model's text (`''` when it only called tools). */
  readonly content: string;
  readonly toolCalls: readonly ChatToolCall[];
  /** Token usage when the provider reports it (else the harness estimates ≈4 chars/token). */
  readonly usage?: ChatUsage;
  readonly finishReason?: string;
}

/**
 * One model behind a chat API.
 *
 * Contract: `chat` resolves with the first choice, or rejects with a `ProviderError` whose message a
 * classifier can read (the HTTP status in words and the provider's text: `HTTP 503 (service
 * unavailable)`, `rate limit`, `timed out`), so recall and consolidation degrade and the harness retries
 * what is retryable. Once `signal` aborts it gives up promptly and rejects with the signal's reason
 * (when that is an Error).
 */
export interface ChatProvider {
  /** Names the model and where it runs, for people and logs (`openai-compatible http://…/v1 model=…`, `vscode.lm copilot/gpt-4o`). */
  readonly name: string;
  /** The provider's own bound of one call in ms, when it has one (`chatJson` uses it instead of its default). */
  readonly timeoutMs?: number | undefined;
  chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
}
