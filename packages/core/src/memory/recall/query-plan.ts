/**
 * From a query's text to what the index scores: concepts (each word of the query with its variants —
 * its own term, the longer terms it is a prefix of, and its synonyms), and, when asked,
 * pseudo-relevance feedback terms (RM3) drawn from the best first-pass matches.
 */
import type { Bm25Index, QueryConcept, QueryVariant } from '../indexing/bm25.js';
import { idf } from '../indexing/bm25-search.js';
import { tokenize } from '../indexing/tokenize.js';
import { isFunctionTerm } from './function-words.js';
import type { RankingParams } from './ranking.js';
import { IRREGULAR_FORMS, THESAURUS, type Thesaurus } from './thesaurus.js';

/** A prefix shared by more terms than this says nothing about the word (`con`). */
const PREFIX_LIMIT = 16;
/** Words this long are expanded: what people shorten (`env`, `auth`, `config`); longer words have stems. */
const PREFIX_MIN = 3;
const PREFIX_MAX = 6;
const LETTERS = /^[a-z]+$/;
/**
 * Synonyms a word lends at most (the thesaurus lists the best first): a common word with many senses
 * must not turn into dozens of variants, each a posting list read and a chance of a wrong match.
 */
export const SYNONYM_LIMIT = 8;

/**
 * The terms of the names in a query: words written with a capital that do not open a sentence
 * ("When did *Caroline* go…", "how do we tune *Postgres*"), and words in capitals (`CI`, `LGBTQ`).
 * A person, a place, a tool: what the answer must be about, however common the word in the vault.
 */
export function nameTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(^|[.!?]\s+|\s|["'([])(\p{Lu}[\p{L}\p{N}]*)/gu)) {
    const opensSentence = m.index === 0 || /[.!?]\s+$/.test(m[1]!) || text.slice(0, m.index).trim() === '';
    const word = m[2]!;
    if (opensSentence && !/^\p{Lu}[\p{Lu}\p{N}]+$/u.test(word)) continue;
    for (const term of tokenize(word)) out.add(term);
  }
  return out;
}

/** The distinct terms of a query's words, in first-seen order. */
export function queryWords(text: string): string[] {
  return [...new Set(tokenize(text))];
}

/**
 * The concepts of a query's terms: each term, (with an inflection weight) its irregular forms in `forms`
 * at that weight, as spellings of the word (`feel` finds felt; a name is not expanded), (with a prefix
 * weight) the indexed terms it is a prefix of, at that weight — a short word finds the longer one it
 * abbreviates (`auth` → authent) — and (with a synonym weight) its synonyms in `thesaurus`, at that
 * weight, marked as synonyms (they rank, they never count toward the injection floor). Only terms of 3
 * to 6 letters are prefix-expanded, to at most 16 longer terms (a form already there stays at its
 * weight); a term lends at most SYNONYM_LIMIT synonyms, none the query's own terms or spellings (a query
 * saying both `stop` and `halt` holds each once). A function word or chatter
 * (function-words.ts) ranks like any word but is no content word: the injection floor does not count it.
 */
export function queryConcepts(
  terms: readonly string[],
  index: Bm25Index,
  params: RankingParams,
  thesaurus: Thesaurus = THESAURUS,
  names: ReadonlySet<string> = new Set(),
  forms: Thesaurus = IRREGULAR_FORMS,
): QueryConcept[] {
  const own = new Set(terms);
  return terms.map((term) => {
    const variants: QueryVariant[] = [{ term, weight: 1 }];
    if (params.inflection > 0 && !names.has(term))
      for (const form of forms.synonyms(term))
        if (!own.has(form)) variants.push({ term: form, weight: params.inflection });
    if (params.prefix > 0 && term.length >= PREFIX_MIN && term.length <= PREFIX_MAX && LETTERS.test(term)) {
      const ids = index.terms.withPrefix(term, PREFIX_LIMIT);
      const formed = new Set(variants.map((v) => v.term));
      if (ids)
        for (const id of ids) {
          const longer = index.terms.term(id);
          if (!formed.has(longer)) variants.push({ term: longer, weight: params.prefix });
        }
    }
    if (params.synonym > 0) {
      const spelled = new Set(variants.map((v) => v.term));
      let lent = 0;
      for (const synonym of thesaurus.synonyms(term)) {
        if (lent >= SYNONYM_LIMIT) break;
        if (own.has(synonym) || spelled.has(synonym)) continue;
        variants.push({ term: synonym, weight: params.synonym, synonym: true });
        lent++;
      }
    }
    return { variants, weight: names.has(term) ? params.names : 1, counted: true, content: !isFunctionTerm(term) };
  });
}

/**
 * RM3's expansion: the terms of the best first-pass matches (their titles and openings, what the index
 * keeps of them), weighted by each match's share of the scores and the term's share of its text, less
 * the query's own and any word in more than a tenth of the documents; the top `feedbackTerms`, as
 * uncounted concepts of weight up to `feedbackWeight`.
 */
export function feedbackConcepts(
  texts: ReadonlyArray<{ text: string; score: number }>,
  terms: readonly string[],
  index: Bm25Index,
  params: RankingParams,
): QueryConcept[] {
  if (params.feedbackTerms <= 0 || texts.length === 0) return [];
  const total = texts.reduce((s, t) => s + t.score, 0) || 1;
  const weights = new Map<string, number>();
  const own = new Set(terms);
  for (const { text, score } of texts) {
    const tokens = tokenize(text);
    if (tokens.length === 0) continue;
    for (const t of tokens) if (!own.has(t)) weights.set(t, (weights.get(t) ?? 0) + score / total / tokens.length);
  }
  const n = index.liveCount;
  const ranked = [...weights]
    .map(([term, w]) => {
      const id = index.terms.id(term);
      const df = id < 0 ? 0 : index.documentFrequency(id);
      return { term, w: df > 0 && df <= n / 10 ? w * idf(n, df) : 0 };
    })
    .filter((x) => x.w > 0)
    .sort((a, b) => b.w - a.w)
    .slice(0, params.feedbackTerms);
  const top = ranked[0]?.w ?? 1;
  return ranked.map(({ term, w }) => ({
    variants: [{ term, weight: 1 }],
    weight: (params.feedbackWeight * w) / top,
    counted: false,
  }));
}
