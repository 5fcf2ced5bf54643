import { contentHash } from '../../write-protocol/content-hash.js';

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argv word as a POSIX shell (and `splitCommand`) reads it back: bare when safe, else single-quoted. */
export function quoteWord(word: string): string {
  if (word === '') return "''";
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command as a person reads it and `splitCommand` reads it back: words joined by single spaces,
 * quoted where needed. Approvals and allow-list patterns are about this form, so `npm  test` and
 * `'npm' test` (which run the same program with the same arguments) are one command.
 */
export function formatArgv(argv: readonly string[]): string {
  return argv.map(quoteWord).join(' ');
}

/** The approval key of a command: sha256 hex of its argv (as JSON), so only the exact same program and arguments match. */
export function commandDigest(argv: readonly string[]): string {
  return contentHash(JSON.stringify(argv));
}
