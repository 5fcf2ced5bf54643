/**
 * The provider interfaces the engine depends on. Small on purpose: the harness's chat client and the
 * VS Code Language Model API can implement the same shapes.
 */

/** Turns texts into vectors (one per text, same order, same dimension). Throws a `ProviderError`. */
export interface EmbeddingProvider {
  /** Names the model (and endpoint): a vector cache is only valid for one id. */
  readonly id: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** Answers a conversation with one JSON value. Throws a `ProviderError` (incl. malformed JSON). */
export interface ChatProvider {
  readonly id: string;
  completeJson(messages: readonly ChatMessage[]): Promise<unknown>;
}
