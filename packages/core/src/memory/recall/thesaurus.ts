/**
 * The thesaurus a query's words are expanded with: for a term of the index's analyzer, the terms of its
 * synonyms and close equivalents, best first. The shipped one (thesaurus-table.ts) is derived at build
 * time from WordNet's frequent senses and a hand-written list of software-engineering equivalences
 * (scripts/thesaurus/build-thesaurus.mjs); the irregular forms (`felt` → feel), read the same way, from
 * wink-lexicon's lists of irregular verbs and nouns by the same script. Pure.
 */
import { INFLECTION_TABLE } from './inflection-table.js';
import { THESAURUS_TABLE } from './thesaurus-table.js';

export interface Thesaurus {
  /** The synonyms of `term` (a term of the analyzer), best first; `[]` when it has none. */
  synonyms(term: string): readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * A thesaurus over `text`, one line per term, sorted by term (by UTF-16 code unit, as the build script
 * writes it): the term, then its synonyms, separated by spaces. Nothing is parsed up front: a lookup
 * binary-searches the text for its line, so the first one costs what the others do (microseconds),
 * where parsing the whole table into a map cost a new process ≈ 14 ms (bench/thesaurus.mjs).
 */
export function thesaurusFrom(text: string): Thesaurus {
  return { synonyms: (term) => (term === '' || term.includes(' ') ? NONE : lookup(text, term)) };
}

/** The synonyms on `term`'s line of the sorted `text`, or NONE. */
function lookup(text: string, term: string): readonly string[] {
  let lo = 0;
  let hi = text.length;
  // Invariant: the term's line, if any, starts in [lo, hi).
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = text.lastIndexOf('\n', mid - 1) + 1;
    const space = text.indexOf(' ', start);
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const key = text.slice(start, space < 0 || space > end ? end : space);
    if (key === term) return space < 0 || space > end ? NONE : text.slice(space + 1, end).split(' ');
    if (key < term) lo = end + 1;
    else hi = start;
  }
  return NONE;
}

/** The shipped thesaurus (WordNet's frequent senses and software-engineering equivalences). */
export const THESAURUS: Thesaurus = thesaurusFrom(THESAURUS_TABLE);

/** The irregular forms of English verbs and nouns: for a form's term, the terms of its word's other forms. */
export const IRREGULAR_FORMS: Thesaurus = thesaurusFrom(INFLECTION_TABLE);
