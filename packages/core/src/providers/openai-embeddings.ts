import { EmbeddingDimensionError, ProviderMalformedError } from './errors.js';
import type { EmbeddingProvider } from './embeddings.js';
import { endpointUrl, postJson, type OpenAIEndpointSettings } from './http-json.js';

export interface OpenAIEmbeddingsSettings extends OpenAIEndpointSettings {
  /** Expected vector length; when absent, the first answer fixes it for this client. */
  readonly dimensions?: number | undefined;
}

/** An OpenAI-compatible `/v1/embeddings` client. */
export class OpenAIEmbeddings implements EmbeddingProvider {
  readonly id: string;
  readonly url: string;
  #dimensions: number | undefined;

  constructor(private readonly settings: OpenAIEmbeddingsSettings) {
    this.url = endpointUrl(settings.baseUrl, 'embeddings');
    this.id = `${settings.model}@${this.url}`;
    this.#dimensions = settings.dimensions;
  }

  /**
   * One vector per text, in order. Throws `ProviderHttpError`, `ProviderTimeoutError`,
   * `ProviderUnreachableError`, `ProviderMalformedError` (not `{data: [{embedding: number[]}]}`, wrong
   * count, non-finite numbers) or `EmbeddingDimensionError`.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const answer = await postJson(
      this.url,
      { model: this.settings.model, input: texts },
      { apiKey: this.settings.apiKey, timeoutMs: this.settings.timeoutMs ?? 15_000 },
    );
    const data = (answer as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new ProviderMalformedError(this.url, 'no `data` array');
    if (data.length !== texts.length)
      throw new ProviderMalformedError(this.url, `${data.length} embeddings for ${texts.length} inputs`);
    const out = new Array<Float32Array>(texts.length);
    data.forEach((item: unknown, position) => {
      const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
      if (
        !Array.isArray(embedding) ||
        embedding.length === 0 ||
        !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        throw new ProviderMalformedError(this.url, `item ${position} has no numeric \`embedding\``);
      }
      const at =
        typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < texts.length ? index : position;
      this.#dimensions ??= embedding.length;
      if (embedding.length !== this.#dimensions)
        throw new EmbeddingDimensionError(this.url, this.#dimensions, embedding.length);
      out[at] = Float32Array.from(embedding as number[]);
    });
    if (out.some((v) => v === undefined)) throw new ProviderMalformedError(this.url, 'duplicate `index` values');
    return out;
  }
}
