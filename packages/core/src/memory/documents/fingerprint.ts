import { contentHash } from '../../protocol/content-hash.js';

/**
 * The text a fingerprint is taken of (DESIGN §12): CRLF and CR → LF; each line trimmed; runs of space,
 * tab, form feed and vertical tab collapsed to one space; blank lines dropped; lines joined with LF;
 * Unicode case-folded (upper-then-lower, which folds ß → ss and final sigma like Python's casefold).
 */
export function normalizeFingerprintText(text: string): string {
  const joined = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trim().replace(/[ \t\f\v]+/g, ' '))
    .filter((line) => line !== '')
    .join('\n');
  // ASCII has no multi-character folds: lower-casing is case folding there.
  return NON_ASCII.test(joined) ? joined.toUpperCase().toLowerCase() : joined.toLowerCase();
}

const NON_ASCII = /[^\x00-\x7f]/;

/** sha256 hex of the normalized text: edits of whitespace, case or blank lines keep the fingerprint. */
export function textFingerprint(text: string): string {
  return contentHash(normalizeFingerprintText(text));
}
