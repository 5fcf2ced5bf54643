// An answer that finds folders changed lists each and compares it with the index's files in it. Those files
// come from one pass over the index's keys for all the folders (`byFolder`): it must give, for every
// folder, exactly the keys directly in it that a scan by prefix gives — snapshot keys and keys added since,
// the root, nested and absent folders, accents and CJK in names, dead rows skipped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringRows } from '../../src/memory/indexing/columns.js';

function frozen(keys: readonly string[]): { blob: Uint8Array; offsets: Uint32Array } {
  const parts = keys.map((k) => Buffer.from(k, 'utf8'));
  const offsets = new Uint32Array(keys.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  return { blob: new Uint8Array(Buffer.concat(parts)), offsets };
}

const segment = fc.constantFrom('a', 'b', 'notes', 'é', '語', 'x y', 'a.b');
const folder = fc.array(segment, { minLength: 0, maxLength: 3 }).map((s) => s.join('/'));
const key = fc
  .tuple(folder, fc.constantFrom('one.md', 'two.md', 'é.md', 'PLAN.md'))
  .map(([f, n]) => (f ? `${f}/${n}` : n));

describe('StringRows.byFolder', () => {
  it('gives each folder the rows directly in it, as a prefix scan does', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { maxLength: 40 }),
        fc.uniqueArray(key, { maxLength: 10 }),
        fc.uniqueArray(folder, { minLength: 1, maxLength: 6 }),
        fc.func(fc.boolean()),
        (snapshot, later, folders, alive) => {
          const rows = new StringRows(frozen(snapshot));
          later.forEach((k, j) => rows.set(rows.frozenCount + j, k));
          const keep = (i: number) => alive(i);
          const found = rows.byFolder(new Set(folders), keep);
          expect([...found.keys()].sort()).toEqual([...new Set(folders)].sort());
          for (const f of folders)
            expect(found.get(f), f).toEqual(rows.withPrefix(f === '' ? '' : `${f}/`, false, keep));
        },
      ),
      { numRuns: 300 },
    );
  });
});
