/**
 * The one similarity module: cosine of embedding vectors, cosine of term-frequency vectors over the
 * one tokenizer (`indexing/tokenize.ts`, the analyzer BM25 uses), and scorers that turn either into
 * similarities in [0, 1]. Recall, consolidation and the harness's planner all measure with these, so
 * "similar" means the same thing everywhere. Pure.
 */
import { tokenize } from './indexing/tokenize.js';

/** Cosine of two vectors of equal length, in [−1, 1]; 0 when either is empty or zero, or the lengths differ. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** A sparse term-frequency vector (the lexical stand-in for an embedding). */
export type TermVector = ReadonlyMap<string, number>;

/** The term frequencies of `text`, over the analyzer recall uses (stop words dropped, plurals folded). */
export function termVector(text: string): TermVector {
  const v = new Map<string, number>();
  for (const t of tokenize(text)) v.set(t, (v.get(t) ?? 0) + 1);
  return v;
}

/** Cosine of two term-frequency vectors, in [0, 1]; 0 when either is empty. */
export function termCosine(a: TermVector, b: TermVector): number {
  if (a.size === 0 || b.size === 0) return 0;
  let dot = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [t, x] of small) dot += x * (large.get(t) ?? 0);
  let na = 0;
  let nb = 0;
  for (const x of a.values()) na += x * x;
  for (const x of b.values()) nb += x * x;
  return Math.min(1, dot / Math.sqrt(na * nb));
}

/** Lexical similarity of two texts in [0, 1] (what is used when no embedding provider is configured). */
export function lexicalSimilarity(a: string, b: string): number {
  return termCosine(termVector(a), termVector(b));
}

/** Similarity in [0, 1] of a text to each of several candidates, in order. */
export interface SimilarityScorer {
  scores(text: string, candidates: readonly string[]): Promise<number[]>;
}

/** The deterministic lexical scorer: the same input always scores (and so routes) the same way, offline. */
export const lexicalScorer: SimilarityScorer = {
  scores: async (text, candidates) => {
    const v = termVector(text);
    return candidates.map((c) => termCosine(v, termVector(c)));
  },
};

/** Anything that embeds texts (an `EmbeddingProvider` fits; plain number arrays are fine). */
export interface EmbeddingSource {
  embed(texts: readonly string[]): Promise<ReadonlyArray<ArrayLike<number>>>;
}

/** A scorer over embeddings: one call for the text and its candidates, cosines clamped to [0, 1]. */
export function embeddingScorer(source: EmbeddingSource): SimilarityScorer {
  return {
    async scores(text, candidates) {
      if (candidates.length === 0) return [];
      const [q, ...rest] = await source.embed([text, ...candidates]);
      return rest.map((v) => Math.min(1, Math.max(0, cosine(q ?? [], v))));
    },
  };
}
