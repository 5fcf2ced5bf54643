import { describe, expect, it } from 'vitest';
import { capabilities, Locator } from '../../src/index.js';
import { CAPABILITY_FLAGS, missingCapabilities } from '../../src/seam/capabilities.js';
import { TierLayoutError } from '../../src/seam/errors.js';
import { DerivedMaintenance, Tier, TierLayout, tierIsDerived, tierSyncs } from '../../src/seam/tiers.js';

describe('Tier', () => {
  it.each([
    [Tier.SOURCE, true, false],
    [Tier.SHARED_ABSTRACTS, true, true],
    [Tier.LOCAL_INDEX, false, true],
  ])('%s syncs=%s derived=%s', (tier, syncs, derived) => {
    expect(tierSyncs(tier)).toBe(syncs);
    expect(tierIsDerived(tier)).toBe(derived);
  });
});

describe('TierLayout', () => {
  it('defaults to tier-named roots and pins the never-sync root to the local index', () => {
    const layout = new TierLayout();
    expect(layout.rootFor(Tier.SOURCE).key).toBe('source');
    expect(layout.rootFor(Tier.SHARED_ABSTRACTS).key).toBe('shared-abstracts');
    expect(layout.rootFor(Tier.LOCAL_INDEX).key).toBe('local-index');
    expect(layout.neverSyncRoot.equals(layout.localIndex)).toBe(true);
  });

  it.each([
    [{ source: 'x', sharedAbstracts: 'x' }],
    [{ source: 'x', localIndex: 'x/' }],
    [{ sharedAbstracts: new Locator('y'), localIndex: 'y' }],
  ])('refuses colliding roots %j', (roots) => {
    expect(() => new TierLayout(roots)).toThrow(TierLayoutError);
  });
});

describe('DerivedMaintenance', () => {
  it('is abstract: a subclass must implement both operations', async () => {
    class Fake extends DerivedMaintenance {
      async reindex(): Promise<void> {}
      async changedSince(_mtimeMs: number): Promise<Locator[]> {
        return [new Locator('a.md')];
      }
    }
    expect((await new Fake().changedSince(0)).map(String)).toEqual(['a.md']);
  });
});

describe('Capabilities', () => {
  it('defaults every flag to false', () => {
    expect(capabilities()).toEqual({ concurrentWriters: false, conflictFiles: false, encryption: false, sync: false });
    expect(Object.isFrozen(capabilities())).toBe(true);
  });

  it('names every missing flag in canonical order; all-false required always passes', () => {
    const have = capabilities({ sync: true });
    expect(missingCapabilities({ sync: true, concurrentWriters: true, encryption: true }, have)).toEqual([
      'concurrentWriters',
      'encryption',
    ]);
    expect(missingCapabilities({}, capabilities())).toEqual([]);
    expect(CAPABILITY_FLAGS).toEqual(['concurrentWriters', 'conflictFiles', 'encryption', 'sync']);
  });
});
