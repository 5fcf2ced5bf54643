/**
 * The thesaurus a query's words are expanded with: for a term of the index's analyzer, the terms of its
 * synonyms and close equivalents, best first. The shipped one (thesaurus-table.ts) is derived at build
 * time from WordNet's frequent senses and a hand-written list of software-engineering equivalences
 * (scripts/thesaurus/build-thesaurus.mjs). Pure apart from a lazy parse, cached per table.
 */
import { THESAURUS_TABLE } from './thesaurus-table.js';

export interface Thesaurus {
  /** The synonyms of `term` (a term of the analyzer), best first; `[]` when it has none. */
  synonyms(term: string): readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * A thesaurus over `text`, one line per term: the term, then its synonyms, separated by spaces. The
 * text is parsed on the first lookup, not before: a process that never expands a query pays nothing,
 * and one that does pays once (about a millisecond for the shipped table; bench/thesaurus.mjs).
 */
export function thesaurusFrom(text: string): Thesaurus {
  let table: Map<string, readonly string[]> | undefined;
  return {
    synonyms(term: string): readonly string[] {
      table ??= parseTable(text);
      return table.get(term) ?? NONE;
    },
  };
}

function parseTable(text: string): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const line of text.split('\n')) {
    const words = line.split(' ').filter((w) => w !== '');
    const [term, ...synonyms] = words;
    if (term !== undefined && synonyms.length > 0) out.set(term, synonyms);
  }
  return out;
}

/** The shipped thesaurus (WordNet's frequent senses and software-engineering equivalences). */
export const THESAURUS: Thesaurus = thesaurusFrom(THESAURUS_TABLE);

/** A thesaurus without entries: expansion by synonyms off, whatever the weight. */
export const NO_THESAURUS: Thesaurus = { synonyms: () => NONE };
