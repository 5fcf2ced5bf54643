import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWrite } from '../../write-protocol/atomic-write.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import { ProviderError, ProviderRestingError } from '../../providers/errors.js';

export const HEALTH_FILE = 'embeddings-health.json';

/** How long a failing embeddings endpoint rests before it is asked again. */
export const EMBED_RETRY_MS = 60_000;

/** What the index directory remembers of its embeddings endpoint: failing since when, and whether a person was told. */
export interface EmbedHealth {
  readonly provider: string;
  readonly failingSinceMs: number;
  readonly retryAtMs: number;
  readonly message: string;
  /** Whether a foreground answer has shown the warning (a background run's failure waits for one). */
  readonly announced: boolean;
}

/** The health of `provider` in `dir`; undefined when it is not known to be failing. */
export function readHealth(dir: string, provider: string): EmbedHealth | undefined {
  try {
    const health = JSON.parse(readFileSync(join(dir, HEALTH_FILE), 'utf8')) as Partial<EmbedHealth>;
    if (health.provider !== provider || typeof health.retryAtMs !== 'number' || typeof health.message !== 'string')
      return undefined;
    return {
      provider,
      failingSinceMs: Number(health.failingSinceMs) || 0,
      retryAtMs: health.retryAtMs,
      message: health.message,
      announced: health.announced === true,
    };
  } catch {
    return undefined;
  }
}

async function writeHealth(dir: string, health: EmbedHealth | undefined): Promise<void> {
  // `{}` (no provider) reads as healthy; a lost write only repeats a warning or a retry.
  await atomicWrite(join(dir, HEALTH_FILE), `${JSON.stringify(health ?? {})}\n`, { fsync: false }).catch(
    () => undefined,
  );
}

/**
 * The index's embedder as recall and the embedding runs use it: a failing endpoint falls back to lexical
 * with one warning, not one per note or per query, across processes. The first failure is a normal
 * `ProviderError` (the caller warns; a background run's failure is left for the next answer to show, see
 * `unannounced`); until `EMBED_RETRY_MS` later every call fails at once with `ProviderRestingError`
 * (callers degrade quietly), and a retry that fails again stays quiet too. A success clears it.
 */
export class GuardedEmbedder implements EmbeddingProvider {
  constructor(
    readonly inner: EmbeddingProvider,
    private readonly dir: string,
    private readonly now: () => number = Date.now,
    /** A background run: its failure is shown by the next answer, not by itself. */
    private readonly background = false,
  ) {}

  get id(): string {
    return this.inner.id;
  }

  /** The failure no answer has shown yet, marked shown (so that exactly one answer shows it). */
  async unannounced(): Promise<string | undefined> {
    const health = readHealth(this.dir, this.id);
    if (health === undefined || health.announced) return undefined;
    await writeHealth(this.dir, { ...health, announced: true });
    return `${health.message} — recall is lexical until it answers again (agentm doctor --providers checks it)`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const health = readHealth(this.dir, this.id);
    if (health !== undefined && this.now() < health.retryAtMs)
      throw new ProviderRestingError(this.id, health.message, health.retryAtMs);
    try {
      const vectors = await this.inner.embed(texts);
      if (health !== undefined) await writeHealth(this.dir, undefined);
      return vectors;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const now = this.now();
      await writeHealth(this.dir, {
        provider: this.id,
        failingSinceMs: health?.failingSinceMs ?? now,
        retryAtMs: now + EMBED_RETRY_MS,
        message: error.message,
        announced: health?.announced ?? !this.background,
      });
      if (health !== undefined) throw new ProviderRestingError(this.id, error.message, now + EMBED_RETRY_MS, error);
      throw error;
    }
  }
}
