import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bm25Index, BM25_B, BM25_K1 } from '../../src/memory/indexing/bm25.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/memory/indexing/codec.js';
import { IndexState } from '../../src/memory/indexing/index-state.js';
import { searchableFields } from '../../src/memory/indexing/searchable.js';
import { stem, tokenize } from '../../src/memory/indexing/tokenize.js';

/** BM25 computed from scratch over the live documents: the oracle. */
function bruteForce(docs: Map<number, string[]>, query: string[]): Map<number, number> {
  const n = docs.size;
  const avg = [...docs.values()].reduce((s, d) => s + d.length, 0) / n;
  const out = new Map<number, number>();
  for (const term of new Set(query)) {
    const df = [...docs.values()].filter((d) => d.includes(term)).length;
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (const [slot, d] of docs) {
      const tf = d.filter((t) => t === term).length;
      if (tf === 0) continue;
      const s = (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * d.length) / avg));
      out.set(slot, (out.get(slot) ?? 0) + s);
    }
  }
  return out;
}

const word = fc.constantFrom('lock', 'vault', 'sync', 'note', 'recall', 'index', 'cache', 'merge');

describe('tokenize', () => {
  it('lower-cases, folds diacritics, drops stop words and one-letter tokens, stems English words (Porter)', () => {
    expect(tokenize('The Café LOCKS a vault; x, policies, caches, status, glass — ναί 2026')).toEqual([
      'cafe',
      'lock',
      'vault',
      'polici',
      'cach',
      'status',
      'glass',
      'ναι',
      '2026',
    ]);
    expect(stem('bus')).toBe('bus');
    expect(stem('v2')).toBe('v2');
  });

  it("stems as Snowball English does where Porter2 implementations part: a y after a vowel, Snowball's invariants", () => {
    // A y after a vowel is a consonant, so -er is in R2 and goes: the doer finds the deed.
    expect(tokenize('naysayers naysayer naysay waylayer waylay')).toEqual([
      'naysay',
      'naysay',
      'naysay',
      'waylay',
      'waylay',
    ]);
    // Snowball's exceptional forms keep their spelling (not how → how).
    expect(tokenize('howe news atlas cosmos bias')).toEqual(['howe', 'news', 'atlas', 'cosmos', 'bias']);
    expect(tokenize('skies dying lying early gently')).toEqual(['sky', 'die', 'lie', 'earli', 'gentl']);
  });

  it.each([
    ['configure configuring configuration configured', ['configur', 'configur', 'configur', 'configur']],
    ['retry retries retried retrying', ['retri', 'retri', 'retri', 'retri']],
    ['deploy deployment deploying deployed', ['deploy', 'deploy', 'deploy', 'deploy']],
    ['status statuses', ['status', 'status']],
  ])('gives the inflections of a word one term: %s', (text, terms) => {
    expect(tokenize(text)).toEqual(terms);
  });

  it.each([
    ['getUserById', ['getuserbyid', 'get', 'user', 'id']],
    ['HTTPServer', ['httpserver', 'http', 'server']],
    ['utf8Decoder', ['utf8decoder', 'utf8', 'decod']],
    ['max_retry_count', ['max', 'retri', 'count']],
    ['RETRY_DELAY retryDelay', ['retri', 'delay', 'retrydelay', 'retri', 'delay']],
    ['iPhone', ['iphon', 'phone']],
  ])('keeps a code identifier whole and splits it into its words: %s', (text, terms) => {
    expect(tokenize(text)).toEqual(terms);
  });
});

describe('Bm25Index', () => {
  it('scores exactly like BM25 computed from scratch, through adds and removes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        (docs, removals, query) => {
          const index = new Bm25Index();
          const live = new Map<number, string[]>();
          for (const d of docs) live.set(index.add(d), d);
          for (const r of removals) {
            const slot = r % docs.length;
            index.remove(slot);
            live.delete(slot);
          }
          const got = index.search(query);
          const want = live.size > 0 ? bruteForce(live, query) : new Map();
          expect(got.count).toBe(want.size);
          for (let i = 0; i < got.count; i++) expect(got.scores[i]).toBeCloseTo(want.get(got.slots[i]!)!, 9);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('scores the same when built in bulk, extended afterwards, and written and read back', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.array(word, { minLength: 1, maxLength: 12 }), { maxLength: 8 }),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        (first, later, query) => {
          const state = new IndexState();
          const live = new Map<number, string[]>();
          const put = (words: string[], i: number) => {
            const d = {
              id: `d${i}`,
              locator: `d${i}`,
              owner: '',
              kind: 'fix',
              status: 'active',
              tags: [],
              alwaysLoad: false,
              createdMs: 0,
              updatedMs: 0,
              title: '',
              text: words.join(' '),
              fingerprint: 'f',
              derivedFrom: [],
            };
            state.putFile({ key: d.id, mtimeMs: 0, size: 0, hash: 'h' }, [d]);
          };
          state.beginBulk();
          first.forEach(put);
          state.endBulk();
          later.forEach((w, i) => put(w, first.length + i));
          const back = decodeSnapshot(
            Buffer.concat([...encodeSnapshot(state, { root: '/', snapshotId: 's', builtMs: 0 })]),
          ).state;
          back.putFile({ key: 'extra', mtimeMs: 0, size: 0, hash: 'h' }, [
            {
              id: 'extra',
              locator: 'extra',
              owner: '',
              kind: 'fix',
              status: 'active',
              tags: [],
              alwaysLoad: false,
              createdMs: 0,
              updatedMs: 0,
              title: '',
              text: query.join(' '),
              fingerprint: 'f',
              derivedFrom: [],
            },
          ]);
          for (const s of [state, back]) {
            live.clear();
            for (const doc of s.docs.values())
              // Term frequency and length come from the text (fields only flag terms: weight 0 here).
              live.set(
                doc.slot,
                tokenize(
                  s === back && doc.id === 'extra'
                    ? query.join(' ')
                    : doc.id === 'extra'
                      ? ''
                      : [...first, ...later][Number(doc.id.slice(1))]!.join(' '),
                ),
              );
            const got = s.bm25.search(query);
            const want = bruteForce(live, query);
            expect(got.count).toBe(want.size);
            for (let i = 0; i < got.count; i++) expect(got.scores[i]).toBeCloseTo(want.get(got.slots[i]!)!, 9);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('scores exactly like BM25 from scratch when searches, removals and additions alternate', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ add: fc.array(word, { minLength: 1, maxLength: 8 }) }),
            fc.record({ remove: fc.nat() }),
            fc.record({ search: fc.array(word, { minLength: 1, maxLength: 3 }) }),
          ),
          { maxLength: 40 },
        ),
        (steps) => {
          const index = new Bm25Index();
          const live = new Map<number, string[]>();
          for (const step of steps) {
            if ('add' in step) live.set(index.add(step.add), step.add);
            else if ('remove' in step) {
              const slots = [...live.keys()];
              if (slots.length === 0) continue;
              const slot = slots[step.remove % slots.length]!;
              index.remove(slot);
              live.delete(slot);
            } else {
              const got = index.search(step.search);
              const want = live.size > 0 ? bruteForce(live, step.search) : new Map();
              expect(got.count).toBe(want.size);
              for (let i = 0; i < got.count; i++) expect(got.scores[i]).toBeCloseTo(want.get(got.slots[i]!)!, 9);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('scores field-aware BM25 exactly like BM25F computed from scratch (title, slug, tags, headings weights)', () => {
    const fieldWord = fc.constantFrom('lock', 'vault', 'sync', 'note', 'recall', 'index');
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            title: fc.array(fieldWord, { maxLength: 3 }),
            tags: fc.array(fieldWord, { maxLength: 2 }),
            heading: fc.array(fieldWord, { maxLength: 2 }),
            text: fc.array(word, { maxLength: 10 }),
          }),
          { minLength: 1, maxLength: 15 },
        ),
        fc.array(fieldWord, { minLength: 1, maxLength: 3 }),
        fc.record({
          k1: fc.double({ min: 0.2, max: 3, noNaN: true }),
          b: fc.double({ min: 0, max: 1, noNaN: true }),
          fields: fc.tuple(...[0, 1, 2, 3].map(() => fc.double({ min: 0, max: 4, noNaN: true }))),
        }),
        (docs, query, params) => {
          const state = new IndexState();
          const made = docs.map((d, i) => {
            const text = `${d.heading.length > 0 ? `## ${d.heading.join(' ')}\n\n` : ''}${d.text.join(' ')}`;
            const doc = {
              id: `notes/d${i}.md`,
              locator: `notes/d${i}.md`,
              owner: '',
              kind: 'fix',
              status: 'active',
              tags: d.tags,
              alwaysLoad: false,
              createdMs: 0,
              updatedMs: 0,
              title: d.title.join(' '),
              untitled: d.title.length === 0,
              text,
              fingerprint: 'f',
              derivedFrom: [],
            };
            state.putFile({ key: doc.id, mtimeMs: 0, size: 0, hash: 'h' }, [doc]);
            return doc;
          });
          const lengths = made.map((d) => tokenize(d.text).length);
          const avg = lengths.reduce((a, b) => a + b, 0) / made.length || 1;
          const want = new Map<number, number>();
          for (const term of new Set(query.map((w) => tokenize(w)[0]!))) {
            const inField = made.map((d) =>
              searchableFields(d).reduce((f, [flag, t]) => (tokenize(t).includes(term) ? f | flag : f), 0),
            );
            const tfs = made.map((d) => tokenize(d.text).filter((t) => t === term).length);
            const df = made.filter((_, i) => tfs[i]! > 0 || inField[i]! > 0).length;
            if (df === 0) continue;
            const idf = Math.log(1 + (made.length - df + 0.5) / (df + 0.5));
            made.forEach((_, i) => {
              if (tfs[i] === 0 && inField[i] === 0) return;
              const boost = [0, 1, 2, 3].reduce((b, f) => (inField[i]! & (1 << f) ? b + params.fields[f]! : b), 0);
              const t = (tfs[i] === 0 ? 0 : tfs[i]! / (1 - params.b + (params.b * lengths[i]!) / avg)) + boost;
              want.set(i, (want.get(i) ?? 0) + (idf * (params.k1 + 1) * t) / (params.k1 + t));
            });
          }
          const got = state.bm25.search(
            query.map((w) => tokenize(w)[0]!),
            params,
          );
          expect(got.count).toBe(want.size);
          for (let i = 0; i < got.count; i++) {
            expect(Number.isFinite(got.scores[i])).toBe(true);
            expect(got.scores[i]).toBeCloseTo(want.get(Number(state.doc(got.slots[i]!)!.id.slice(7, -3)))!, 9);
          }
        },
      ),
      {
        numRuns: 150,
        // Found by a run: a match by tag alone in an empty body, b = 1 (the length norm 0/0 once scored NaN).
        examples: [
          [
            [
              { title: [], tags: ['lock'], heading: [], text: [] },
              { title: [], tags: [], heading: [], text: [] },
            ],
            ['lock'],
            { k1: 0.2, b: 1, fields: [0, 0, 0, 0] },
          ],
        ],
      },
    );
  });

  it('ranks a rare matching term above a common one', () => {
    const index = new Bm25Index();
    const a = index.add(tokenize('vault lock timeout after ten seconds'));
    const b = index.add(tokenize('vault sync settings'));
    index.add(tokenize('vault layout'));
    const m = index.search(tokenize('timeout vault'));
    const score = (slot: number) => m.scores[[...m.slots].indexOf(slot)]!;
    expect(score(a)).toBeGreaterThan(score(b));
  });

  it('survives a snapshot round trip with the same scores, without the removed documents', () => {
    const state = new IndexState();
    const doc = (id: string, text: string) => ({
      id,
      locator: id,
      owner: '',
      kind: 'fix',
      status: 'active',
      tags: ['t'],
      alwaysLoad: false,
      createdMs: 1,
      updatedMs: 2,
      title: id,
      text,
      fingerprint: 'f',
      derivedFrom: [],
    });
    const h1 = 'a'.repeat(64);
    state.putFile({ key: 'a.md', mtimeMs: 1, size: 1, hash: h1 }, [doc('a.md', 'lock timeout in the vault')]);
    state.putFile({ key: 'b.md', mtimeMs: 1, size: 1, hash: 'h2' }, [doc('b.md', 'sync conflict copies')]);
    state.putFile({ key: 'c.md', mtimeMs: 1, size: 1, hash: 'h3' }, [doc('c.md', 'lock directory heartbeat')]);
    state.deleteFile('b.md');
    const byId = (s: IndexState) => {
      const m = s.bm25.search(['lock']);
      return Object.fromEntries([...m.slots].map((slot, i) => [s.doc(slot)!.id, m.scores[i]]));
    };
    const before = byId(state);
    const { state: back } = decodeSnapshot(
      Buffer.concat([...encodeSnapshot(state, { root: '/r', snapshotId: 's', builtMs: 3 })]),
    );
    expect(byId(back)).toEqual(before);
    expect(Object.keys(before).sort()).toEqual(['a.md', 'c.md']);
    expect([...back.docs.keys()].sort()).toEqual(['a.md', 'c.md']);
    expect(back.files.get('a.md')).toEqual({ key: 'a.md', mtimeMs: 1, size: 1, hash: h1, docIds: ['a.md'] });
  });
});
