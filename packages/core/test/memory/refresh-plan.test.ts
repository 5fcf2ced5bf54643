import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRefresh, planWalk, type KnownFiles } from '../../src/memory/indexing/refresh-plan.js';

/** Rows as a file table holds them: some dead (a replaced or removed file's), the live ones by key. */
function rows(entries: ReadonlyArray<{ key: string; mtimeMs: number; size: number; live: boolean }>): KnownFiles {
  const byKey = new Map<string, number>();
  entries.forEach((e, row) => {
    if (e.live) byKey.set(e.key, row);
  });
  return {
    row: (key) => byKey.get(key),
    mtime: (row) => entries[row]!.mtimeMs,
    size: (row) => entries[row]!.size,
    rows: entries.length,
    live: (row) => entries[row]!.live && byKey.get(entries[row]!.key) === row,
    key: (row) => entries[row]!.key,
  };
}

describe('a walk compared with the index by rows', () => {
  it('plans what comparing by keys plans: the same reads, removals and unchanged count', () => {
    const key = fc.constantFrom('a.md', 'b.md', 'c/d.md', 'c/e.md', 'f.md', 'g.md');
    const stat = fc.record({ mtimeMs: fc.integer({ min: 0, max: 3 }), size: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ key, live: fc.boolean() }).chain((e) => stat.map((s) => ({ ...e, ...s }))),
          { maxLength: 12 },
        ),
        fc.uniqueArray(
          fc.record({ key }).chain((e) => stat.map((s) => ({ ...e, ...s }))),
          { selector: (s) => s.key },
        ),
        (entries, seen) => {
          const known = rows(entries);
          const live = [...Array(known.rows).keys()].filter((r) => known.live(r));
          const byKey = new Map(live.map((r) => [known.key(r), { mtimeMs: known.mtime(r), size: known.size(r) }]));
          const want = planRefresh(byKey, seen);
          const got = planWalk(
            known,
            seen.map((s) => ({ locator: { key: s.key }, mtimeMs: s.mtimeMs, size: s.size })),
          );
          expect(got.read).toEqual(want.read);
          expect([...got.remove].sort()).toEqual([...want.remove].sort());
          expect(got.unchanged).toBe(want.unchanged);
        },
      ),
      { numRuns: 500 },
    );
  });
});
