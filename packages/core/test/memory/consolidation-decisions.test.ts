import { describe, expect, it } from 'vitest';
import { type Belief } from '../../src/memory/consolidation/belief-store.js';
import { clusterBySimilarity } from '../../src/memory/consolidation/cluster.js';
import {
  clampConfidence,
  CONSOLIDATION_DEFAULTS,
  decayedConfidence,
  mergeProvenance,
  nextWatermark,
  reinforcedConfidence,
  shouldPrune,
  shouldReinforce,
} from '../../src/memory/consolidation/decisions.js';
import { planConsolidation } from '../../src/memory/consolidation/plan.js';
import { lexicalSimilarity } from '../../src/memory/similarity.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

describe('memQL consolidation rules (memql-behaviour §3.2)', () => {
  it.each([
    [0.86, 0.86, true, true],
    [0.8599, 0.86, true, false],
    [0.99, 0.86, false, false],
  ])('shouldReinforce(%d, %d, active=%s) = %s', (sim, threshold, active, want) => {
    expect(shouldReinforce(sim, threshold, active)).toBe(want);
  });

  it.each([
    [0.5, 0.15, 0.65],
    [0.9, 0.15, 1],
    [1, 0.15, 1],
  ])('reinforcedConfidence(%d, %d) = %d', (prior, bump, want) => {
    expect(reinforcedConfidence(prior, bump)).toBe(want);
  });

  it.each([
    ['inside the first window', 0.5, 29.9 * DAY, 30, 0.1, 0.5],
    ['one whole window', 0.5, 30 * DAY, 30, 0.1, 0.4],
    ['two whole windows and a bit', 0.5, 61 * DAY, 30, 0.1, 0.3],
    ['clamped at 0', 0.2, 300 * DAY, 30, 0.1, 0],
    ['decay disabled', 0.5, 300 * DAY, 0, 0.1, 0.5],
    ['a future last_reinforced', 0.5, -40 * DAY, 30, 0.1, 0.5],
    ['an out-of-range prior is clamped', 1.4, 0, 30, 0.1, 1],
  ])('decayedConfidence: %s', (_name, prior, age, days, per, want) => {
    expect(decayedConfidence(prior, NOW - age, NOW, days, per)).toBe(want);
  });

  it.each([
    [0.15, 0.15, true, true],
    [0.1500001, 0.15, true, false],
    [0.05, 0.15, false, false],
  ])('shouldPrune(%d, %d, active=%s) = %s (at-floor prunes)', (c, floor, active, want) => {
    expect(shouldPrune(c, floor, active)).toBe(want);
  });

  it('rounds away floating-point noise so an at-floor confidence prunes', () => {
    expect(0.55 - 4 * 0.1).toBeGreaterThan(0.15);
    expect(clampConfidence(0.55 - 4 * 0.1)).toBe(0.15);
    expect(shouldPrune(decayedConfidence(0.55, NOW - 120 * DAY, NOW, 30, 0.1), 0.15, true)).toBe(true);
  });

  it('merges provenance as an ordered union, dropping empties and duplicates', () => {
    expect(mergeProvenance(['a', 'b', 'a', ''], ['c', 'b', '', 'd', 'c'])).toEqual(['a', 'b', 'c', 'd']);
    expect(mergeProvenance([], [])).toEqual([]);
  });

  it('never moves the watermark backwards', () => {
    expect(nextWatermark(100, [50, 150, 120])).toBe(150);
    expect(nextWatermark(100, [50])).toBe(100);
    expect(nextWatermark(100, [])).toBe(100);
  });

  it("has memQL's defaults", () => {
    expect(CONSOLIDATION_DEFAULTS).toMatchObject({
      dedupThreshold: 0.86,
      decayDays: 30,
      decayPerInterval: 0.1,
      pruneConfidence: 0.15,
      reinforceBump: 0.15,
      defaultConfidence: 0.5,
    });
  });
});

const belief = (id: string, statement: string, over: Partial<Belief> = {}): Belief => ({
  id,
  owner: 'p',
  kind: 'reference',
  statement,
  confidence: 0.5,
  reinforceCount: 1,
  lastReinforcedMs: NOW,
  decayWindows: 0,
  status: 'active',
  derivedFrom: ['e0'],
  ...over,
});
const plan = (candidates: Parameters<typeof planConsolidation>[0]['candidates'], beliefs: Belief[], now = NOW) =>
  planConsolidation({
    candidates,
    beliefs,
    owner: 'p',
    nowMs: now,
    config: CONSOLIDATION_DEFAULTS,
    similarity: lexicalSimilarity,
  });

describe('planConsolidation', () => {
  it('reinforces a near-identical active belief: +0.15, count +1, clock reset, provenance union', () => {
    const b = belief('b1', 'the vault lock times out after ten seconds', {
      lastReinforcedMs: NOW - 40 * DAY,
      decayWindows: 1,
      confidence: 0.4,
    });
    const [action] = plan(
      [
        {
          statement: 'The vault lock times out after ten seconds.',
          kind: 'reference',
          confidence: 0.5,
          episodeIds: ['e1', 'e0'],
        },
      ],
      [b],
    );
    expect(action).toMatchObject({
      type: 'reinforce',
      change: {
        confidence: 0.55,
        reinforceCount: 2,
        lastReinforcedMs: NOW,
        decayWindows: 0,
        derivedFrom: ['e0', 'e1'],
      },
    });
  });

  it("creates a belief when nothing is similar enough, with the distiller's confidence", () => {
    const [action] = plan(
      [{ statement: 'releases are tagged from main only', kind: 'workflow', confidence: 0.7, episodeIds: ['e1'] }],
      [belief('b1', 'the vault lock times out')],
    );
    expect(action).toEqual({
      type: 'create',
      draft: {
        owner: 'p',
        kind: 'workflow',
        statement: 'releases are tagged from main only',
        confidence: 0.7,
        reinforceCount: 1,
        derivedFrom: ['e1'],
        createdMs: NOW,
      },
    });
  });

  it('lets a later cluster of the same run reinforce a belief an earlier cluster created', () => {
    const actions = plan(
      [
        { statement: 'tests run with vitest', kind: 'convention', confidence: 0.5, episodeIds: ['e1'] },
        { statement: 'Tests run with vitest.', kind: 'convention', confidence: 0.5, episodeIds: ['e2'] },
      ],
      [],
    );
    expect(actions).toEqual([
      {
        type: 'create',
        draft: expect.objectContaining({ confidence: 0.65, reinforceCount: 2, derivedFrom: ['e1', 'e2'] }),
      },
    ]);
  });

  it("skips a cluster whose episodes are already a belief's evidence (idempotent by provenance)", () => {
    const actions = plan(
      [{ statement: 'anything at all', kind: 'reference', confidence: 0.5, episodeIds: ['e0'] }],
      [belief('b1', 'something else')],
    );
    expect(actions.map((a) => a.type)).toEqual(['skip']);
  });

  it('decays each whole window once, and prunes at the floor without deleting', () => {
    const b = belief('b1', 'old belief', { confidence: 0.35, lastReinforcedMs: NOW - 65 * DAY });
    const first = plan([], [b]);
    expect(first).toEqual([
      { type: 'prune', belief: b, change: { confidence: 0.15, decayWindows: 2, status: 'pruned' } },
    ]);
    const decayedOnce = belief('b2', 'other', { confidence: 0.5, lastReinforcedMs: NOW - 31 * DAY });
    const [d] = plan([], [decayedOnce]);
    expect(d).toEqual({ type: 'decay', belief: decayedOnce, change: { confidence: 0.4, decayWindows: 1 } });
    // The same belief after that decay was written: nothing more until the next window.
    expect(plan([], [{ ...decayedOnce, confidence: 0.4, decayWindows: 1 }])).toEqual([]);
    expect(plan([], [{ ...decayedOnce, confidence: 0.4, decayWindows: 1 }], NOW + 30 * DAY)).toEqual([
      {
        type: 'decay',
        belief: { ...decayedOnce, confidence: 0.4, decayWindows: 1 },
        change: { confidence: 0.3, decayWindows: 2 },
      },
    ]);
    expect(plan([], [belief('b3', 'pruned one', { status: 'pruned', lastReinforcedMs: 0 })])).toEqual([]);
  });
});

describe('clusterBySimilarity', () => {
  it('groups similar items with the first one that leads a cluster, in order', () => {
    const items = [
      'lock timeout on save',
      'sync conflict copy found',
      'lock timeout on save again',
      'another sync conflict copy found',
    ];
    expect(clusterBySimilarity(items, lexicalSimilarity, 0.5)).toEqual([
      ['lock timeout on save', 'lock timeout on save again'],
      ['sync conflict copy found', 'another sync conflict copy found'],
    ]);
    expect(clusterBySimilarity(items, lexicalSimilarity, 1.01)).toEqual(items.map((i) => [i]));
  });
});
