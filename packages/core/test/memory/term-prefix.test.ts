// A query word's prefix matches (query-plan.ts) come from the term table: the snapshot's terms by two
// binary searches in its term order, the terms added since by a scan. Both must give exactly the
// definition: every term that starts with the prefix and is longer, in id order, none when more than
// the limit — whatever the alphabet (accents, CJK, astral characters), the terms added since, the limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freezeTerms, TermTable } from '../../src/memory/indexing/term-table.js';

const encoder = new TextEncoder();

function definition(terms: readonly string[], prefix: string, limit: number): number[] | undefined {
  if (encoder.encode(prefix).length < 3) return undefined;
  const ids = terms.flatMap((t, id) => (t.length > prefix.length && t.startsWith(prefix) ? [id] : []));
  return ids.length > limit ? undefined : ids;
}

// Few letters, so that terms share prefixes often; an accent, a CJK character, an astral one.
const letter = fc.constantFrom('a', 'b', 'c', 'é', '語', '𝒳', 'z');
const word = fc.array(letter, { minLength: 1, maxLength: 7 }).map((cs) => cs.join(''));

describe('prefix matches of the term table', () => {
  it('are the definition, for the snapshot terms and those added since', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { maxLength: 60 }),
        fc.uniqueArray(word, { maxLength: 10 }),
        fc.array(fc.tuple(word, fc.integer({ min: 0, max: 20 })), { minLength: 1, maxLength: 12 }),
        (frozen, later, asks) => {
          const table = new TermTable(freezeTerms(frozen));
          for (const t of later) table.intern(t);
          const all = Array.from({ length: table.size }, (_, id) => table.term(id));
          for (const [prefix, limit] of asks) {
            // A prefix as asked, and one cut from a term the table has (so that runs are found, not only misses).
            const cut = all.length > 0 ? all[prefix.length % all.length]!.slice(0, 1 + (limit % 4)) : prefix;
            for (const p of [prefix, cut]) expect(table.withPrefix(p, limit), p).toEqual(definition(all, p, limit));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds a run in a large dictionary and drops a prefix more common than the limit', () => {
    const terms = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 5000}x`);
    terms.push('lockfile', 'locking', 'lock', 'locksmith');
    const table = new TermTable(freezeTerms(terms));
    expect(table.withPrefix('lock', 16)!.map((id) => table.term(id))).toEqual(['lockfile', 'locking', 'locksmith']);
    expect(table.withPrefix('w123', 16)).toEqual(definition(terms, 'w123', 16));
    expect(table.withPrefix('w123', 16)!.length).toBe(11);
    expect(table.withPrefix('w1', 16)).toBeUndefined(); // under 3 bytes
    expect(table.withPrefix('w1x', 16)).toEqual([]);
    expect(table.withPrefix('w12', 16)).toBeUndefined(); // 111 terms
  });
});
