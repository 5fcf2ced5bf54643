/**
 * The chat seam. Core ships an OpenAI-compatible HTTP implementation; the VS Code extension supplies
 * one over its Language Model API (`vscode.lm`). Nothing in the harness knows which one it talks to.
 */

import type { ChatToolCall, ChatWireMessage } from '../../providers/chat-client.js';

/** A tool call the model asked for (the shared chat client's wire type). */
export type ToolCall = ChatToolCall;

/** A message of the conversation: system, user, assistant (with its tool calls) or a tool's result. */
export type HarnessChatMessage = ChatWireMessage;

/** A tool offered to the model: a name, what it does, and a JSON Schema for its arguments. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ChatRequest {
  readonly messages: readonly HarnessChatMessage[];
  /** Tools the model may call this turn (none: a text-only exchange). */
  readonly tools?: readonly ToolDefinition[];
  /** Ask for a JSON object as the answer (the planner's decomposition). */
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
  /** The model's text ('' when it only called tools). */
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  /** Token usage when the provider reports it (else the loop estimates ≈4 chars/token). */
  readonly usage?: ChatUsage;
  readonly finishReason?: string;
}

/**
 * One model behind a chat API. `chat` must reject with an Error whose message a classifier can read
 * (include the HTTP status and provider text: `503 service unavailable`, `429 rate limit`, `timed out`),
 * and must give up promptly when `signal` aborts.
 */
export interface HarnessChatProvider {
  /** For messages and observations (`openai-compatible http://…/v1 model=…`, `vscode.lm copilot/gpt-4o`). */
  readonly name: string;
  chat(request: ChatRequest, signal: AbortSignal): Promise<ChatResponse>;
}
