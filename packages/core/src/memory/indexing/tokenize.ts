/**
 * The analyzer shared by indexing and querying. Pure. Folds diacritics (café → cafe), splits on
 * anything that is not a letter or digit, lower-cases, drops one-character tokens, tokens over 40
 * characters and common English stop words, and stems English words with Porter's algorithm, version 2
 * (Snowball English, the `porter2` package: configure, configuring and configuration are one term;
 * deploy and deployment too, which the first version splits). A code identifier in
 * camel case is kept whole and also split into its words (`getUserById` → getuserbyid, get, user, id),
 * so prose finds the identifier and the identifier finds prose; snake and kebab case split already.
 * No language detection: text in other languages is split and folded, and only words of the letters
 * a–z are stemmed.
 */
import { stem as porter2 } from 'porter2';

const WORD = /[\p{L}\p{N}]{2,}/gu;
const MAX_TOKEN = 40;
const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING = /\p{M}+/gu;
const LETTERS = /^[a-z]+$/;

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'an and are as at be been but by for from had has have he her his if in into is it its me my no not of on or our ' +
    'she so than that the their them then there these they this those to too us was we were what when where which who ' +
    'why will with would you your do does did can could should shall may might must am any all also just only very'
  ).split(' '),
);

export const STOP_WORD_MAX = Math.max(...[...STOP_WORDS].map((w) => w.length));

/** Stems computed before: a word costs a fraction of a microsecond warm, several before V8 has compiled the stemmer. */
const stems = new Map<string, string>();
const STEM_CACHE = 50_000;

/** The term a lower-case word stands for: Porter's stem of a word of the letters a–z, else the word. */
export function stem(word: string): string {
  if (word.length <= 2 || !LETTERS.test(word)) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    if (stems.size >= STEM_CACHE) stems.clear();
    stems.set(word, (stemmed = porter2(word)));
  }
  return stemmed;
}

/**
 * Whether a word (as written) is a camel-case identifier: a lower-case letter or digit followed by an
 * upper-case one (`userId`, `utf8Decoder`), or two upper-case letters followed by a lower-case one
 * (`HTTPServer`). ASCII letters only.
 */
export function isCamel(word: string): boolean {
  return /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/.test(word);
}

/** The words of a camel-case identifier, as written (`HTTPServer` → HTTP, Server). */
function camelParts(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .split(' ');
}

/** The term of one lower-case word, or undefined for a stop word or a word too long to index. */
function termOf(lower: string): string | undefined {
  const n = lower.length;
  if (n > MAX_TOKEN || n < 2 || (n <= STOP_WORD_MAX && STOP_WORDS.has(lower))) return undefined;
  return stem(lower);
}

/**
 * The terms one word (as written, diacritics folded) yields: its own term, then, for a camel-case
 * identifier, the terms of its words.
 */
export function wordTerms(word: string, out: string[] = []): string[] {
  const whole = termOf(word.toLowerCase());
  if (whole !== undefined) out.push(whole);
  if (word.length <= MAX_TOKEN && isCamel(word))
    for (const part of camelParts(word)) {
      const term = termOf(part.toLowerCase());
      if (term !== undefined) out.push(term);
    }
  return out;
}

function words(text: string): RegExpMatchArray | null {
  return (NON_ASCII.test(text) ? text.normalize('NFKD').replace(COMBINING, '') : text).match(WORD);
}

/** The terms of `text`, in order, with repeats (term frequency matters). */
export function tokenize(text: string): string[] {
  const found = words(text);
  if (!found) return [];
  const out: string[] = [];
  for (let i = 0; i < found.length; i++) wordTerms(found[i]!, out);
  return out;
}

/** The distinct terms of a query, in first-seen order. */
export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}
