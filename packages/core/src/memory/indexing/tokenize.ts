/**
 * The analyzer shared by indexing and querying. Pure. Lower-cases, folds diacritics (café → cafe),
 * splits on anything that is not a letter or digit, drops one-character tokens, tokens over 40
 * characters and common English stop words, and strips English plurals (Harman's S-stemmer:
 * locks → lock, policies → policy, caches → cache). No language detection: text in other languages
 * is still split and folded, just not stemmed.
 */

const WORD = /[\p{L}\p{N}]{2,}/gu;
const MAX_TOKEN = 40;
const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING = /\p{M}+/gu;

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'an and are as at be been but by for from had has have he her his if in into is it its me my no not of on or our ' +
    'she so than that the their them then there these they this those to too us was we were what when where which who ' +
    'why will with would you your do does did can could should shall may might must am any all also just only very'
  ).split(' '),
);

const STOP_WORD_MAX = Math.max(...[...STOP_WORDS].map((w) => w.length));

/** Harman's S-stemmer: strips the English plural endings, nothing else. */
export function stem(word: string): string {
  const n = word.length;
  if (n <= 3 || word.charCodeAt(n - 1) !== 115 /* s */) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !word.endsWith('aes') && !word.endsWith('ees') && !word.endsWith('oes'))
    return word.slice(0, -1);
  if (word.endsWith('us') || word.endsWith('ss')) return word;
  return word.slice(0, -1);
}

function words(text: string): RegExpMatchArray | null {
  let s = text.toLowerCase();
  if (NON_ASCII.test(s)) s = s.normalize('NFKD').replace(COMBINING, '');
  return s.match(WORD);
}

/** The terms of `text`, in order, with repeats (term frequency matters). */
export function tokenize(text: string): string[] {
  const found = words(text);
  if (!found) return [];
  const out: string[] = [];
  for (let i = 0; i < found.length; i++) {
    const word = found[i]!;
    const n = word.length;
    if (n > MAX_TOKEN || (n <= STOP_WORD_MAX && STOP_WORDS.has(word))) continue;
    out.push(word.charCodeAt(n - 1) === 115 /* s */ ? stem(word) : word);
  }
  return out;
}

/** The distinct terms of a query, in first-seen order. */
export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}
