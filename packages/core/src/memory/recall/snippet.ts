import { isCamel, tokenize, wordTerms } from '../indexing/tokenize.js';

const ASCII = /^[\x00-\x7f]*$/;
/** Terms of words seen in snippets before (stemming each word of every snippet is a noticeable share of a recall). */
const seen = new Map<string, readonly string[]>();

/** The terms a word of the text stands for, as `tokenize` makes them. */
function termsOfWord(word: string): readonly string[] {
  let terms = seen.get(word);
  if (terms === undefined) {
    terms = ASCII.test(word) ? wordTerms(word) : tokenize(word);
    if (seen.size > 20_000) seen.clear();
    seen.set(word, terms);
  }
  return terms;
}

/**
 * A short excerpt of `text` around the first word matching a query term (terms as `tokenize` makes
 * them), with ellipses where it was cut; the start of the text when nothing matches. Pure.
 */
export function makeSnippet(text: string, terms: readonly string[], width = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= width) return flat;
  const wanted = new Set(terms);
  // Porter's stem of a word begins with the word's first letter, so an ASCII word (not an identifier,
  // whose parts start inside it) whose first letter begins no wanted term yields none: it is not stemmed.
  const initials = new Set(terms.map((term) => term[0]));
  let at = -1;
  if (wanted.size > 0) {
    const word = /[\p{L}\p{N}]{2,}/gu;
    for (let m = word.exec(flat); m; m = word.exec(flat)) {
      const w = m[0];
      if (!initials.has(w[0]!.toLowerCase()) && ASCII.test(w) && !isCamel(w)) continue;
      if (termsOfWord(w).some((term) => wanted.has(term))) {
        at = m.index;
        break;
      }
    }
  }
  if (at < 0) return `${cutAtWord(flat, width)}…`;
  let start = Math.max(0, at - Math.floor(width / 3));
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    start = space >= 0 && space < at ? space + 1 : start;
  }
  const body = cutAtWord(flat.slice(start), width);
  return `${start > 0 ? '…' : ''}${body}${start + body.length < flat.length ? '…' : ''}`;
}

function cutAtWord(text: string, width: number): string {
  if (text.length <= width) return text;
  const cut = text.lastIndexOf(' ', width);
  return text.slice(0, cut > width / 2 ? cut : width);
}
