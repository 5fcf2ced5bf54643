// A self-checking ledger note for bench/crash.mjs: its entries, one per line, padded (≈64 KB, so a
// write takes long enough to be killed half-way), and a footer with the entries' sha256.
import { createHash } from 'node:crypto';

const PAD = `${'x'.repeat(1023)}\n`.repeat(64);
const sum = (lines) => createHash('sha256').update(lines.join('\n')).digest('hex');

/** The ledger's text for `entries`. */
export const ledger = (entries) => `# ledger\n${entries.join('\n')}\n---\n${PAD}sha256: ${sum(entries)}\n`;

/** The entries of a complete ledger, or undefined when the text is torn (not one whole version). */
export function ledgerEntries(text) {
  const m = /^# ledger\n([\s\S]*?)\n?---\n([x\n]*)sha256: ([0-9a-f]{64})\n$/.exec(text);
  if (!m || m[2] !== PAD) return undefined;
  const entries = m[1] === '' ? [] : m[1].split('\n');
  return sum(entries) === m[3] ? entries : undefined;
}
