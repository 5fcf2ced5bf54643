import { stem, tokenize } from '../indexing/tokenize.js';

const ASCII = /^[\x00-\x7f]*$/;

/**
 * The term a word of the text stands for, as `tokenize` makes it: an ASCII word is lower-cased and
 * stripped of its plural here (a stop word or a too-long word comes out as something no query holds);
 * any other word goes through `tokenize`. (Tokenizing each word of every snippet took a tenth of a
 * recall.)
 */
function termOfWord(word: string): string | undefined {
  if (!ASCII.test(word)) return tokenize(word)[0];
  const lower = word.toLowerCase();
  return lower.charCodeAt(lower.length - 1) === 115 /* s */ ? stem(lower) : lower;
}

/**
 * A short excerpt of `text` around the first word matching a query term (terms as `tokenize` makes
 * them), with ellipses where it was cut; the start of the text when nothing matches. Pure.
 */
export function makeSnippet(text: string, terms: readonly string[], width = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= width) return flat;
  const wanted = new Set(terms);
  let at = -1;
  if (wanted.size > 0) {
    const word = /[\p{L}\p{N}]{2,}/gu;
    for (let m = word.exec(flat); m; m = word.exec(flat)) {
      const term = termOfWord(m[0]);
      if (term !== undefined && wanted.has(term)) {
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
