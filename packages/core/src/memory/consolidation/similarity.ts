import { tokenize } from '../indexing/tokenize.js';

/** A sparse term-frequency vector (the lexical stand-in for an embedding). */
export type TermVector = ReadonlyMap<string, number>;

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
  return dot / Math.sqrt(na * nb);
}

/** Lexical similarity of two texts (used when no embedding provider is configured). */
export function lexicalSimilarity(a: string, b: string): number {
  return termCosine(termVector(a), termVector(b));
}
