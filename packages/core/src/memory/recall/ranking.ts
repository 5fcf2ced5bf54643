/**
 * The ranking's parameters, in one place. Every number here was fitted by `bench/fit-recall.mjs` on the
 * dev split of `bench/recall-quality.mjs` (three generators of notes and questions) and judged on its
 * test split; the script prints what it chose and the bench what it scores. Recall takes overrides per
 * query (`RecallQuery.ranking`), which is how the fitting script searches them; front ends do not.
 */
import { MemoryArgumentError } from '../errors.js';

/** How relevance and recency combine. */
export type RecallFormula = 'prior' | 'memql';

export interface RankingParams {
  /** BM25's term-frequency saturation and length normalization. */
  readonly k1: number;
  readonly b: number;
  /** Pseudo-frequency a query word gains for being in the note's title, file name (slug), tags, headings. */
  readonly fields: readonly [title: number, slug: number, tags: number, headings: number];
  /** Exponent on the share of the query's IDF mass a memory matches (coordination): 0 ignores it. */
  readonly coverage: number;
  /** Weight of a longer word a query word is a prefix of (`config` → configuration); 0 turns it off. */
  readonly prefix: number;
  /**
   * Weight of a synonym of a query word (the thesaurus: `hang` → timeout, `research` → investigate),
   * below the word's own; 0 turns expansion by synonyms off. A synonym ranks a memory and never counts
   * toward the injection floor.
   */
  readonly synonym: number;
  /**
   * Weight of an irregular form of a query word (`felt` for feel, `took` for take, `children` for
   * child: the same word, which the stemmer cannot join); 0 turns them off. A form counts as the word
   * itself, toward the injection floor too. Names are not expanded (`Rose` is no form of rise).
   */
  readonly inflection: number;
  /**
   * Weight of a name in the query (a capitalized word that does not open a sentence, or one in
   * capitals: a person, a place, a tool) against its other words: 1 weighs it as any word.
   */
  readonly names: number;
  /** Relevance gained (as a share) when the title and opening hold the query's words side by side. */
  readonly phrase: number;
  /**
   * The recency prior: relevance × (1 + recencyBoost × recency). A memory at most that share more
   * relevant than another can overtake it by being newer; never one clearly better.
   */
  readonly recencyBoost: number;
  /** Score kept by the earlier revisions of a note (same name, `-v2`, `-2`, `-revised`) below its latest. */
  readonly revisionDecay: number;
  /** Pseudo-relevance feedback (RM3): terms added from the best first-pass matches, and their weight. */
  readonly feedbackTerms: number;
  readonly feedbackDocs: number;
  readonly feedbackWeight: number;
  /** Reciprocal rank fusion of the lexical and the vector ranking: `1 / (fusionK + rank)` each. */
  readonly fusionK: number;
}

/** The relevance floor of what a hook injects (see injection.ts). */
export interface InjectionFloor {
  /** Least number of the prompt's content words (not function words or chatter) a memory must hold. */
  readonly words: number;
  /** Least IDF mass of those words it must hold, in units of the index's highest IDF. */
  readonly evidence: number;
  /** Least score, as a share of the best injected memory's. */
  readonly relative: number;
}

export const RANKING_DEFAULTS: RankingParams = Object.freeze({
  k1: 0.9,
  b: 0.3,
  fields: Object.freeze([5, 5, 2, 1] as const),
  coverage: 1,
  prefix: 0.7,
  synonym: 0.85,
  inflection: 1,
  names: 5,
  phrase: 0.2,
  recencyBoost: 0.05,
  revisionDecay: 1,
  feedbackTerms: 0,
  feedbackDocs: 8,
  feedbackWeight: 0.3,
  fusionK: 5,
});

export const INJECTION_FLOOR: InjectionFloor = Object.freeze({
  words: 2,
  evidence: 0.8,
  relative: 0.5,
});

/** Bounds of each parameter: what a value outside would mean is nonsense (or unbounded recency). */
const BOUNDS: Readonly<Record<keyof Omit<RankingParams, 'fields'>, readonly [number, number]>> = {
  k1: [0, 10],
  b: [0, 1],
  coverage: [0, 10],
  prefix: [0, 1],
  synonym: [0, 1],
  inflection: [0, 1],
  names: [0, 5],
  phrase: [0, 1],
  recencyBoost: [0, 0.5],
  revisionDecay: [0, 1],
  feedbackTerms: [0, 50],
  feedbackDocs: [1, 50],
  feedbackWeight: [0, 1],
  fusionK: [0, 1000],
};

/** The defaults with `overrides` applied, checked. Throws `MemoryArgumentError` naming a bad value. */
export function rankingParams(overrides: Partial<RankingParams> | undefined): RankingParams {
  if (overrides === undefined) return RANKING_DEFAULTS;
  const out = { ...RANKING_DEFAULTS, ...overrides };
  for (const [name, [lo, hi]] of Object.entries(BOUNDS)) {
    const v = out[name as keyof typeof BOUNDS];
    if (!Number.isFinite(v) || v < lo || v > hi)
      throw new MemoryArgumentError(`recall: ranking.${name} must be a number in [${lo}, ${hi}], got ${String(v)}`);
  }
  if (
    !Array.isArray(out.fields) ||
    out.fields.length !== 4 ||
    out.fields.some((w) => !Number.isFinite(w) || w < 0 || w > 20)
  )
    throw new MemoryArgumentError(
      `recall: ranking.fields must be four numbers in [0, 20] (title, slug, tags, headings), got ${JSON.stringify(out.fields)}`,
    );
  return out;
}
