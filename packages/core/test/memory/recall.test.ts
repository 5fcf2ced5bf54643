import { describe, expect, it } from 'vitest';
import { type IndexDocument } from '../../src/memory/documents/document.js';
import { MemoryArgumentError } from '../../src/memory/errors.js';
import { rankDocuments } from '../../src/memory/recall/rank.js';
import { recall } from '../../src/memory/recall/recall.js';
import { RANKING_DEFAULTS } from '../../src/memory/recall/ranking.js';
import { recencyOf, recallScore } from '../../src/memory/recall/score.js';
import { indexDoc, indexStateOf as stateOf, RANKING_NOW } from './helpers.js';

const HOUR = 3_600_000;
const NOW = RANKING_NOW;

/** A memory whose title was written as one (ranked as a title). */
const doc = (id: string, text: string, over: Partial<IndexDocument> = {}): IndexDocument =>
  indexDoc(id, text, { untitled: false, ...over });

describe('scoring (pure)', () => {
  it.each([
    [0, HOUR, 1],
    [HOUR, HOUR, 0.5],
    [2 * HOUR, HOUR, 0.25],
    [-5 * HOUR, HOUR, 1],
    [HOUR, 0, 0],
  ])('recency of age %d with half-life %d is %d', (age, halfLife, want) => {
    expect(recencyOf(age, halfLife)).toBeCloseTo(want, 12);
  });

  it("combines relevance and recency with memQL's weights", () => {
    expect(recallScore(1, 0.5, 0.7, 0.3)).toBeCloseTo(0.85, 12);
  });
});

describe('recall', () => {
  // A strong but old match, and a weaker but fresh one.
  const state = stateOf(
    doc('old-strong.md', 'vault lock timeout: the lock timeout is ten seconds', { updatedMs: NOW - 48 * HOUR }),
    doc('fresh-weak.md', 'a lock timeout checklist for the vault', { updatedMs: NOW - 0.5 * HOUR }),
    doc('unrelated.md', 'conflict copies from sync tools', { updatedMs: NOW }),
  );

  // These memories are notes: their recency decays with noteHalfLife (halfLife is the episodes').
  it("with memQL's formula, a change of halfLife reorders the results", async () => {
    const weights = { wSem: 0.5, wRec: 0.5, formula: 'memql' as const };
    const short = await recall({ state }, { text: 'lock timeout', now: NOW, noteHalfLife: HOUR, ...weights });
    const long = await recall({ state }, { text: 'lock timeout', now: NOW, noteHalfLife: 1000 * HOUR, ...weights });
    const zero = await recall({ state }, { text: 'lock timeout', now: NOW, noteHalfLife: 0 });
    expect(short.items.map((i) => i.id)).toEqual(['fresh-weak.md', 'old-strong.md']);
    expect(long.items.map((i) => i.id)).toEqual(['old-strong.md', 'fresh-weak.md']);
    expect(zero.items.every((i) => i.recency === 0)).toBe(true);
  });

  it('by default, recency never lifts the weaker match over the clearly better one, whatever the half-life', async () => {
    for (const noteHalfLife of [HOUR, 1000 * HOUR, 0]) {
      const r = await recall({ state }, { text: 'lock timeout', now: NOW, noteHalfLife });
      expect(r.items.map((i) => i.id)).toEqual(['old-strong.md', 'fresh-weak.md']);
    }
  });

  it('reports similarity, recency and score per item, relevance normalized to the best match', async () => {
    const r = await recall({ state }, { text: 'lock timeout', now: NOW });
    const strong = r.items.find((i) => i.id === 'old-strong.md')!;
    const weak = r.items.find((i) => i.id === 'fresh-weak.md')!;
    expect(r.mode).toBe('lexical');
    // Notes decay over the note half-life (30 days): two days of age no longer lose to a weaker match.
    expect(r.items.map((i) => i.id)).toEqual(['old-strong.md', 'fresh-weak.md']);
    expect(strong.similarity).toBe(1);
    expect(weak.similarity).toBeGreaterThan(0);
    expect(weak.similarity).toBeLessThan(1);
    expect(weak.recency).toBeCloseTo(Math.pow(2, -0.5 / 720), 12);
    expect(strong.recency).toBeCloseTo(Math.pow(2, -48 / 720), 12);
    // The recency prior: relevance × (1 + φ·phrase share) × (1 + β·recency), φ and β small and bounded;
    // both notes hold "lock timeout" side by side (share 1).
    const { phrase, recencyBoost } = RANKING_DEFAULTS;
    for (const i of r.items)
      expect(i.score).toBeCloseTo(i.similarity * (1 + phrase) * (1 + recencyBoost * i.recency), 12);
    for (const i of r.items) expect(i.coverage).toBe(1);
    expect(strong.words).toBe(2);
    expect(strong.evidence).toBeGreaterThan(0);
  });

  it('a window excludes memories older than it', async () => {
    const r = await recall({ state }, { text: 'lock timeout', now: NOW, window: 24 * HOUR });
    expect(r.items.map((i) => i.id)).toEqual(['fresh-weak.md']);
  });

  it('keeps to the project and global notes, and never returns pruned, superseded or inbox notes', async () => {
    const s = stateOf(
      doc('global.md', 'lock timeout'),
      doc('mine.md', 'lock timeout', { owner: 'agentm' }),
      doc('theirs.md', 'lock timeout', { owner: 'other' }),
      doc('pruned.md', 'lock timeout', { status: 'pruned' }),
      doc('superseded.md', 'lock timeout', { status: 'superseded' }),
      doc('inbox.md', 'lock timeout', { status: 'inbox' }),
    );
    expect(
      (await recall({ state: s }, { text: 'lock timeout', project: 'agentm', now: NOW })).items.map((i) => i.id).sort(),
    ).toEqual(['global.md', 'mine.md']);
    expect((await recall({ state: s }, { text: 'lock timeout', now: NOW })).items.map((i) => i.id).sort()).toEqual([
      'global.md',
      'mine.md',
      'theirs.md',
    ]);
    expect(
      (await recall({ state: s }, { text: 'lock timeout', project: '', now: NOW })).items.map((i) => i.id),
    ).toEqual(['global.md']);
  });

  it('filters by kind, honours k, and ranks by recency alone without words', async () => {
    const s = stateOf(
      doc('a.md', 'alpha', { kind: 'fix', updatedMs: NOW - 3 * HOUR }),
      doc('b.md', 'beta', { kind: 'episode', updatedMs: NOW - HOUR }),
      doc('c.md', 'gamma', { kind: 'fix', updatedMs: NOW - 2 * HOUR }),
    );
    const hourly = { now: NOW, noteHalfLife: HOUR }; // notes and episodes on the same clock
    expect((await recall({ state: s }, { text: '', ...hourly })).items.map((i) => i.id)).toEqual([
      'b.md',
      'c.md',
      'a.md',
    ]);
    expect((await recall({ state: s }, { text: 'the of', ...hourly, k: 1 })).items.map((i) => i.id)).toEqual(['b.md']);
    expect((await recall({ state: s }, { now: NOW, kinds: ['fix'] })).items.map((i) => i.id)).toEqual(['c.md', 'a.md']);
  });

  it("weighs an episode below an equally matching note, and a global note below the project's own when scoped", () => {
    const docs = [
      doc('note.md', '', { owner: 'p' }),
      doc('log.md#1', '', { owner: 'p', kind: 'episode', locator: 'log.md' }),
      doc('global.md', ''),
    ];
    // The episode holds half of the query's words (its score already counts for that: 2 × 0.5).
    const matches = {
      slots: Int32Array.of(0, 1, 2),
      scores: Float64Array.of(1, 2, 1),
      coverage: Float64Array.of(1, 0.5, 1),
      count: 3,
    };
    const options = { k: 3, window: 0, halfLife: 0, wSem: 1, wRec: 0, params: RANKING_DEFAULTS, now: NOW };
    const rank = (extra: object, m = matches) =>
      rankDocuments(docs, m, undefined, { ...options, ...extra }).map((r) => [r.doc.id, r.similarity]);
    expect(rank({ project: 'p', logWeight: 0.8, globalWeight: 0.85 })).toEqual([
      ['note.md', 1],
      ['global.md', 0.85],
      ['log.md#1', 0.8],
    ]);
    // Unscoped, no note is "global" to anything: only the episode weighs less.
    expect(rank({ logWeight: 0.8, globalWeight: 0.85 }).map(([, similarity]) => similarity)).toEqual([1, 1, 0.8]);
    // An episode holding every word of the query is an answer in its own right: weighed as a note.
    const full = {
      slots: Int32Array.of(0, 1),
      scores: Float64Array.of(1, 2),
      coverage: Float64Array.of(1, 1),
      count: 2,
    };
    expect(rank({ project: 'p', logWeight: 0.8 }, full)).toEqual([
      ['log.md#1', 1],
      ['note.md', 0.5],
    ]);
  });

  it('ranks the note holding every query word above a fresher, shorter one holding one of them', async () => {
    const filler = 'words about other things entirely '.repeat(6);
    const s = stateOf(
      doc('full.md', `${filler} the vault lock timeout is ten seconds ${filler}`, { updatedMs: NOW - 20 * 24 * HOUR }),
      doc('partial.md', 'timeout timeout timeout', { updatedMs: NOW - 60_000 }),
      ...Array.from({ length: 8 }, (_, i) => doc(`vault-${i}.md`, `the vault ${filler}`)),
    );
    const r = await recall({ state: s }, { text: 'vault lock timeout', now: NOW, k: 2 });
    expect(r.items.map((i) => i.id)).toEqual(['full.md', 'partial.md']);
  });

  it('makes a snippet around the first matching word', async () => {
    const long = `${'filler words here '.repeat(6)}the heartbeat refreshes the lock directory every five seconds ${'more filler '.repeat(20)}`;
    const r = await recall({ state: stateOf(doc('long.md', long)) }, { text: 'heartbeats', now: NOW });
    expect(r.items[0]!.snippet).toMatch(/^….*heartbeat refreshes the lock/);
  });

  it.each([
    [{ k: 0 }, /k must be a positive integer/],
    [{ k: 2.5 }, /k must be a positive integer/],
    [{ window: -1 }, /window must be ≥ 0/],
    [{ halfLife: Number.NaN }, /halfLife must be ≥ 0/],
    [{ wSem: Number.POSITIVE_INFINITY }, /wSem must be a finite number/],
    [{ formula: 'newest' }, /formula must be "prior" or "memql"/],
    [{ ranking: { recencyBoost: 2 } }, /ranking.recencyBoost must be a number in \[0, 0.5\]/],
    [{ ranking: { fields: [1, 2] } }, /ranking.fields must be four numbers/],
  ])('refuses %o with a typed error', async (bad, message) => {
    await expect(recall({ state }, { text: 'x', ...(bad as object) })).rejects.toThrow(MemoryArgumentError);
    await expect(recall({ state }, { text: 'x', ...(bad as object) })).rejects.toThrow(message);
  });

  it('rankDocuments breaks score ties by recency', () => {
    const docs = [
      { id: 'a', locator: 'a', title: 'a', owner: '', kind: 'fix', status: 'active', updatedMs: NOW - 2 * HOUR },
      { id: 'b', locator: 'b', title: 'b', owner: '', kind: 'fix', status: 'active', updatedMs: NOW - HOUR },
    ];
    const ranked = rankDocuments(docs, undefined, undefined, {
      k: 2,
      window: 0,
      halfLife: 0,
      wSem: 0.7,
      wRec: 0.3,
      params: RANKING_DEFAULTS,
      now: NOW,
      project: undefined,
      kinds: undefined,
    });
    expect(ranked.map((r) => r.doc)).toEqual([docs[1], docs[0]]);
  });
});

describe('the columnar ranking view', () => {
  it('ranks exactly like the plain view over the documents, for any scope', async () => {
    const fc = (await import('fast-check')).default;
    const owners = ['', 'a', 'b'];
    const kinds = ['fix', 'episode', 'idea'];
    const statuses = ['active', 'pruned', 'superseded', 'Active '];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            owner: fc.constantFrom(...owners),
            kind: fc.constantFrom(...kinds),
            status: fc.constantFrom(...statuses),
            age: fc.nat(100),
            words: fc.array(fc.constantFrom('lock', 'vault', 'sync', 'tests'), { minLength: 1, maxLength: 5 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.record({
          project: fc.option(fc.constantFrom('', 'a', 'b', 'c'), { nil: undefined }),
          kinds: fc.option(fc.subarray(kinds), { nil: undefined }),
          window: fc.constantFrom(0, 10 * HOUR, 50 * HOUR),
          k: fc.integer({ min: 1, max: 8 }),
          text: fc.constantFrom('lock', 'vault sync', 'tests lock', ''),
        }),
        fc.array(fc.nat(29), { maxLength: 5 }),
        (docs, q, removals) => {
          const state = stateOf(
            ...docs.map((d, i) =>
              doc(`d${i}.md`, d.words.join(' '), {
                owner: d.owner,
                kind: d.kind,
                status: d.status,
                updatedMs: NOW - d.age * HOUR,
              }),
            ),
          );
          for (const r of removals) state.deleteFile(`d${r}.md`);
          const terms = q.text ? q.text.split(' ') : [];
          const matches = terms.length > 0 ? state.bm25.search(terms) : undefined;
          const options = { ...q, halfLife: HOUR, wSem: 0.7, wRec: 0.3, params: RANKING_DEFAULTS, now: NOW, terms };
          const ids = (r: { doc: { id: string }; score: number }[]) => r.map((x) => [x.doc.id, x.score]);
          expect(ids(rankDocuments(state.rankView(), matches, undefined, options))).toEqual(
            ids(
              rankDocuments(
                Array.from({ length: state.bm25.slotCount }, (_, slot) => state.doc(slot)),
                matches,
                undefined,
                options,
              ),
            ),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
