import { TierLayoutError } from './errors.js';
import { Locator } from './locator.js';

/**
 * The three tiers of memory state. Only LOCAL_INDEX never syncs: a replicated database file is a
 * corruption pattern, so anything derived and device-bound lives there.
 */
export const Tier = {
  SOURCE: 'source',
  SHARED_ABSTRACTS: 'shared-abstracts',
  LOCAL_INDEX: 'local-index',
} as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

export const TIERS: readonly Tier[] = [Tier.SOURCE, Tier.SHARED_ABSTRACTS, Tier.LOCAL_INDEX];

/** Whether an external sync layer may replicate the tier's tree. */
export function tierSyncs(tier: Tier): boolean {
  return tier !== Tier.LOCAL_INDEX;
}

/** Whether the tier is rebuildable from SOURCE (so never authoritative). */
export function tierIsDerived(tier: Tier): boolean {
  return tier !== Tier.SOURCE;
}

/** A root locator per tier. The three roots must differ, so a derived tier never overwrites its source. */
export class TierLayout {
  readonly source: Locator;
  readonly sharedAbstracts: Locator;
  readonly localIndex: Locator;

  constructor(
    roots: { source?: Locator | string; sharedAbstracts?: Locator | string; localIndex?: Locator | string } = {},
  ) {
    const asLocator = (value: Locator | string | undefined, fallback: string) =>
      value instanceof Locator ? value : new Locator(value ?? fallback);
    this.source = asLocator(roots.source, Tier.SOURCE);
    this.sharedAbstracts = asLocator(roots.sharedAbstracts, Tier.SHARED_ABSTRACTS);
    this.localIndex = asLocator(roots.localIndex, Tier.LOCAL_INDEX);
    const keys = [this.source.key, this.sharedAbstracts.key, this.localIndex.key];
    if (new Set(keys).size !== keys.length) {
      throw new TierLayoutError(
        `tier roots must be distinct (source=${JSON.stringify(keys[0])}, shared-abstracts=${JSON.stringify(keys[1])}, ` +
          `local-index=${JSON.stringify(keys[2])}): a derived tier sharing a root would overwrite the source it rebuilds from`,
      );
    }
    Object.freeze(this);
  }

  /** The one tree that must never be replicated by sync. */
  get neverSyncRoot(): Locator {
    return this.localIndex;
  }

  rootFor(tier: Tier): Locator {
    switch (tier) {
      case Tier.SOURCE:
        return this.source;
      case Tier.SHARED_ABSTRACTS:
        return this.sharedAbstracts;
      case Tier.LOCAL_INDEX:
        return this.localIndex;
    }
  }
}

/**
 * Maintenance of a derived tier: a full rebuild from SOURCE, and the incremental feed of source
 * locators changed since a time. The memory index implements it.
 */
export abstract class DerivedMaintenance {
  /** Full rebuild of a derived tier from SOURCE. */
  abstract reindex(tier: Tier): Promise<void>;
  /** Source locators whose `Info.mtimeMs` is newer than `mtimeMs`. */
  abstract changedSince(mtimeMs: number): Promise<Locator[]>;
}
