/**
 * Capability similarity. Without an embeddings provider it is a deterministic lexical cosine over
 * token term-frequency vectors, so routing runs offline and the same input always routes the same way.
 */
export interface SimilarityScorer {
  /** Similarity in [0, 1] of `text` to each candidate, in order. */
  scores(text: string, candidates: readonly string[]): Promise<number[]>;
}

/** Lower-cased word tokens (letters and digits of any script). */
export function similarityTokens(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

function termFrequencies(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of similarityTokens(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/** Cosine of the two texts' term-frequency vectors; 0 when either has no tokens. */
export function lexicalCosine(a: string, b: string): number {
  const x = termFrequencies(a);
  const y = termFrequencies(b);
  let dot = 0;
  for (const [t, n] of x) dot += n * (y.get(t) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  const d = norm(x) * norm(y);
  return d === 0 ? 0 : Math.min(1, Math.max(0, dot / d));
}

export const lexicalScorer: SimilarityScorer = {
  scores: async (text, candidates) => candidates.map((c) => lexicalCosine(text, c)),
};

/** Anything that embeds texts (structurally, the memory layer's embedding providers fit: Float32Array vectors are fine). */
export interface EmbeddingSource {
  embed(texts: readonly string[]): Promise<ReadonlyArray<ArrayLike<number>>>;
}

/** Cosine of two vectors clamped to [0, 1]; mismatched, empty or zero vectors → 0. */
export function vectorCosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : Math.min(1, Math.max(0, dot / Math.sqrt(na * nb)));
}

/** A scorer over an embeddings provider (it overrides the lexical default when configured). */
export function embeddingScorer(provider: EmbeddingSource): SimilarityScorer {
  return {
    async scores(text, candidates) {
      if (candidates.length === 0) return [];
      const [q, ...rest] = await provider.embed([text, ...candidates]);
      return rest.map((v) => vectorCosine(q ?? [], v));
    },
  };
}
