/**
 * Python's `str.casefold()` (full Unicode case folding), which agentm applies before fingerprinting,
 * so our fingerprints equal agentm's. Per code point, upper-then-lower case gives the full folding
 * (ß → ss, ﬁ → fi, ς → σ, ᾀ → ἀι, …) except for the cases below, checked against Python over every
 * code point.
 */
const SPECIAL: ReadonlyMap<number, string> = new Map([
  [0x0131, '\u0131'], // dotless ı folds to itself (upper-lower would give i)
  [0x1e9e, 'ss'], // capital sharp S folds to ss (upper-lower gives ß)
]);

function foldCodePoint(cp: number, char: string): string {
  const special = SPECIAL.get(cp);
  if (special !== undefined) return special;
  // Cherokee folds to its upper-case letters (the only script that does).
  if (cp >= 0x13a0 && cp <= 0x13f5) return char;
  if (cp >= 0x13f8 && cp <= 0x13fd) return String.fromCodePoint(cp - 8);
  if (cp >= 0xab70 && cp <= 0xabbf) return String.fromCodePoint(cp - 0xab70 + 0x13a0);
  return char.toUpperCase().toLowerCase();
}

/** Full Unicode case folding, as Python's `str.casefold()`. */
export function casefold(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text.toLowerCase();
  let out = '';
  for (const char of text) out += foldCodePoint(char.codePointAt(0)!, char);
  return out;
}
