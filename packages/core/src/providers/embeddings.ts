/**
 * The one embeddings interface: core's OpenAI-compatible client (`OpenAIEmbeddings`) implements it, and
 * a host may hand in its own. Recall and consolidation degrade to lexical similarity when it fails.
 */

/** Turns texts into vectors (one per text, same order, same dimension). Throws a `ProviderError`. */
export interface EmbeddingProvider {
  /** Names the model (and endpoint): a vector cache is only valid for one id. */
  readonly id: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
