import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import {
  journalHeader,
  journalLines,
  lineSum,
  parseJournal,
  type JournalOp,
} from '../../src/memory/indexing/journal.js';

const OPS: JournalOp[] = [
  { op: 'touch', key: 'memory/fix/a.md', mtimeMs: 1_732_900_000_000 },
  { op: 'del', key: 'memory/fix/ü-b.md' },
  { op: 'marks', marks: { folders: { memory: 1_732_900_000_000, 'memory/fix': null } } },
];
const journal = (ops: readonly JournalOp[]) => journalHeader(3, 'snap-1') + journalLines(ops);

describe('the index journal: every line checked, no crypto needed', () => {
  it('reads back what it wrote, clean', () => {
    expect(parseJournal(journal(OPS), 3)).toEqual({ snapshotId: 'snap-1', ops: OPS, clean: true });
  });

  it('still reads a journal written before, whose lines carry a sha256 prefix', () => {
    const lines = OPS.map((op) => JSON.stringify(op)).map((json) => `${contentHash(json).slice(0, 16)}\t${json}\n`);
    expect(parseJournal(journalHeader(3, 'snap-1') + lines.join(''), 3)).toEqual({
      snapshotId: 'snap-1',
      ops: OPS,
      clean: true,
    });
  });

  it('ends at a torn append or a changed character, keeping the lines before it', () => {
    const text = journal(OPS);
    const torn = text.slice(0, text.length - 7);
    expect(parseJournal(torn, 3)).toEqual({ snapshotId: 'snap-1', ops: OPS.slice(0, 2), clean: false });
    const changed = text.replace('ü-b.md', 'u-b.md');
    expect(parseJournal(changed, 3)).toEqual({ snapshotId: 'snap-1', ops: OPS.slice(0, 1), clean: false });
  });

  it('a line checksum tells apart texts that differ in one code unit, order or length', () => {
    const sums = new Set(['', 'a', 'b', 'ab', 'ba', 'aa', 'a\u0000', '\u00fc', 'u\u0308', '{"op":"del"}'].map(lineSum));
    expect(sums.size).toBe(10);
    for (const sum of sums) expect(sum).toMatch(/^[0-9a-f]{16}$/);
  });
});
