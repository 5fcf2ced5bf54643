import { contentHash } from '../../write-protocol/content-hash.js';
import { casefold } from './casefold.js';

/** Python's `str.strip()` whitespace (str.isspace), which differs from JavaScript's `trim()` (BOM, U+001C–1F, U+0085). */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

/**
 * The body as agentm fingerprints it: CRLF and CR → LF; each line trimmed; runs of space, tab, form
 * feed and vertical tab collapsed to one space; blank lines dropped; lines joined with LF; case-folded.
 */
export function normalizeForFingerprint(body: string): string {
  return casefold(
    body
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line) => line.replace(PY_STRIP, '').replace(/[ \t\f\v]+/g, ' '))
      .filter((line) => line !== '')
      .join('\n'),
  );
}

/** sha256 hex of the normalized body (`hello` → `2cf24dba…`). Equal for bodies that differ only in spacing, blank lines or case. */
export function noteFingerprint(body: string): string {
  return contentHash(normalizeForFingerprint(body));
}
