// A snapshot opened lazily (its sections paged in as recall reads them: snapshot-pages.ts) answers
// exactly as the same snapshot read whole, before and after changes; and a search that skips what cannot
// reach the ranking's best (bm25-prune.ts) ranks exactly as the full one. Under vitest, unread pages hold
// 0xA5 bytes (vitest.config.ts), so a read that forgot to page its bytes in shows as a wrong answer here.
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EPISODE_KIND, type IndexDocument } from '../../src/memory/documents/document.js';
import { decodeSnapshot, encodeSnapshot, openSnapshot } from '../../src/memory/indexing/codec.js';
import { IndexState } from '../../src/memory/indexing/index-state.js';
import { pruningFor, rankDocuments } from '../../src/memory/recall/rank.js';
import { queryConcepts, queryWords } from '../../src/memory/recall/query-plan.js';
import { RANKING_DEFAULTS } from '../../src/memory/recall/ranking.js';
import { recall } from '../../src/memory/recall/recall.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const DAY = 86_400_000;
// A few words in nearly every document, most in a few: the shape of a real vault's vocabulary.
// 'look' is a function word: it ranks, but a match's evidence and words leave it out.
const WORDS = ['lock', 'vault', 'sync', 'note', 'recall', 'index', 'cache', 'merge', 'heartbeat', 'rename', 'look'];
const RARE = Array.from({ length: 40 }, (_, i) => `term${String.fromCharCode(97 + (i % 26))}${i}`);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentm-lazy-snapshot-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Spec {
  readonly words: string[];
  readonly title: string[];
  readonly owner: number;
  readonly episode: boolean;
  readonly age: number;
}

const spec: fc.Arbitrary<Spec> = fc.record({
  words: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...WORDS) }, fc.constantFrom(...RARE)), {
    minLength: 1,
    maxLength: 14,
  }),
  title: fc.array(fc.constantFrom(...WORDS, ...RARE), { maxLength: 3 }),
  owner: fc.integer({ min: 0, max: 2 }),
  episode: fc.boolean(),
  age: fc.integer({ min: 0, max: 90 }),
});

const query = fc.array(fc.constantFrom(...WORDS, ...WORDS, ...RARE, 'absent'), { minLength: 1, maxLength: 5 });

function docOf(s: Spec, i: number, round = 0): IndexDocument {
  const id = `${s.owner === 0 ? 'memory' : `desk/projects/p${s.owner}`}/fix/n${i}-${round}.md`;
  return {
    id: s.episode ? `${id}#e${i}` : id,
    locator: id,
    owner: s.owner === 0 ? '' : `p${s.owner}`,
    kind: s.episode ? EPISODE_KIND : 'fix',
    status: 'active',
    tags: [],
    alwaysLoad: false,
    createdMs: NOW - s.age * DAY,
    updatedMs: NOW - s.age * DAY,
    title: s.title.length > 0 ? s.title.join(' ') : `n${i}`,
    untitled: s.title.length === 0,
    text: s.words.join(' '),
    fingerprint: `f${i}-${round}`,
    derivedFrom: [],
  };
}

function build(specs: readonly Spec[]): IndexState {
  const state = new IndexState();
  state.beginBulk();
  specs.forEach((s, i) => {
    const d = docOf(s, i);
    state.putFile({ key: d.locator, mtimeMs: i, size: i, hash: `h${i}` }, [d]);
  });
  state.endBulk();
  return state;
}

async function answers(state: IndexState, queries: readonly string[][]): Promise<string[]> {
  const out: string[] = [];
  for (const [i, q] of queries.entries()) {
    const project = i % 3 === 0 ? undefined : `p${i % 3}`;
    const r = await recall({ state }, { text: q.join(' '), project, k: 1 + (i % 7), now: NOW });
    out.push(r.items.map((it) => `${it.id}:${it.score}:${it.coverage}:${it.evidence}`).join(' '));
  }
  return out;
}

let files = 0;
async function lazyAndWhole(state: IndexState): Promise<{ lazy: IndexState; whole: IndexState }> {
  const bytes = Buffer.concat([...encodeSnapshot(state, { root: '/r', snapshotId: 's', builtMs: 1 })]);
  const path = join(dir, `index-${files++}.snap`);
  await writeFile(path, bytes);
  return { lazy: openSnapshot(path, { verify: files % 2 === 0 }).state, whole: decodeSnapshot(bytes).state };
}

describe('a snapshot opened lazily', () => {
  it('answers every recall as the snapshot read whole does, before and after changes, and writes the same snapshot', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(spec, { minLength: 1, maxLength: 60 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(80), spec), { maxLength: 8 }),
        async (specs, queries, changes) => {
          const { lazy, whole } = await lazyAndWhole(build(specs));
          expect(await answers(lazy, queries)).toEqual(await answers(whole, queries));
          for (const [j, [at, s]] of changes.entries()) {
            const target = at % (specs.length + 2);
            for (const state of [lazy, whole]) {
              if (target < specs.length && j % 2 === 0) state.deleteFile(docOf(specs[target]!, target).locator);
              else {
                const d = docOf(s, target, j + 1);
                state.putFile({ key: d.locator, mtimeMs: j, size: j, hash: `c${j}` }, [d]);
              }
            }
          }
          expect(await answers(lazy, queries)).toEqual(await answers(whole, queries));
          const meta = { root: '/r', snapshotId: 't', builtMs: 2 };
          expect(Buffer.concat([...encodeSnapshot(lazy, meta)])).toEqual(
            Buffer.concat([...encodeSnapshot(whole, meta)]),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it.skipIf(process.platform !== 'linux')('lets go of the file once it is read whole', async () => {
    const { lazy } = await lazyAndWhole(build([{ words: ['lock'], title: [], owner: 0, episode: false, age: 0 }]));
    const path = join(dir, `index-${files - 1}.snap`);
    const held = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false;
        }
      }).length;
    expect(held()).toBe(1);
    lazy.readAll();
    expect(held()).toBe(0);
    expect((await recall({ state: lazy }, { text: 'lock', now: NOW })).items).toHaveLength(1);
  });
});

/**
 * `size` documents whose words follow a vocabulary's usual shape (seeded): the first words in most
 * documents, the later ones in fewer and fewer.
 */
function zipfSpecs(seed: number, size: number, skew: number): Spec[] {
  let x = seed;
  const random = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const vocabulary = [...WORDS, ...RARE];
  const pick = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(vocabulary.length * random() ** skew))]!;
  return Array.from({ length: size }, () => ({
    words: Array.from({ length: 1 + Math.floor(random() * 12) }, pick),
    title: random() < 0.3 ? [pick()] : [],
    owner: Math.floor(random() * 3),
    episode: random() < 0.2,
    age: Math.floor(random() * 90),
  }));
}

describe('a search that skips what cannot reach the best', () => {
  it('ranks exactly as the full search, for any scope, weights and k', () => {
    let skipped = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 300, max: 1500 }),
        fc.constantFrom(1.5, 2.5, 4, 4),
        // Mostly a word of the vocabulary's middle beside words of its head: the queries that prune.
        fc.oneof(
          {
            weight: 3,
            arbitrary: fc.tuple(
              fc.constantFrom(...WORDS.slice(0, 3)),
              fc.constantFrom(...WORDS.slice(4), ...RARE.slice(0, 6)),
            ),
          },
          query,
        ),
        fc.record({
          project: fc.constantFrom(undefined, 'p1', 'p2'),
          k: fc.integer({ min: 1, max: 12 }),
          logWeight: fc.constantFrom(0.7, 1, 0.2),
          globalWeight: fc.constantFrom(0.85, 1, 0.3),
          coverage: fc.constantFrom(0, 0.5, 1, 2),
          fused: fc.constantFrom(false, false, false, true),
        }),
        (seed, size, skew, words, o) => {
          const state = build(zipfSpecs(seed, size, skew));
          const params = { ...RANKING_DEFAULTS, coverage: o.coverage };
          const terms = queryWords(words.join(' '));
          const concepts = queryConcepts(terms, state.bm25, params);
          const view = state.rankView();
          const options = {
            project: o.project,
            k: o.k,
            window: 0,
            now: NOW,
            halfLife: 3_600_000,
            noteHalfLife: 30 * DAY,
            logWeight: o.logWeight,
            globalWeight: o.globalWeight,
            wSem: 0.7,
            wRec: 0.3,
            params,
            terms,
          };
          const bm25 = { k1: params.k1, b: params.b, fields: params.fields };
          const prune = pruningFor(view, options, params.coverage, o.fused);
          expect(prune).toBeDefined();
          const full = state.bm25.searchConcepts(concepts, bm25);
          const pruned = state.bm25.searchConcepts(concepts, bm25, prune);
          expect(pruned.count).toBeLessThanOrEqual(full.count);
          // Cosines that order documents unlike BM25 does, for the fused ranking.
          const cosines = o.fused
            ? Float64Array.from({ length: state.bm25.slotCount }, (_, s) => (s % 5) / 5)
            : undefined;
          const rank = (m: typeof full) =>
            rankDocuments(view, m, cosines, options).map(
              (r) => `${r.doc.id}:${r.score}:${r.coverage}:${r.evidence}:${r.words}`,
            );
          expect(rank(pruned)).toEqual(rank(full));
          if (pruned.count < full.count) skipped++;
        },
      ),
      { numRuns: 300 },
    );
    // The property is about pruned searches: about one in ten of the generated ones prunes (seeds vary;
    // fewer than six of 300 would be a one-in-10¹⁰ draw).
    expect(skipped).toBeGreaterThan(5);
  });

  it('keeps the documents only a common word matches when they beat the matches of a rare word', () => {
    // 25 documents mention `merge` once among 19 other words; 120 hold `lock` in their title and text:
    // short, with `lock` in the title, they outrank the `merge` ones (no coverage weight) — so the
    // search must read `lock` in full, although `merge` is rarer and read first.
    const filler = Array.from({ length: 19 }, (_, i) => `filler${i}`);
    const specs: Spec[] = [
      ...Array.from({ length: 25 }, (_, i) => ({
        words: ['merge', ...filler],
        title: [],
        owner: 0,
        episode: false,
        age: i,
      })),
      ...Array.from({ length: 120 }, (_, i) => ({
        words: ['lock'],
        title: ['lock'],
        owner: 0,
        episode: false,
        age: i,
      })),
      ...Array.from({ length: 455 }, (_, i) => ({
        words: ['vault', 'sync'],
        title: [],
        owner: 0,
        episode: false,
        age: i,
      })),
    ];
    const state = build(specs);
    const params = { ...RANKING_DEFAULTS, coverage: 0 };
    const terms = queryWords('merge lock');
    const view = state.rankView();
    const options = { k: 1, window: 0, now: NOW, halfLife: 3_600_000, wSem: 0.7, wRec: 0.3, params, terms };
    const bm25 = { k1: params.k1, b: params.b, fields: params.fields };
    const concepts = queryConcepts(terms, state.bm25, params);
    const full = state.bm25.searchConcepts(concepts, bm25);
    const pruned = state.bm25.searchConcepts(concepts, bm25, pruningFor(view, options, params.coverage, false));
    const top = rankDocuments(view, pruned, undefined, options);
    expect(top).toEqual(rankDocuments(view, full, undefined, options));
    expect(top[0]!.doc.title).toBe('lock');
  });

  it('reads none of the entries of a word in nearly every document when a rare word decides', () => {
    const specs: Spec[] = Array.from({ length: 400 }, (_, i) => ({
      words: i % 10 === 0 ? ['lock', 'terma0'] : ['lock', 'vault'],
      title: [],
      owner: 0,
      episode: false,
      age: i % 30,
    }));
    const state = build(specs);
    const params = RANKING_DEFAULTS;
    const terms = queryWords('lock terma0');
    const view = state.rankView();
    const options = {
      k: 3,
      window: 0,
      now: NOW,
      halfLife: 3_600_000,
      wSem: 0.7,
      wRec: 0.3,
      params,
      terms,
    };
    const bm25 = { k1: params.k1, b: params.b, fields: params.fields };
    const concepts = queryConcepts(terms, state.bm25, params);
    const full = state.bm25.searchConcepts(concepts, bm25);
    const pruned = state.bm25.searchConcepts(concepts, bm25, pruningFor(view, options, params.coverage, false));
    expect(full.count).toBe(400);
    // Only the forty documents holding the rare word are scored (each with its `lock` too).
    expect(pruned.count).toBe(40);
    expect(rankDocuments(view, pruned, undefined, options)).toEqual(rankDocuments(view, full, undefined, options));
  });
});
